#pragma once
// NodePorts: a pod asking for host ports only fits nodes where no pod holds
// the same protocol/port on an overlapping IP (0.0.0.0 overlaps every IP).

#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins {

class NodePorts final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kNodePorts;
  static constexpr const char* kReason = "node(s) didn't have free ports for the requested pod ports";

  std::string_view name() const override { return kName; }
  /// Skip (no Filter) for pods without host ports.
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  std::vector<ClusterEvent> events_to_register() const override;
};

}  // namespace troupe::plugins
