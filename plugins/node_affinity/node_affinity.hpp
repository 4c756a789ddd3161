#pragma once
// NodeAffinity: spec.nodeSelector and the required node affinity terms must
// match (Filter); matching preferred terms add their weights (Score,
// normalized so the best node gets 100). The scheduler-wide `addedAffinity`
// arg applies to every pod of the profile.

#include <optional>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "model/scheduling_types.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins {

struct NodeAffinityArgs {
  /// addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.
  std::optional<NodeSelector> added_required;
  /// addedAffinity.preferredDuringSchedulingIgnoredDuringExecution.
  std::vector<PreferredSchedulingTerm> added_preferred;

  /// Errors name the field: "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]...".
  static NodeAffinityArgs from_yaml(const YAML::Node& args);
};

class NodeAffinity final : public PreFilterPlugin,
                           public FilterPlugin,
                           public PreScorePlugin,
                           public ScorePlugin,
                           public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kNodeAffinity;
  static constexpr const char* kReasonPod = "node(s) didn't match Pod's node affinity/selector";
  static constexpr const char* kReasonEnforced = "node(s) didn't match scheduler-enforced node affinity";
  static constexpr const char* kReasonConflict = "pod affinity terms conflict";

  explicit NodeAffinity(NodeAffinityArgs args) : args_(std::move(args)) {}
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);

  std::string_view name() const override { return kName; }
  /// Skip when neither the pod nor the profile constrain nodes; restricts the
  /// candidates when every required term names nodes by metadata.name In.
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  /// Skip when there is no preferred term to score.
  PluginStatus pre_score(CycleState& state, const PodInfo& pod) const override;
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  bool has_normalize_score() const override { return true; }
  PluginStatus normalize_scores(const CycleState& state, const PodInfo& pod,
                                std::vector<int64_t>& scores) const override;
  std::vector<ClusterEvent> events_to_register() const override;

 private:
  NodeAffinityArgs args_;
};

}  // namespace troupe::plugins
