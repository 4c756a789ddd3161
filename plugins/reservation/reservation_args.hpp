#pragma once
// ReservationArgs (Koordinator pkg/scheduler/apis/config/v1 types.go,
// defaults.go, validation_pluginargs.go), decoded from the pluginConfig YAML
// with errors naming the field:
//
//   enablePreemption: false
//   minCandidateNodesPercentage: 10      # [0, 100]
//   minCandidateNodesAbsolute: 100       # >= 0; not both 0
//   controllerWorkers: 1                 # >= 1
//   gcDurationSeconds: 86400             # > 0
//   gcIntervalSeconds: 60                # > 0
//   resyncIntervalSeconds: 60            # > 0
//   disableGarbageCollection: false
//   ignoredResources: [vendor.com/x]     # extended resources only
//   ignoredResourceGroups: [vendor.com]  # no '/', not kubernetes.io
//   preAllocationConfig: {enableClusterMode, clusterLabelKey,
//                         clusterPriorityAnnotationKey, preferNoPreAllocatedPods}
//   reservationSelectorIndex: {enabled, keyPrefixes: [], keys: []}

#include <cstdint>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace troupe::plugins::reservation {

struct PreAllocationConfig {
  bool enable_cluster_mode = false;
  std::string cluster_label_key = "pod.koordinator.sh/is-pre-allocatable";
  std::string cluster_priority_annotation_key = "pod.koordinator.sh/pre-allocatable-priority";
  bool prefer_no_pre_allocated_pods = false;
};

struct ReservationSelectorIndex {
  bool enabled = false;
  std::vector<std::string> key_prefixes;
  std::vector<std::string> keys;
};

struct ReservationArgs {
  bool enable_preemption = false;
  int32_t min_candidate_nodes_percentage = 10;
  int32_t min_candidate_nodes_absolute = 100;
  int32_t controller_workers = 1;
  int64_t gc_duration_seconds = 86400;
  int64_t gc_interval_seconds = 60;
  int64_t resync_interval_seconds = 60;
  bool disable_garbage_collection = false;
  std::vector<std::string> ignored_resources;
  std::vector<std::string> ignored_resource_groups;
  PreAllocationConfig pre_allocation;
  ReservationSelectorIndex selector_index;

  /// Throws config::FieldError naming the field.
  static ReservationArgs from_yaml(const YAML::Node& args);
  /// An ignored extended resource (by name or by its group before '/').
  bool ignores(const std::string& resource) const;
};

}  // namespace troupe::plugins::reservation
