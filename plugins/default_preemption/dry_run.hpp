#pragma once
// The framework as preemption's dry run uses it on one node copy (upstream:
// SelectVictimsOnNode on a CycleState cloned per node, with
// RunFilterPluginsWithNominatedPods and RunPreFilterExtensionRemovePod /
// AddPod as pods leave the copy and are reprieved). Without the extensions,
// a filter that counted other pods at PreFilter (InterPodAffinity,
// PodTopologySpread) would still see the victims, and preemption could not
// help a pod that only anti-affinity or spreading keeps out.

#include <functional>

#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/framework/status.hpp"

namespace troupe::plugins::preemption {

/// Re-runs the filter plugins (with nominated pods) for the preemptor on a node.
using FilterFunction = std::function<PluginStatus(const PodInfo& pod, const NodeInfo& node)>;

class DryRun {
 public:
  virtual ~DryRun() = default;
  /// Starts on another node: PreFilter's data as PreFilter left it.
  virtual void start_node() = 0;
  virtual PluginStatus filter(const PodInfo& preemptor, const NodeInfo& node) const = 0;
  /// `pod` has just left / joined `node` (the copy).
  virtual PluginStatus pod_removed(const PodInfo& preemptor, const PodInfo& pod, const NodeInfo& node) = 0;
  virtual PluginStatus pod_added(const PodInfo& preemptor, const PodInfo& pod, const NodeInfo& node) = 0;
};

/// Filters only, no PreFilter data to follow the pods (filters that read
/// nothing but the NodeInfo; the preemption tables' tests).
class FilterOnlyDryRun final : public DryRun {
 public:
  explicit FilterOnlyDryRun(FilterFunction filter) : filter_(std::move(filter)) {}
  void start_node() override {}
  PluginStatus filter(const PodInfo& preemptor, const NodeInfo& node) const override {
    return filter_(preemptor, node);
  }
  PluginStatus pod_removed(const PodInfo&, const PodInfo&, const NodeInfo&) override { return {}; }
  PluginStatus pod_added(const PodInfo&, const PodInfo&, const NodeInfo&) override { return {}; }

 private:
  FilterFunction filter_;
};

/// A profile's Filters and PreFilterExtensions on a copy of the cycle's
/// CycleState, renewed for every node. The copy shares the plugins' data;
/// a plugin that updates its data writes a new slot (the cycle's own state
/// stays as it was, and other threads may read it meanwhile).
class FrameworkDryRun final : public DryRun {
 public:
  FrameworkDryRun(const Framework& framework, const CycleState& cycle_state)
      : framework_(framework), cycle_state_(cycle_state), node_state_(cycle_state) {}
  void start_node() override { node_state_ = cycle_state_; }
  PluginStatus filter(const PodInfo& preemptor, const NodeInfo& node) const override {
    return framework_.run_filter(node_state_, preemptor, node);
  }
  PluginStatus pod_removed(const PodInfo& preemptor, const PodInfo& pod, const NodeInfo& node) override {
    return framework_.run_pre_filter_extension_remove_pod(node_state_, preemptor, pod, node);
  }
  PluginStatus pod_added(const PodInfo& preemptor, const PodInfo& pod, const NodeInfo& node) override {
    return framework_.run_pre_filter_extension_add_pod(node_state_, preemptor, pod, node);
  }

 private:
  const Framework& framework_;
  const CycleState& cycle_state_;
  CycleState node_state_;
};

}  // namespace troupe::plugins::preemption
