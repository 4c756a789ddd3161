#pragma once
// The default evictor's rules, as MigrationControllerArgs carries them
// (Koordinator pkg/descheduler/apis/config/v1alpha2/types_pluginargs.go):
//
//   evictFailedBarePods: false     # a pod without ownerRefs may go when Failed
//   evictAllBarePods: false        # any pod without ownerRefs may go
//   evictLocalStoragePods: false   # emptyDir / hostPath volumes
//   evictSystemCriticalPods: false # priority >= 2000000000
//   ignorePvcPods: false           # true: pods with a PVC are never evicted
//   priorityThreshold: {value: 10000} or {name: some-priority-class}
//   labelSelector: {matchLabels: {...}, matchExpressions: [...]}
//   namespaces: {include: [...]} or {exclude: [...]} (not both)
//   nodeFit: false                 # evict only when another node fits the pod
//   skipEvictionGates: [BarePods, LocalStorage, ...]   # rules not applied

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/label_selector.hpp"

namespace troupe::plugins::descheduler {

struct Namespaces {
  std::vector<std::string> include;
  std::vector<std::string> exclude;
};

struct PriorityThreshold {
  std::optional<int32_t> value;
  std::string name;  // a PriorityClass, resolved through EvictorContext
};

/// The names skipEvictionGates accepts (Koordinator's gate names).
inline const std::set<std::string>& eviction_gate_names() {
  static const std::set<std::string> kNames = {
      "MaxMigratingGlobally", "MaxMigratingPerNode", "MaxMigratingPerNamespace", "MaxMigratingPerWorkload",
      "MaxUnavailablePerWorkload", "ExpectedReplicas", "PVC", "BarePods", "LocalStorage", "SystemCritical",
      "PriorityThreshold", "LabelSelector", "Namespaces", "NodeFit", "ObjectLimiter"};
  return kNames;
}

struct EvictorArgs {
  bool evict_failed_bare_pods = false;
  bool evict_all_bare_pods = false;
  bool evict_local_storage_pods = false;
  bool evict_system_critical_pods = false;
  bool ignore_pvc_pods = false;
  bool node_fit = false;
  std::optional<PriorityThreshold> priority_threshold;
  std::optional<LabelSelector> label_selector;
  std::optional<Namespaces> namespaces;
  std::set<std::string> skipped_gates;

  bool gate_on(const char* gate) const { return skipped_gates.count(gate) == 0; }

  /// Reads the evictor fields of a MigrationControllerArgs map (other keys
  /// are left to the caller); throws config::FieldError naming the field.
  static EvictorArgs from_yaml(const YAML::Node& args, const std::string& path);
};

/// {include, exclude} with at most one of them non-empty (validation in
/// Koordinator rejects both); throws config::FieldError.
Namespaces read_namespaces(const YAML::Node& node, const std::string& path);

}  // namespace troupe::plugins::descheduler
