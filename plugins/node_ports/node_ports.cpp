#include "plugins/node_ports/node_ports.hpp"

namespace troupe::plugins {

PluginStatus NodePorts::pre_filter(CycleState&, const PodInfo& pod, PreFilterResult&) const {
  return pod.host_ports.empty() ? PluginStatus(Code::skip) : PluginStatus();
}

PluginStatus NodePorts::filter(const CycleState&, const PodInfo& pod, const NodeInfo& node) const {
  for (const auto& port : pod.host_ports)
    if (node.used_ports().conflicts(port)) return PluginStatus::unschedulable(kReason);
  return {};
}

std::vector<ClusterEvent> NodePorts::events_to_register() const {
  return {{EventResource::pod, kDelete, "AssignedPodDelete"}, {EventResource::node, kAdd | kUpdate, "NodeChange"}};
}

}  // namespace troupe::plugins
