#pragma once
// NodeLoadState: LoadAwareScheduling's per-node state (a NodeExtension): the
// node's NodeMetric, the pods assigned to it with what their estimate needs
// (Koordinator's podAssignCache), and the node's own usage-thresholds
// annotation, parsed when the node changes rather than on every Filter.
//
// Koordinator counts every pod with a node, whoever scheduled it, except
// finished pods and reserve pods; so does this (NodeInfo tells it about every
// pod accounted on the node), on the nodes that have had a NodeMetric: the
// node's first NodeMetric installs this state (actors/node_object.cpp; the
// pods already there are taken in then), so a cluster without koordlet, or
// whose profiles do not run the plugin (the NodeMetrics are then not
// followed), pays nothing per node or pod. A pod's "scheduled" time is its
// PodScheduled condition's transition, else the time it was recorded here
// (a pod troupe assumed): its estimate counts until koordlet has reported it
// for a whole interval.
//
// Filter and Score also read the time (a metric expires): the cycle's, which
// the evaluation cache keys on by the second (plugins/framework/cycle_clock.hpp).

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/node_metric.hpp"
#include "model/timestamp.hpp"
#include "plugins/framework/node_extension.hpp"
#include "plugins/load_aware/load_aware_args.hpp"
#include "plugins/load_aware/pod_load_estimate.hpp"
#include "plugins/load_aware/usage_thresholds_annotation.hpp"

namespace troupe::plugins::load_aware {

/// One pod assigned to the node, as its estimate needs it.
struct AssignedPod {
  std::string identity;  // pod_identity: the uid
  std::string key;       // "namespace/name", to find its podsMetric entry
  PodEstimateInputs inputs;
  bool prod = false;                     // its priority class (with default) is koord-prod
  Timestamp scheduled;                   // PodScheduled's transition, else when recorded here
  std::optional<Timestamp> initialized;  // the Initialized condition's transition, when True
};

struct UsageEstimates;  // node_usage.hpp

class NodeLoadState final : public NodeExtension {
 public:
  /// A pod and its entry in the NodeMetric's podsMetric (nullptr: not reported).
  struct Pod {
    std::shared_ptr<const AssignedPod> pod;  // shared with the node's copies
    const PodMetricInfo* metric = nullptr;
  };

  NodeLoadState() = default;

  /// Replaces the node's NodeMetric (nullptr: it was deleted; the pods stay, as Koordinator's).
  void apply_metric(std::shared_ptr<const NodeMetric> metric);
  /// nullptr when the node has none.
  const NodeMetric* metric() const { return metric_.get(); }
  const std::vector<Pod>& pods() const { return pods_; }
  /// The node's usage-thresholds annotation; nullptr when absent or malformed.
  const CustomUsageThresholds* custom_thresholds() const { return custom_thresholds_.get(); }
  /// The node's node.koordinator.sh/raw-allocatable annotation (empty when
  /// absent or malformed): it overrides status.allocatable entry by entry.
  const ResourceList& raw_allocatable() const { return raw_allocatable_; }

  /// The sums node_usage.hpp computes over the pods, kept for the estimator
  /// that asked last while the node's generation (NodeInfo::generation) is
  /// unchanged: Filter and Score ask for them on every node for every pod.
  /// Mutable although read through const NodeInfos: a NodeInfo is only ever
  /// read by the node actor that owns it, one message at a time.
  struct Memo {
    const void* estimator = nullptr;
    uint64_t generation = UINT64_MAX;
    std::shared_ptr<const UsageEstimates> sums;
  };
  Memo& memo() const { return memo_; }

  void on_pod_added(const PodInfo& pod) override;
  void on_pod_removed(const PodInfo& pod) override;
  void on_node_changed(const Node* node) override;
  bool holds_object() const override { return metric_ != nullptr; }

  std::unique_ptr<NodeExtension> clone() const override { return std::make_unique<NodeLoadState>(*this); }

 private:
  const PodMetricInfo* metric_of(const std::string& key) const;

  // Copies share the NodeMetric, so the pointers into it stay valid in a copy.
  std::shared_ptr<const NodeMetric> metric_;
  std::unordered_map<std::string, const PodMetricInfo*> metric_by_pod_;  // "ns/name" -> entry in metric_
  std::vector<Pod> pods_;
  std::shared_ptr<const CustomUsageThresholds> custom_thresholds_;  // held apart: most nodes have none
  ResourceList raw_allocatable_;
  mutable Memo memo_;
};

}  // namespace troupe::plugins::load_aware
