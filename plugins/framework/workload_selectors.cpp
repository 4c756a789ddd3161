#include "plugins/framework/workload_selectors.hpp"

#include <algorithm>
#include <optional>

namespace troupe::plugins {

namespace {

bool labels_match(const Labels& selector, const Labels& labels) {
  return std::all_of(selector.begin(), selector.end(), [&](const auto& kv) {
    auto it = labels.find(kv.first);
    return it != labels.end() && it->second == kv.second;
  });
}

}  // namespace

std::optional<WorkloadKind> controller_kind(const OwnerReference& owner) {
  if (owner.api_version == "v1" && owner.kind == "ReplicationController") return WorkloadKind::replication_controller;
  if (owner.api_version == "apps/v1" && owner.kind == "ReplicaSet") return WorkloadKind::replica_set;
  if (owner.api_version == "apps/v1" && owner.kind == "StatefulSet") return WorkloadKind::stateful_set;
  return std::nullopt;
}

bool WorkloadSelectors::upsert(WorkloadSelector workload) {
  Key key{workload.kind, workload.namespace_name, workload.name};
  auto it = objects_.find(key);
  if (it != objects_.end() && it->second == workload) return false;
  if (it != objects_.end()) count_keys(it->second, false);
  count_keys(workload, true);
  objects_[std::move(key)] = std::move(workload);
  ++generation_;
  return true;
}

bool WorkloadSelectors::remove(WorkloadKind kind, const std::string& ns, const std::string& name) {
  auto it = objects_.find(Key{kind, ns, name});
  if (it == objects_.end()) return false;
  count_keys(it->second, false);
  objects_.erase(it);
  ++generation_;
  return true;
}

void WorkloadSelectors::count_keys(const WorkloadSelector& workload, bool add) {
  for (const auto& [key, value] : workload.match_labels) add ? selected_keys_.add(key) : selected_keys_.remove(key);
  for (const LabelRequirement& r : workload.requirements) add ? selected_keys_.add(r.key) : selected_keys_.remove(r.key);
}

const WorkloadSelector* WorkloadSelectors::find(WorkloadKind kind, const std::string& ns,
                                                const std::string& name) const {
  auto it = objects_.find(Key{kind, ns, name});
  return it == objects_.end() ? nullptr : &it->second;
}

LabelSelector WorkloadSelectors::default_selector(const Pod& pod) const {
  const std::string& ns = pod.meta.namespace_name;
  Labels merged;
  // The Services of the namespace: keys sort by kind first, so they are one range.
  for (auto it = objects_.lower_bound(Key{WorkloadKind::service, ns, ""});
       it != objects_.end() && std::get<0>(it->first) == WorkloadKind::service && std::get<1>(it->first) == ns; ++it) {
    // Matching services agree on every key they share (they all match the pod's labels).
    const Labels& selector = it->second.match_labels;
    if (!selector.empty() && labels_match(selector, pod.meta.labels)) merged.insert(selector.begin(), selector.end());
  }
  std::vector<LabelRequirement> extra;
  if (const OwnerReference* owner = pod.meta.controller_ref()) {
    if (auto kind = controller_kind(*owner)) {
      if (const WorkloadSelector* controller = find(*kind, ns, owner->name)) {
        for (const auto& [key, value] : controller->match_labels) merged[key] = value;
        extra = controller->requirements;
      }
    }
  }
  std::vector<LabelRequirement> requirements;
  for (const auto& [key, value] : merged)
    requirements.push_back(LabelRequirement{key, LabelRequirement::Op::equals, {value}});
  for (auto& r : extra) requirements.push_back(std::move(r));
  return LabelSelector(std::move(requirements));
}

}  // namespace troupe::plugins
