#pragma once
// NodeName: a pod with spec.nodeName set only fits the node of that name.

#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins {

class NodeName final : public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kNodeName;
  static constexpr const char* kReason = "node(s) didn't match the requested node name";

  std::string_view name() const override { return kName; }
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  std::vector<ClusterEvent> events_to_register() const override;
};

}  // namespace troupe::plugins
