#pragma once
// What LoadAwareScheduling believes a node uses (Koordinator
// loadaware/pod_assign_cache.go and load_aware.go): koordlet's last
// measurement plus the estimates of the pods it has not measured long
// enough, and the checks and score made of it.
//
// For each pod on the node with an estimate e and measured usage u (its
// podsMetric entry, if any), with T the NodeMetric's updateTime and R its
// report interval (60 s by default):
//   not covered yet = no u, or scheduled after T − R, or its estimation
//                     deadline (estimatedSecondsAfter*) is after T;
//   node delta     += max(0, e − u) per resource for a pod not covered yet;
//   node estimated += e for every pod.
// Prod usage (prod thresholds, scoreAccordingProdUsage) sums the measured
// usage of prod pods koordlet also reports as koord-prod (and the system's
// with prodUsageIncludeSys); a prod pod it does not report so adds all of e.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/node.hpp"
#include "model/node_metric.hpp"
#include "model/timestamp.hpp"
#include "plugins/load_aware/load_aware_args.hpp"
#include "plugins/load_aware/load_vector.hpp"
#include "plugins/load_aware/node_load_state.hpp"
#include "plugins/load_aware/pod_load_estimate.hpp"

namespace troupe::plugins::load_aware {

/// What Filter and Score read of a node, on the plugin's axes.
struct UsageEstimates {
  LoadVector node_delta;
  LoadVector node_estimated;
  LoadVector prod_delta;
  LoadVector prod_usage;
  LoadVector measured;     // status.nodeMetric.nodeUsage
  LoadVector allocatable;  // allocatable_of
};

/// The pods ("ns/name") each sum counted, for the debug service.
struct UsagePods {
  std::vector<std::string> node_delta, prod_delta, node_estimated;
};

/// Sums over the node's pods, its measured usage and its allocatable (`node`
/// is the node object; `state` holds a NodeMetric with status.nodeMetric);
/// `pods`, when given, gets the pods each sum counted.
UsageEstimates estimate_usage(const Node& node, const NodeLoadState& state, const LoadEstimator& estimator,
                              const LoadAwareSchedulingArgs& args, UsagePods* pods = nullptr);

/// estimate_usage, computed once per change of the node (`generation`:
/// NodeInfo::generation) and estimator, then read from the node's memo.
const UsageEstimates& usage_estimates(const Node& node, const NodeLoadState& state, uint64_t generation,
                                      const LoadEstimator& estimator, const LoadAwareSchedulingArgs& args);

/// No updateTime, or `expiration_seconds` or more old.
bool metric_expired(const NodeMetric& metric, int64_t expiration_seconds, Timestamp now);

/// The aggregated usage of `type` over `duration` (0: the longest window
/// that reports the type, else the latest node usage); nullptr when the
/// metric has no window of that exact duration.
const ResourceList* aggregated_usage(const NodeMetricInfo& metric, const std::string& type,
                                     std::chrono::nanoseconds duration);

/// The node's allocatable on the axes, raw-allocatable entries overriding status.allocatable's.
LoadVector allocatable_of(const Node& node, const NodeLoadState& state, const LoadAxes& axes);

/// A per-resource setting (percent thresholds, weights) on the axes: 0 where
/// it names none (resources off the axes are not compared); `present` when
/// some value is non-zero.
LoadVector per_axis(const LoadAxes& axes, const ResourceInts& thresholds);

/// The first axis whose usage rounds to more percent of allocatable than its
/// threshold (Koordinator: int64(math.Round(used/alloc*100)) > threshold);
/// axes with no threshold or no allocatable are skipped.
std::optional<size_t> over_threshold(const LoadVector& used, const LoadVector& allocatable,
                                     const LoadVector& thresholds, size_t axes);

/// The score: per axis s = (alloc − used) × 100 / alloc (0 when used > alloc
/// or alloc is 0), Σ w·s / Σ w, with `dominant` × min(100, min s) added to
/// both sums when the dominant weight is non-zero; 0 when the weights sum to 0.
int64_t load_score(const LoadVector& used, const LoadVector& allocatable, const LoadVector& weights, size_t axes,
                   int64_t dominant);

}  // namespace troupe::plugins::load_aware
