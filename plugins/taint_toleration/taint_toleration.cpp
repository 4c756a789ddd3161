#include "plugins/taint_toleration/taint_toleration.hpp"

#include "plugins/framework/normalize_score.hpp"

namespace troupe::plugins {

namespace {

bool tolerated(const Taint& taint, const std::vector<Toleration>& tolerations, bool prefer_only) {
  for (const auto& t : tolerations) {
    if (prefer_only && t.effect != TaintEffect::all && t.effect != TaintEffect::prefer_no_schedule) continue;
    if (t.tolerates(taint)) return true;
  }
  return false;
}

}  // namespace

const Taint* first_untolerated_scheduling_taint(const std::vector<Taint>& taints,
                                                const std::vector<Toleration>& tolerations) {
  for (const auto& taint : taints) {
    if (taint.effect != TaintEffect::no_schedule && taint.effect != TaintEffect::no_execute) continue;
    if (!tolerated(taint, tolerations, false)) return &taint;
  }
  return nullptr;
}

std::string untolerated_taint_reason(const Taint& taint) {
  return "node(s) had untolerated taint {" + taint.key + ": " + taint.value + "}";
}

PluginStatus TaintToleration::filter(const CycleState&, const PodInfo& pod, const NodeInfo& node) const {
  if (node.node() == nullptr) return {};
  if (const Taint* taint = first_untolerated_scheduling_taint(node.node()->spec.taints, pod.spec().tolerations))
    return PluginStatus::unresolvable(untolerated_taint_reason(*taint));
  return {};
}

ScoreResult TaintToleration::score(const CycleState&, const PodInfo& pod, const NodeInfo& node) const {
  ScoreResult result;
  if (node.node() == nullptr) return result;
  for (const auto& taint : node.node()->spec.taints)
    if (taint.effect == TaintEffect::prefer_no_schedule && !tolerated(taint, pod.spec().tolerations, true))
      ++result.score;
  return result;
}

PluginStatus TaintToleration::normalize_scores(const CycleState&, const PodInfo&, std::vector<int64_t>& scores) const {
  default_normalize_score(kMaxNodeScore, true, scores);
  return {};
}

std::vector<ClusterEvent> TaintToleration::events_to_register() const {
  return {{EventResource::node, kAdd | kUpdateNodeTaint, "NodeAddOrTaintChange"},
          {EventResource::pod, kUpdatePodTolerations, "PodTolerationChange"}};
}

}  // namespace troupe::plugins
