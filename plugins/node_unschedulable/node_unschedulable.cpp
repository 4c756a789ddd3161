#include "plugins/node_unschedulable/node_unschedulable.hpp"

namespace troupe::plugins {

namespace {
const Taint& unschedulable_taint() {
  static const Taint taint{NodeUnschedulable::kTaintKey, "", TaintEffect::no_schedule, std::nullopt};
  return taint;
}
}  // namespace

PluginStatus NodeUnschedulable::filter(const CycleState&, const PodInfo& pod, const NodeInfo& node) const {
  if (node.node() == nullptr || !node.node()->spec.unschedulable) return {};
  for (const auto& toleration : pod.spec().tolerations)
    if (toleration.tolerates(unschedulable_taint())) return {};
  return PluginStatus::unresolvable(kReason);
}

std::vector<ClusterEvent> NodeUnschedulable::events_to_register() const {
  return {{EventResource::node, kAdd | kUpdateNodeTaint, "NodeAddOrTaintChange"},
          {EventResource::pod, kUpdatePodTolerations, "PodTolerationChange"}};
}

}  // namespace troupe::plugins
