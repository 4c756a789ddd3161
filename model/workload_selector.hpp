#pragma once
// The pod selector of a Service, ReplicationController, ReplicaSet or
// StatefulSet: all that PodTopologySpread's default constraints need of these
// objects (upstream's helper.DefaultSelector builds a pod's selector from the
// Services that select it and the controller that owns it).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "model/label_selector.hpp"
#include "model/result.hpp"

namespace troupe {

enum class WorkloadKind { service, replication_controller, replica_set, stateful_set };

/// "Service", "ReplicationController", "ReplicaSet", "StatefulSet".
std::string_view kind_name(WorkloadKind kind);
/// The kind a watched collection holds: "services", "replicationcontrollers",
/// "replicasets", "statefulsets"; nullopt for any other resource.
std::optional<WorkloadKind> workload_kind_of_resource(std::string_view resource);

struct WorkloadSelector {
  WorkloadKind kind = WorkloadKind::service;
  std::string namespace_name;
  std::string name;
  /// Service and ReplicationController: spec.selector, a label map (absent
  /// and {} are alike here: neither adds a label to a pod's selector).
  Labels match_labels;
  /// ReplicaSet and StatefulSet: spec.selector's requirements (matchLabels
  /// and matchExpressions), none when it is absent.
  std::vector<LabelRequirement> requirements;

  bool operator==(const WorkloadSelector& other) const;
  bool operator!=(const WorkloadSelector& other) const { return !(*this == other); }
};

/// Reads metadata.namespace, metadata.name and spec.selector of an object of
/// `kind`. Errors name the field ("ReplicaSet web/a: spec.selector.matchExpressions[0].operator: ...").
Result<WorkloadSelector> decode_workload_selector(WorkloadKind kind, const rapidjson::Value& object);

}  // namespace troupe
