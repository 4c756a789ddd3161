#pragma once
// PodTopologySpread (kube-scheduler): spec.topologySpreadConstraints keep the
// pods a selector matches evenly spread over the values of a node label (a
// zone, a rack, a host). DoNotSchedule constraints filter: on a node in
// domain d, (matching pods in d) + (1 if the pod itself matches) − (the fewest
// in any domain) may not exceed maxSkew. ScheduleAnyway constraints score:
// the fewer matching pods in a node's domain, the better.
//
// Domains span node partitions, so the counting happens at PreFilter and
// PreScore on the cycle, over ClusterPods (plugins/framework/cluster_pods.hpp);
// Filter and Score only look up the node's domain in what was counted.
// The counting visits only the pods labelled as a selector requires where it
// can (domain_counting.hpp), and walks every node where it cannot.
// Preemption's dry run keeps the DoNotSchedule counts true as victims leave a
// node (AddPod/RemovePod).
//
// A pod without constraints of its own gets the profile's default constraints
// (default_constraints.hpp) over its siblings' selector, which the cycle
// shares as WorkloadSelectors.
//
// Difference from upstream:
// - PreScore runs before Filter (plugin.hpp), so the score's normalising
//   weight log(domains + 2) counts the domains of the nodes that pass the
//   pod's node affinity, not of the nodes that passed every Filter.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/label_selector.hpp"
#include "model/node.hpp"
#include "model/result.hpp"
#include "model/scheduling_types.hpp"
#include "plugins/framework/cluster_pods.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/workload_selectors.hpp"

namespace troupe::plugins::spread {

struct PodTopologySpreadArgs {
  /// What spreads a pod without constraints of its own: kube-scheduler's
  /// system defaults, or with `defaultingType: List` the `defaultConstraints`.
  std::vector<TopologySpreadConstraint> default_constraints;
  /// `defaultingType: System`: a node lacking one of the defaults' keys
  /// still scores by the others (a node without a zone label by its host).
  bool system_defaulted = true;

  PodTopologySpreadArgs();
  /// Errors name the field ("defaultConstraints[0].maxSkew: ...").
  static PodTopologySpreadArgs from_yaml(const YAML::Node& args);
};

/// One of the pod's constraints, ready to count with: its selector has the
/// pod's values of matchLabelKeys ANDed in.
struct SpreadConstraint {
  int32_t max_skew = 1;
  std::string topology_key;
  LabelSelector selector = LabelSelector::nothing();
  std::optional<int32_t> min_domains;
  NodeInclusionPolicy node_affinity_policy = NodeInclusionPolicy::honor;
  NodeInclusionPolicy node_taints_policy = NodeInclusionPolicy::ignore;
};

/// The pod's constraints of one kind (DoNotSchedule or ScheduleAnyway).
std::vector<SpreadConstraint> constraints_of(const Pod& pod, UnsatisfiableAction kind);

/// Whether a pod counts for `selector`: of `ns`, not terminating, matched
/// (upstream's countPodsMatchSelector: an empty selector counts none).
bool counts_for(const ObjectMeta& meta, const LabelSelector& selector, const std::string& ns);
/// The pods on the list that count for `selector`, without the nominated
/// pods' placeholders of `leave_out_nominated` when given.
int64_t count_matching(const std::vector<std::shared_ptr<const PodInfo>>& pods, const LabelSelector& selector,
                       const std::string& ns, const ClusterPods* leave_out_nominated = nullptr);

/// The node counts for `constraint` (matchNodeInclusionPolicies): with
/// nodeAffinityPolicy Honor it must match the pod's nodeSelector and required
/// node affinity, with nodeTaintsPolicy Honor the pod must tolerate its
/// NoSchedule/NoExecute taints.
bool node_included(const SpreadConstraint& constraint, const Pod& pod, const Node& node);

/// What PreFilter counted for the DoNotSchedule constraints.
struct SpreadFilterCounts {
  std::vector<SpreadConstraint> constraints;
  /// Per constraint: topology value → matching pods in that domain, for the
  /// domains with any (and those a preemption dry run has emptied).
  std::vector<std::unordered_map<std::string, int64_t>> matching;
  /// Per constraint: how many domains there are, with or without matching
  /// pods. The counting and the dry run list the same domains (a node with
  /// the keys that the constraint includes), so `matching` holds no others.
  std::vector<size_t> domains;
  /// Per constraint: the fewest matching pods in any domain (0 when there
  /// are fewer domains than minDomains).
  std::vector<int64_t> min_matching;
};
SpreadFilterCounts count_for_filter(const Pod& pod, std::vector<SpreadConstraint> constraints,
                                    const ClusterPods& cluster);
/// Filter's verdict for a node with these labels.
PluginStatus filter_node(const SpreadFilterCounts& counts, const Pod& pod, const Labels& node_labels);
/// upstream's updateWithPod: `other`, on `node`, counted (delta +1) or
/// uncounted (−1) in the domains of the constraints it counts for; the
/// fewest per constraint follows.
void update_counts(SpreadFilterCounts& counts, const Pod& pod, const PodInfo& other, const Node& node,
                   int64_t delta);

/// What PreScore counted for the ScheduleAnyway constraints.
struct SpreadScoreCounts {
  std::vector<SpreadConstraint> constraints;
  /// Per constraint: topology value → matching pods, for the domains that
  /// have any (a missing domain scores as 0; upstream counts the hostname key
  /// on the node at Score, the result is the same).
  std::vector<std::unordered_map<std::string, int64_t>> matching;
  std::vector<double> weights;  // log(domains + 2) per constraint
  /// A node lacking any constraint's key is ignored; else (system defaults)
  /// it counts, and scores, by the constraints whose keys it has.
  bool require_all_keys = true;
};
SpreadScoreCounts count_for_score(const Pod& pod, std::vector<SpreadConstraint> constraints,
                                  const ClusterPods& cluster, bool require_all_keys = true);
/// The raw score of a node; kIgnoredNode when it lacks a constraint's label
/// (and every key is required).
int64_t score_node(const SpreadScoreCounts& counts, const Node& node);
inline constexpr int64_t kIgnoredNode = -1;
/// Fewer matching pods rank higher; ignored nodes get 0.
void normalize_spread_scores(std::vector<int64_t>& scores);

class PodTopologySpread final : public PreFilterPlugin,
                                public FilterPlugin,
                                public PreScorePlugin,
                                public ScorePlugin,
                                public EnqueueExtensions {
 public:
  static constexpr const char* kName = "PodTopologySpread";
  static constexpr const char* kReasonNotMatch = "node(s) didn't match pod topology spread constraints";
  static constexpr const char* kReasonMissingLabel =
      "node(s) didn't match pod topology spread constraints (missing required label)";

  explicit PodTopologySpread(PodTopologySpreadArgs args) : args_(std::move(args)) {}
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);
  /// The profile's PodTopologySpread, or nullptr.
  static const PodTopologySpread* of(const Framework& framework);
  const PodTopologySpreadArgs& args() const { return args_; }

  /// The pod's own constraints of one kind; without any of its own, the
  /// default ones over the siblings `workloads` finds (none without `workloads`).
  std::vector<SpreadConstraint> constraints_for(const Pod& pod, UnsatisfiableAction kind,
                                                const WorkloadSelectors* workloads) const;

  std::string_view name() const override { return kName; }
  /// Skip without DoNotSchedule constraints; else counts their domains.
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus add_pod(CycleState& state, const PodInfo& pod, const PodInfo& added,
                       const NodeInfo& node) const override;
  PluginStatus remove_pod(CycleState& state, const PodInfo& pod, const PodInfo& removed,
                          const NodeInfo& node) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  /// Skip without ScheduleAnyway constraints; else counts their domains.
  PluginStatus pre_score(CycleState& state, const PodInfo& pod) const override;
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  bool has_normalize_score() const override { return true; }
  PluginStatus normalize_scores(const CycleState& state, const PodInfo& pod,
                                std::vector<int64_t>& scores) const override;
  std::vector<ClusterEvent> events_to_register() const override;

 private:
  struct State;
  PodTopologySpreadArgs args_;
  PluginStatus update_on(CycleState& state, const PodInfo& pod, const PodInfo& other, const NodeInfo& node,
                         int64_t delta) const;
};

}  // namespace troupe::plugins::spread
