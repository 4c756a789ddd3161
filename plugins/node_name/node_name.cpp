#include "plugins/node_name/node_name.hpp"

namespace troupe::plugins {

PluginStatus NodeName::filter(const CycleState&, const PodInfo& pod, const NodeInfo& node) const {
  const std::string& wanted = pod.spec().node_name;
  if (wanted.empty() || wanted == node.name()) return {};
  return PluginStatus::unresolvable(kReason);
}

std::vector<ClusterEvent> NodeName::events_to_register() const {
  return {{EventResource::node, kAdd, "NodeAdd"}};
}

}  // namespace troupe::plugins
