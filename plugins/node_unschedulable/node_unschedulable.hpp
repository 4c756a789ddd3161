#pragma once
// NodeUnschedulable: a cordoned node (spec.unschedulable) takes only pods
// that tolerate the node.kubernetes.io/unschedulable:NoSchedule taint.

#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins {

class NodeUnschedulable final : public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kNodeUnschedulable;
  static constexpr const char* kReason = "node(s) were unschedulable";
  static constexpr const char* kTaintKey = "node.kubernetes.io/unschedulable";

  std::string_view name() const override { return kName; }
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  std::vector<ClusterEvent> events_to_register() const override;
};

}  // namespace troupe::plugins
