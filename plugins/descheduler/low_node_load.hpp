#pragma once
// LowNodeLoad's plan for one round (Koordinator framework/plugins/loadaware
// Balance), as a pure function of (nodes, metrics, pods, args, detector
// state, time): which pods to evict, in order, and why.
//
// Per node pool: measure and classify nodes (node_load.hpp); low nodes reset
// their anomaly detectors; stop when no node is low, when at most
// numberOfNodes are, or when all are; hot nodes act only once their
// detector says anomalous. Then two phases, node usage and prod usage:
// hot nodes, hottest first, give up candidate pods (namespaces,
// podSelectors, the evictor filter) in victim order (victim_order.hpp).
// Before each eviction the plan checks that the pod's usage fits under
// the high threshold of some target (low) node that the pod can be placed
// on (nodeFit), and charges that node; a pod that no target can take
// without turning hot is skipped. A node stops giving up pods when it is no
// longer hot or any resource of the pooled target budget (sum over targets
// of high threshold - usage) is spent; the cycle's eviction limits stop
// everything, a node, or a namespace.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/timestamp.hpp"
#include "plugins/descheduler/anomaly_detector.hpp"
#include "plugins/descheduler/eviction_limits.hpp"
#include "plugins/descheduler/low_node_load_args.hpp"
#include "plugins/descheduler/node_load.hpp"

namespace troupe::plugins::descheduler {

/// The evictor's verdict on a pod: nullopt = may be evicted.
using EvictorFilter = std::function<std::optional<std::string>(const Pod&)>;

struct PlannedEviction {
  std::shared_ptr<const Pod> pod;
  std::string node;
  std::string pool;
  bool prod = false;    // evicted to relieve prod usage
  std::string target;   // the low node whose room it was charged to
  std::string reason;   // "node is overutilized, cpu usage(85.00%)>threshold(70.00%)"
};

struct SkippedPod {
  std::shared_ptr<const Pod> pod;
  std::string reason;
};

struct NodeVerdict {
  std::string node;
  std::string pool;
  NodeClass node_class = NodeClass::appropriate;
  bool anomalous = false;  // acted on this round
};

struct LowNodeLoadPlan {
  std::vector<PlannedEviction> evictions;
  /// Candidate pods on hot nodes passed over, with the reason.
  std::vector<SkippedPod> skipped;
  std::vector<NodeVerdict> nodes;
  /// Why a pool or phase did nothing ("no node is under the low thresholds").
  std::vector<std::string> notes;
};

/// plan_low_node_load's inputs besides args and state.
struct LowNodeLoadInput {
  std::vector<NodeLoadInput> nodes;
  Timestamp now{};
  /// nullptr: every pod passes (no evictor configured).
  EvictorFilter evictor;
  /// The descheduling interval (raises the detector cache timeout).
  std::chrono::nanoseconds descheduling_interval{0};
};

/// One LowNodeLoad round. `detectors` carries anomaly state between rounds;
/// `limits` are the cycle's counters and are charged for each eviction.
/// A paused plugin plans nothing.
LowNodeLoadPlan plan_low_node_load(const LowNodeLoadInput& input, const LowNodeLoadArgs& args,
                                   AnomalyDetectors& detectors, EvictionLimits& limits);

}  // namespace troupe::plugins::descheduler
