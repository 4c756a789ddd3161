#pragma once
// WorkloadSelectors: the Services, ReplicationControllers, ReplicaSets and
// StatefulSets of the cluster, reduced to their pod selectors, and the one
// question PodTopologySpread asks of them: which pods are this pod's
// siblings? (upstream's helper.DefaultSelector). A pod without spread
// constraints of its own is spread by the profile's default constraints
// (`defaultingType: System`: 3 per host, 5 per zone, ScheduleAnyway) over the
// pods this selector matches.
//
// The cycle actor owns the one instance (fed by the INFORMER) and shares it
// with an attempt beside ClusterPods, as PodTopologySpread reads it at
// PreFilter and PreScore only.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "model/pod.hpp"
#include "model/workload_selector.hpp"
#include "plugins/framework/label_key_counts.hpp"

namespace troupe::plugins {

/// The kind of controller default spreading follows (upstream's
/// DefaultSelector), by the owner's group version and kind; nullopt for others.
std::optional<WorkloadKind> controller_kind(const OwnerReference& owner);

class WorkloadSelectors {
 public:
  /// Adds or replaces an object's selector. False when nothing changed (a
  /// ReplicaSet's status update), so the generation stays.
  bool upsert(WorkloadSelector workload);
  /// False when no such object was known.
  bool remove(WorkloadKind kind, const std::string& ns, const std::string& name);

  /// The selector of the pod's siblings, as upstream's DefaultSelector: the
  /// labels of every Service in the pod's namespace whose selector the pod's
  /// labels match (a Service without a selector selects nothing), merged with
  /// the selector of the ReplicationController (v1), ReplicaSet or StatefulSet
  /// (apps/v1) that is the pod's controller. Empty (LabelSelector::empty())
  /// when none applies: the pod then gets no default constraints.
  LabelSelector default_selector(const Pod& pod) const;

  /// The label keys the selectors name: a pod's label of another key
  /// changes neither which Services select the pod nor its default selector.
  const LabelKeyCounts& selected_keys() const { return selected_keys_; }

  size_t size() const { return objects_.size(); }
  /// Bumped on every change that may change a pod's default selector.
  uint64_t generation() const { return generation_; }

 private:
  using Key = std::tuple<WorkloadKind, std::string, std::string>;  // kind, namespace, name
  std::map<Key, WorkloadSelector> objects_;
  uint64_t generation_ = 0;
  LabelKeyCounts selected_keys_;
  void count_keys(const WorkloadSelector& workload, bool add);
  const WorkloadSelector* find(WorkloadKind kind, const std::string& ns, const std::string& name) const;
};

}  // namespace troupe::plugins
