#pragma once
// LoadAwareScheduling (Koordinator pkg/scheduler/plugins/loadaware, v1.7):
// keeps pods off nodes whose measured load (koordlet's NodeMetric) plus the
// estimated load of recently placed pods is over a threshold, and prefers
// the least loaded nodes.
//
//   PreFilter  estimates the pod once (pod_load_estimate.hpp); never rejects.
//   Filter     DaemonSet pods pass; no thresholds or no NodeMetric pass; an
//              expired metric fails "node(s) nodeMetric expired" (unless
//              enableScheduleWhenNodeMetricsExpired); then the node's usage,
//              and that plus the pod's estimate, must not round to more
//              percent of allocatable than a threshold:
//              "node(s) cpu usage exceed threshold" ("... aggregated usage
//              ..." with aggregated thresholds). Prod pods are held to
//              prodUsageThresholds when some are set. The node annotation
//              scheduling.koordinator.sh/usage-thresholds overrides the args.
//   Score      the weighted free share of each resource (node_usage.hpp's
//              load_score); 0 without a fresh NodeMetric. No normalisation.
// Reserve and Unreserve need nothing of their own: the node's NodeLoadState
// hears of every pod NodeInfo accounts or forgets.

#include <memory>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/load_aware/load_aware_args.hpp"
#include "plugins/load_aware/load_vector.hpp"
#include "plugins/load_aware/pod_load_estimate.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins::load_aware {

class NodeLoadState;

class LoadAwareScheduling final : public PreFilterPlugin,
                                  public FilterPlugin,
                                  public ScorePlugin,
                                  public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kLoadAwareScheduling;

  explicit LoadAwareScheduling(LoadAwareSchedulingArgs args);
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);
  /// The profile's instance, or nullptr when it does not run the plugin.
  static const LoadAwareScheduling* of(const Framework& framework);

  std::string_view name() const override { return kName; }
  const LoadAwareSchedulingArgs& args() const { return args_; }
  const LoadEstimator& estimator() const { return estimator_; }

  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  std::vector<ClusterEvent> events_to_register() const override;

 private:
  struct Incoming;
  /// The thresholds a node is held to, on the axes.
  struct Thresholds {
    LoadVector usage;
    LoadVector prod;
    const AggregatedArgs* aggregated = nullptr;  // null: Filter reads the latest usage
    LoadVector aggregated_usage;
  };
  /// The args' thresholds, or the node's usage-thresholds annotation's where it gives some.
  Thresholds thresholds_for(const NodeLoadState& state) const;
  /// The pod's estimate, its class and the time of the cycle.
  Incoming estimate_incoming(const CycleState& state, const PodInfo& pod) const;
  /// PreFilter's Incoming (made now when the cycle ran no PreFilter).
  Incoming incoming(const CycleState& state, const PodInfo& pod) const;

  LoadAwareSchedulingArgs args_;
  LoadAxes axes_;
  LoadEstimator estimator_;
  LoadVector weights_;            // resourceWeights on the axes
  Thresholds args_thresholds_;  // the args' thresholds on the axes
};

}  // namespace troupe::plugins::load_aware
