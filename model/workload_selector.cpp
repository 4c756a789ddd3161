#include "model/workload_selector.hpp"

#include "model/json.hpp"

namespace troupe {

namespace {

/// A Service's or ReplicationController's spec.selector: a map of strings.
Status decode_label_map(const rapidjson::Value& json, Labels& out) {
  if (!json.IsObject()) return Error{"spec.selector: Invalid value: must be a map of label values"};
  for (const auto& m : json.GetObject()) {
    std::string key(m.name.GetString(), m.name.GetStringLength());
    if (!m.value.IsString()) return Error{"spec.selector." + key + ": Invalid value: must be a string"};
    out[key] = std::string(m.value.GetString(), m.value.GetStringLength());
  }
  return {};
}

}  // namespace

std::string_view kind_name(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::service: return "Service";
    case WorkloadKind::replication_controller: return "ReplicationController";
    case WorkloadKind::replica_set: return "ReplicaSet";
    case WorkloadKind::stateful_set: return "StatefulSet";
  }
  return "";
}

std::optional<WorkloadKind> workload_kind_of_resource(std::string_view resource) {
  if (resource == "services") return WorkloadKind::service;
  if (resource == "replicationcontrollers") return WorkloadKind::replication_controller;
  if (resource == "replicasets") return WorkloadKind::replica_set;
  if (resource == "statefulsets") return WorkloadKind::stateful_set;
  return std::nullopt;
}

bool WorkloadSelector::operator==(const WorkloadSelector& o) const {
  return kind == o.kind && namespace_name == o.namespace_name && name == o.name && match_labels == o.match_labels &&
         requirements == o.requirements;
}

Result<WorkloadSelector> decode_workload_selector(WorkloadKind kind, const rapidjson::Value& object) {
  const std::string what(kind_name(kind));
  if (!object.IsObject()) return Error{what + ": Invalid value: must be an object"};
  WorkloadSelector out;
  out.kind = kind;
  out.namespace_name = get_string(object, "metadata", "namespace");
  out.name = get_string(object, "metadata", "name");
  if (out.name.empty()) return Error{what + ": metadata.name: Required value"};
  const std::string prefix = what + " " + out.namespace_name + "/" + out.name + ": ";
  const rapidjson::Value* selector = find_path(object, "spec", "selector");
  if (selector == nullptr || selector->IsNull()) return out;  // absent: selects no pod
  if (kind == WorkloadKind::service || kind == WorkloadKind::replication_controller) {
    if (Status ok = decode_label_map(*selector, out.match_labels); !ok.ok()) return Error{prefix + ok.message()};
    return out;
  }
  auto decoded = decode_label_selector(*selector, "spec.selector");
  if (!decoded) return Error{prefix + decoded.message()};
  out.requirements = decoded->requirements();
  return out;
}

}  // namespace troupe
