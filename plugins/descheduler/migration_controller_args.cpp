#include "plugins/descheduler/migration_controller_args.hpp"

#include <cstdlib>

#include "config/descheduler_config.hpp"
#include "config/yaml_fields.hpp"

namespace troupe::plugins::descheduler {

using config::child_path;
using config::FieldError;
using config::is_absent;

namespace {

std::optional<int32_t> read_count(const YAML::Node& map, const char* key) {
  const YAML::Node node = map[key];
  if (is_absent(node)) return std::nullopt;
  const int64_t value = config::read_int(node, key);
  if (value < 0 || value > INT32_MAX) throw FieldError(key, "must be between 0 and 2147483647, got " + node.Scalar());
  return static_cast<int32_t>(value);
}

std::optional<IntOrString> read_int_or_percent(const YAML::Node& map, const char* key) {
  const YAML::Node node = map[key];
  if (is_absent(node)) return std::nullopt;
  return config::read_int_or_percent(node, key);
}

/// Float64OrString: 10, 2.5 or "10".
double read_qps(const YAML::Node& node, const std::string& path) {
  if (!node.IsScalar()) throw FieldError(path, "must be a number or a numeric string");
  const std::string& text = node.Scalar();
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) throw FieldError(path, "\"" + text + "\" is not a number");
  if (value < 0) throw FieldError(path, "must not be negative");
  return value;
}

ObjectLimiterArgs read_limiter(const YAML::Node& node, const std::string& path) {
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path, {"duration", "maxMigrating", "burst"});
  ObjectLimiterArgs out;
  config::read_optional(node, path, "duration", out.duration);
  if (out.duration.count() < 0) throw FieldError(child_path(path, "duration"), "must not be negative");
  if (!is_absent(node["maxMigrating"])) {
    out.max_migrating = config::read_int_or_percent(node["maxMigrating"], child_path(path, "maxMigrating"));
  }
  config::read_optional(node, path, "burst", out.burst);
  if (out.burst < 0) throw FieldError(child_path(path, "burst"), "must not be negative");
  return out;
}

std::map<std::string, ObjectLimiterArgs> read_limiters(const YAML::Node& node) {
  std::map<std::string, ObjectLimiterArgs> out;
  config::expect_map(node, "objectLimiters");
  for (const auto& entry : node) {
    const std::string name = config::read_string(entry.first, "objectLimiters");
    if (name != kWorkloadLimiter) {
      throw FieldError(child_path("objectLimiters", name), "unknown limit object (only \"workload\" is supported)");
    }
    out[name] = read_limiter(entry.second, child_path("objectLimiters", name));
  }
  return out;
}

void read_arbitration(const YAML::Node& node, MigrationControllerArgs& out) {
  const std::string path = "arbitrationArgs";
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path, {"enabled", "interval"});
  config::read_optional(node, path, "enabled", out.arbitration_enabled);
  config::read_optional(node, path, "interval", out.arbitration_interval);
  if (out.arbitration_interval.count() <= 0) throw FieldError(child_path(path, "interval"), "must be positive");
}

void validate(const MigrationControllerArgs& out) {
  if (out.default_job_mode != kModeReservationFirst && out.default_job_mode != kModeEvictDirectly) {
    throw FieldError("defaultJobMode", "must be ReservationFirst or EvictDirectly, got \"" + out.default_job_mode + "\"");
  }
  if (out.eviction_policy != "Eviction" && out.eviction_policy != "Delete" && out.eviction_policy != "SoftEviction") {
    throw FieldError("evictionPolicy", "must be Eviction, Delete or SoftEviction, got \"" + out.eviction_policy + "\"");
  }
  if (out.default_job_ttl.count() < 0) throw FieldError("defaultJobTTL", "must not be negative");
  if (out.max_concurrent_reconciles <= 0) throw FieldError("maxConcurrentReconciles", "must be positive");
  if (out.evict_burst <= 0) throw FieldError("evictBurst", "must be positive");
  if (!out.node_selector.empty()) {
    auto parsed = parse_label_selector(out.node_selector);
    if (!parsed) throw FieldError("nodeSelector", parsed.message());
  }
}

}  // namespace

MigrationControllerArgs MigrationControllerArgs::from_yaml(const YAML::Node& args) {
  MigrationControllerArgs out;
  if (is_absent(args)) return out;
  const std::string path;
  config::expect_map(args, path);
  config::reject_unknown_fields(
      args, path,
      {"dryRun", "maxConcurrentReconciles", "evictFailedBarePods", "evictAllBarePods", "evictLocalStoragePods",
       "evictSystemCriticalPods", "ignorePvcPods", "priorityThreshold", "labelSelector", "namespaces", "nodeFit",
       "skipEvictionGates", "nodeSelector", "maxMigratingGlobally", "maxMigratingPerNode", "maxMigratingPerNamespace",
       "maxMigratingPerWorkload", "maxUnavailablePerWorkload", "skipCheckExpectedReplicas", "objectLimiters",
       "defaultJobMode", "defaultJobTTL", "schedulerNames", "evictQPS", "evictBurst", "evictionPolicy",
       "defaultDeleteOptions", "arbitrationArgs"});
  out.evictor = EvictorArgs::from_yaml(args, path);
  config::read_optional(args, path, "dryRun", out.dry_run);
  config::read_optional(args, path, "maxConcurrentReconciles", out.max_concurrent_reconciles);
  config::read_optional(args, path, "nodeSelector", out.node_selector);
  out.max_migrating_globally = read_count(args, "maxMigratingGlobally");
  if (auto v = read_count(args, "maxMigratingPerNode")) out.max_migrating_per_node = v;
  out.max_migrating_per_namespace = read_count(args, "maxMigratingPerNamespace");
  out.max_migrating_per_workload = read_int_or_percent(args, "maxMigratingPerWorkload");
  out.max_unavailable_per_workload = read_int_or_percent(args, "maxUnavailablePerWorkload");
  config::read_optional(args, path, "skipCheckExpectedReplicas", out.skip_check_expected_replicas);
  // An empty map takes the default limiter, as SetDefaults does.
  if (!is_absent(args["objectLimiters"])) {
    auto limiters = read_limiters(args["objectLimiters"]);
    if (!limiters.empty()) out.object_limiters = std::move(limiters);
  }
  config::read_optional(args, path, "defaultJobMode", out.default_job_mode);
  if (out.default_job_mode.empty()) out.default_job_mode = kModeReservationFirst;
  config::read_optional(args, path, "defaultJobTTL", out.default_job_ttl);
  auto schedulers = config::read_string_list(args["schedulerNames"], "schedulerNames");
  if (!schedulers.empty()) out.scheduler_names = std::move(schedulers);
  if (!is_absent(args["evictQPS"])) out.evict_qps = read_qps(args["evictQPS"], "evictQPS");
  config::read_optional(args, path, "evictBurst", out.evict_burst);
  config::read_optional(args, path, "evictionPolicy", out.eviction_policy);
  if (out.eviction_policy.empty()) out.eviction_policy = "Eviction";
  if (!is_absent(args["defaultDeleteOptions"])) {
    config::expect_map(args["defaultDeleteOptions"], "defaultDeleteOptions");
    out.default_delete_options = YAML::Clone(args["defaultDeleteOptions"]);
  }
  if (!is_absent(args["arbitrationArgs"])) read_arbitration(args["arbitrationArgs"], out);
  validate(out);
  return out;
}

Result<MigrationControllerArgs> decode_migration_controller_args(const YAML::Node& args) {
  MigrationControllerArgs out;
  Status status = config::catch_field_errors([&] { out = MigrationControllerArgs::from_yaml(args); });
  if (!status) return Error{status.message()};
  return out;
}

}  // namespace troupe::plugins::descheduler
