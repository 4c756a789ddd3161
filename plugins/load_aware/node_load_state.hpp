#pragma once
// NodeLoadState: LoadAwareScheduling's per-node state (a NodeExtension): the
// node's NodeMetric, the pods assigned to it with what their estimate needs
// (Koordinator's podAssignCache), and the node's own usage-thresholds
// annotation, parsed when the node changes rather than on every Filter.
//
// Koordinator counts every pod with a node, whoever scheduled it, except
// finished pods and reserve pods; so does this (NodeInfo tells it about every
// pod accounted on the node). Only while the node has a NodeMetric, though:
// without one the plugin reads nothing here, and a cluster without koordlet
// (or a profile without the plugin: the NodeMetrics are then not followed)
// pays nothing per pod. The pods already on the node are taken in when its
// first NodeMetric arrives. A pod's "scheduled" time is its PodScheduled
// condition's transition, or the time it was assumed here: the estimate
// covers it until koordlet has reported it for a whole interval.
//
// Filter and Score read the time (a metric expires), so a node holding a
// NodeMetric says its results depend on the pod's identity: the evaluation
// cache never reuses them (actors/evaluation_cache.hpp).

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

namespace troupe::plugins::load_aware {

inline constexpr const char* kAnnotationUsageThresholds = "scheduling.koordinator.sh/usage-thresholds";

/// The node's scheduling.koordinator.sh/usage-thresholds annotation
/// (Koordinator's CustomUsageThresholds): each field given replaces the
/// profile's; aggregatedUsage without thresholds or a type counts as absent.
struct CustomUsageThresholds {
  ResourceInts usage_thresholds;
  ResourceInts prod_usage_thresholds;
  std::optional<AggregatedArgs> aggregated;  // only the usage* fields are read
};

/// Parses the annotation; nullopt when absent, malformed or empty.
std::optional<CustomUsageThresholds> parse_custom_usage_thresholds(const std::string* text);

/// One pod assigned to the node.
struct AssignedPod {
  std::string identity;  // pod_identity: the uid
  std::string key;       // "namespace/name", to find its podsMetric entry
  PodEstimateInputs inputs;
  bool prod = false;                     // its priority class (with default) is koord-prod
  Timestamp scheduled;                   // PodScheduled's transition, else when assumed here
  std::optional<Timestamp> initialized;  // the Initialized condition's transition, when True
  const PodMetricInfo* metric = nullptr;  // its entry in the NodeMetric, when reported
};

class NodeLoadState final : public NodeExtension {
 public:
  NodeLoadState() = default;

  /// `pods`: the node's pods (NodeInfo::pods), taken in when the node had no metric.
  void apply_metric(std::shared_ptr<const NodeMetric> metric, const std::vector<std::shared_ptr<const PodInfo>>& pods);
  /// Forgets the metric and the pods.
  void clear_metric();
  /// nullptr when the node has none.
  const NodeMetric* metric() const { return metric_.get(); }
  const std::vector<AssignedPod>& pods() const { return pods_; }
  /// The node's usage-thresholds annotation; nullptr when absent or malformed.
  const CustomUsageThresholds* custom_thresholds() const { return custom_thresholds_.get(); }
  /// The node's node.koordinator.sh/raw-allocatable annotation (empty when
  /// absent or malformed): it overrides status.allocatable entry by entry.
  const ResourceList& raw_allocatable() const { return raw_allocatable_; }

  void on_pod_added(const PodInfo& pod) override;
  void on_pod_removed(const PodInfo& pod) override;
  void on_node_changed(const Node* node) override;
  bool holds_object() const override { return metric_ != nullptr; }
  bool results_depend_on_pod_identity() const override { return metric_ != nullptr; }
  std::unique_ptr<NodeExtension> clone() const override { return std::make_unique<NodeLoadState>(*this); }

 private:
  /// Points every pod at its podsMetric entry (after the metric or the pods changed).
  void link_metrics();

  // Copies share the NodeMetric, so the pointers into it stay valid in a copy.
  std::shared_ptr<const NodeMetric> metric_;
  std::unordered_map<std::string, const PodMetricInfo*> metric_by_pod_;  // "ns/name" -> entry in metric_
  std::vector<AssignedPod> pods_;
  std::shared_ptr<const CustomUsageThresholds> custom_thresholds_;  // held apart: most nodes have none
  ResourceList raw_allocatable_;
  /// Adds the pod's record (a finished or reserve pod has none).
  void record(const PodInfo& pod);
};

}  // namespace troupe::plugins::load_aware
