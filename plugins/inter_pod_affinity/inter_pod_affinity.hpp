#pragma once
// InterPodAffinity (kube-scheduler): podAffinity / podAntiAffinity place a
// pod by the pods already placed in a topology domain (the nodes sharing a
// value of the term's topologyKey).
//
// Filter, for a node in domain d of each term's key, in this order:
// - every required affinity term needs a pod it matches in d, except for the
//   first pod of a group: when no placed pod matches the terms anywhere and
//   the pod matches its own terms, any node with the keys will do;
// - no required anti-affinity term may match a pod in d;
// - no placed pod's required anti-affinity term that matches the pod may
//   have a pod in d ("existing pods anti-affinity").
// Score: the pod's preferred terms, and placed pods' preferred terms (and
// required affinity terms, weighted hardPodAffinityWeight) that match it,
// add or subtract their weights for their domains; min-max normalised.
// ignorePreferredTermsOfExistingPods skips the score of a pod that has no
// preferred terms of its own (and only that, as upstream).
//
// Domains span node partitions, so the counting happens at PreFilter and
// PreScore on the cycle, over ClusterPods; Filter and Score look up the
// node's labels in what was counted. Preemption's dry run keeps the counts
// true as victims leave a node (AddPod/RemovePod), so evicting lower-priority
// pods can make room for a pod that anti-affinity keeps out. A term's
// namespaceSelector reads the namespaces' labels, which the cycle shares as
// NamespaceLabels (plugins/framework/affinity_term.hpp). The counting looks
// up candidate pods and terms in ClusterPods' label indexes where a term's
// selector allows it, and walks every placed pod where it does not
// (affinity_counting.hpp).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/framework/cluster_pods.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/affinity_term.hpp"

namespace troupe::plugins::affinity {

struct InterPodAffinityArgs {
  int32_t hard_pod_affinity_weight = 1;  // 0..100
  bool ignore_preferred_terms_of_existing_pods = false;

  /// Errors name the field ("hardPodAffinityWeight: ...").
  static InterPodAffinityArgs from_yaml(const YAML::Node& args);
};

/// topology key → value → pods counted there. Nested, so that Filter looks
/// a node's labels up without building a key (Filter must not allocate).
using TopologyCounts = std::map<std::string, std::map<std::string, int64_t>, std::less<>>;

/// What PreFilter counted.
struct AffinityFilterCounts {
  PodTerms terms;  // the pod's own
  Labels namespace_labels;  // of the pod's namespace: what placed pods' namespaceSelectors match it by
  TopologyCounts existing_anti_affinity;  // placed pods whose required anti-affinity matches the pod
  TopologyCounts affinity;                // placed pods matching all the pod's required affinity terms
  TopologyCounts anti_affinity;           // placed pods matching one of its required anti-affinity terms
};
/// `namespace_labels`: the labels of the pod's namespace.
AffinityFilterCounts count_for_filter(const Pod& pod, PodTerms terms, const ClusterPods& cluster,
                                      const Labels& namespace_labels = {});
/// Filter's verdict for a node with these labels.
PluginStatus filter_node(const AffinityFilterCounts& counts, const Pod& pod, const Labels& node_labels);
/// PreFilter has nothing to check: no required terms of its own, no placed pod's anti-affinity against it.
bool nothing_to_filter(const AffinityFilterCounts& counts);
/// upstream's updateWithPod: `other`, on a node with these labels, counted
/// (delta +1) or uncounted (−1); a count down to zero is erased.
void update_counts(AffinityFilterCounts& counts, const Pod& pod, const PodInfo& other, const Labels& node_labels,
                   int64_t delta);

/// topology key → value → summed weights (PreScore's topologyScore).
using TopologyScores = std::unordered_map<std::string, std::unordered_map<std::string, int64_t>>;
TopologyScores score_topologies(const Pod& pod, const PodTerms& terms, const ClusterPods& cluster,
                                const InterPodAffinityArgs& args, const Labels& namespace_labels = {});
int64_t score_node(const TopologyScores& scores, const Labels& node_labels);
/// Min-max to [0, 100]; all equal → 0.
void normalize_affinity_scores(std::vector<int64_t>& scores);

class InterPodAffinity final : public PreFilterPlugin,
                               public FilterPlugin,
                               public PreScorePlugin,
                               public ScorePlugin,
                               public EnqueueExtensions {
 public:
  static constexpr const char* kName = "InterPodAffinity";
  static constexpr const char* kReasonExistingAntiAffinity =
      "node(s) didn't satisfy existing pods anti-affinity rules";
  static constexpr const char* kReasonAffinity = "node(s) didn't match pod affinity rules";
  static constexpr const char* kReasonAntiAffinity = "node(s) didn't match pod anti-affinity rules";

  explicit InterPodAffinity(InterPodAffinityArgs args) : args_(args) {}
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);

  std::string_view name() const override { return kName; }
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus add_pod(CycleState& state, const PodInfo& pod, const PodInfo& added,
                       const NodeInfo& node) const override;
  PluginStatus remove_pod(CycleState& state, const PodInfo& pod, const PodInfo& removed,
                          const NodeInfo& node) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  PluginStatus pre_score(CycleState& state, const PodInfo& pod) const override;
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  bool has_normalize_score() const override { return true; }
  PluginStatus normalize_scores(const CycleState& state, const PodInfo& pod,
                                std::vector<int64_t>& scores) const override;
  std::vector<ClusterEvent> events_to_register() const override;

 private:
  struct State;
  PluginStatus update_on(CycleState& state, const PodInfo& pod, const PodInfo& other, const NodeInfo& node,
                         int64_t delta) const;
  InterPodAffinityArgs args_;
};

}  // namespace troupe::plugins::affinity
