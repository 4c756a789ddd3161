#pragma once
// MigrationControllerArgs (Koordinator pkg/descheduler/apis/config/v1alpha2
// types_pluginargs.go, defaults.go), decoded from pluginConfig YAML with
// field-named errors. Besides the evictor rules (evictor_args.hpp):
//
//   dryRun: false
//   maxConcurrentReconciles: 1
//   nodeSelector: ""                    # label query string
//   maxMigratingGlobally: null          # no global limit
//   maxMigratingPerNode: 2
//   maxMigratingPerNamespace: null
//   maxMigratingPerWorkload: null       # int or "N%"; unset/0 -> see workload_limits.hpp
//   maxUnavailablePerWorkload: null     # int or "N%"
//   skipCheckExpectedReplicas: false
//   objectLimiters: {workload: {duration: 5m, maxMigrating: null, burst: 0}}
//   defaultJobMode: ReservationFirst    # or EvictDirectly
//   defaultJobTTL: 5m
//   schedulerNames: [koord-scheduler]
//   evictQPS: "10"                      # number or numeric string
//   evictBurst: 1
//   evictionPolicy: Eviction            # Eviction, Delete, SoftEviction
//   defaultDeleteOptions: {...}         # kept as written
//   arbitrationArgs: {enabled: true, interval: 500ms}

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/int_or_string.hpp"
#include "model/result.hpp"
#include "plugins/descheduler/evictor_args.hpp"

namespace troupe::plugins::descheduler {

inline constexpr const char* kModeReservationFirst = "ReservationFirst";
inline constexpr const char* kModeEvictDirectly = "EvictDirectly";
inline constexpr const char* kWorkloadLimiter = "workload";

struct ObjectLimiterArgs {
  std::chrono::nanoseconds duration{0};
  /// nullopt: the workload's maxMigratingPerWorkload figure.
  std::optional<IntOrString> max_migrating;
  /// 0 means 1 (golang rate.Limiter burst).
  int32_t burst = 0;
};

struct MigrationControllerArgs {
  bool dry_run = false;
  int32_t max_concurrent_reconciles = 1;
  EvictorArgs evictor;
  std::string node_selector;
  std::optional<int32_t> max_migrating_globally;
  std::optional<int32_t> max_migrating_per_node = 2;
  std::optional<int32_t> max_migrating_per_namespace;
  std::optional<IntOrString> max_migrating_per_workload;
  std::optional<IntOrString> max_unavailable_per_workload;
  bool skip_check_expected_replicas = false;
  std::map<std::string, ObjectLimiterArgs> object_limiters = {{kWorkloadLimiter, {std::chrono::minutes(5), {}, 0}}};
  std::string default_job_mode = kModeReservationFirst;
  std::chrono::nanoseconds default_job_ttl = std::chrono::minutes(5);
  std::vector<std::string> scheduler_names = {"koord-scheduler"};
  double evict_qps = 10;
  int32_t evict_burst = 1;
  std::string eviction_policy = "Eviction";
  YAML::Node default_delete_options;
  bool arbitration_enabled = true;
  std::chrono::nanoseconds arbitration_interval = std::chrono::milliseconds(500);

  /// Throws config::FieldError naming the field.
  static MigrationControllerArgs from_yaml(const YAML::Node& args);
};

Result<MigrationControllerArgs> decode_migration_controller_args(const YAML::Node& args);

}  // namespace troupe::plugins::descheduler
