#pragma once
// What the fake koordlet reports for one node: a NodeMetric computed from the
// node and the pods bound to it, deterministically, so tests and the demo can
// make a node hot on purpose. Knobs (documented in sim/README.md):
//   - pod annotation sim.troupe.dev/usage-ratio: "0.9" — the pod uses its
//     cpu/memory requests times this ratio (default: the koordlet's default
//     ratio, 1 unless --node-metrics-usage-ratio says otherwise);
//   - node annotation sim.troupe.dev/base-usage: '{"cpu":"500m","memory":"1Gi"}'
//     — usage of the node outside its pods (reported as systemUsage).
// A malformed knob is reported as a warning and ignored: the pod runs at the
// default ratio (it still uses something, and LowNodeLoad must still see it),
// the node has no base usage.

#include <string>
#include <vector>

#include "model/node.hpp"
#include "model/node_metric.hpp"
#include "model/pod.hpp"
#include "model/timestamp.hpp"

namespace troupe::sim {

inline constexpr const char* kUsageRatioAnnotation = "sim.troupe.dev/usage-ratio";
inline constexpr const char* kBaseUsageAnnotation = "sim.troupe.dev/base-usage";
/// Largest ratio accepted: far above any real over-use, low enough that the
/// scaled quantities cannot overflow.
inline constexpr double kMaxUsageRatio = 100.0;

struct SimulatedMetric {
  NodeMetric metric;
  /// One line per malformed knob, naming the object and the annotation.
  std::vector<std::string> warnings;
};

/// A usage ratio as written in the annotation or the flag: a finite decimal
/// number from 0 to kMaxUsageRatio.
Result<double> parse_usage_ratio(const std::string& text);

/// True for pods a kubelet would report: bound to `node_name` and not
/// finished (phase Succeeded or Failed).
bool runs_on(const Pod& pod, const std::string& node_name);

/// The NodeMetric named after `node`: podsMetric has every pod of `pods` that
/// runs on it (others are ignored) with usage = cpu/memory requests x ratio;
/// systemUsage is the node's base usage; nodeUsage is base + all pods.
SimulatedMetric simulate_node_metric(const Node& node, const std::vector<const Pod*>& pods, double default_ratio,
                                     Timestamp now);

}  // namespace troupe::sim
