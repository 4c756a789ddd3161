#pragma once
// TaintToleration: a node's NoSchedule/NoExecute taints must all be
// tolerated (Filter); fewer untolerated PreferNoSchedule taints score higher
// (Score, reverse-normalized so the node with the most scores 0).

#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins {

class TaintToleration final : public FilterPlugin, public ScorePlugin, public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kTaintToleration;

  std::string_view name() const override { return kName; }
  /// UnschedulableAndUnresolvable "node(s) had untolerated taint {key: value}"
  /// for the first NoSchedule/NoExecute taint no toleration covers.
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  /// The number of PreferNoSchedule taints not tolerated by a toleration
  /// whose effect is empty or PreferNoSchedule.
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  bool has_normalize_score() const override { return true; }
  PluginStatus normalize_scores(const CycleState& state, const PodInfo& pod,
                                std::vector<int64_t>& scores) const override;
  std::vector<ClusterEvent> events_to_register() const override;
};

/// The first NoSchedule/NoExecute taint no toleration covers, nullptr when
/// every one is tolerated (upstream's FindMatchingUntoleratedTaint with
/// DoNotScheduleTaintsFilterFunc): what TaintToleration's Filter,
/// PodTopologySpread's nodeTaintsPolicy and the descheduler's NodeFit ask.
const Taint* first_untolerated_scheduling_taint(const std::vector<Taint>& taints,
                                                const std::vector<Toleration>& tolerations);

/// The reason text for an untolerated taint: "node(s) had untolerated taint {k: v}".
std::string untolerated_taint_reason(const Taint& taint);

}  // namespace troupe::plugins
