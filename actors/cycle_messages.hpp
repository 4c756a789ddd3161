#pragma once
// What the SCHEDULING CYCLE sends to the NODE actors for one pod: the
// profile's framework, the pod, and its CycleState (read-only during Filter
// and Score, written only by the partition that Reserves).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/node_partition.hpp"
#include "plugins/framework/framework.hpp"

namespace troupe::actors {

struct CycleRequest {
  uint64_t cycle = 0;
  std::shared_ptr<const plugins::Framework> framework;
  std::shared_ptr<const plugins::PodInfo> pod;
  std::shared_ptr<plugins::CycleState> state;
  /// kube-scheduler's numFeasibleNodesToFind for the whole cluster, and the
  /// cluster size it was computed from; each partition takes its share.
  int64_t feasible_wanted = 0;
  int64_t total_nodes = 0;
  /// The pod's scheduling class, for the partitions' evaluation caches;
  /// null: every node is evaluated afresh.
  std::shared_ptr<const plugins::SchedulingClass> scheduling_class;
  /// Whether the round scores the feasible nodes (PreScore, run before it, succeeded).
  bool score = true;
};
using CycleRequestPtr = std::shared_ptr<const CycleRequest>;

/// Not const: once the NODE actor has answered, the cycle is its only reader
/// and moves the scores out.
using FilterOutcomePtr = std::shared_ptr<FilterOutcome>;
using PodInfoPtr = std::shared_ptr<const plugins::PodInfo>;
using NodePtr = std::shared_ptr<const Node>;
using DevicePtr = std::shared_ptr<const Device>;
using TopologyPtr = std::shared_ptr<const NodeResourceTopology>;
using NodeMetricPtr = std::shared_ptr<const NodeMetric>;

/// Node names, and their API JSON (for extenders that are not nodeCacheCapable).
using NodeNamesPtr = std::shared_ptr<const std::vector<std::string>>;
using NodeJsonPtr = std::shared_ptr<const std::map<std::string, std::string>>;

using EvaluationPtr = std::shared_ptr<const Evaluation>;

/// A profile's plugins (for a debug view that needs a plugin's settings).
using FrameworkPtr = std::shared_ptr<const plugins::Framework>;

/// The Reserve verdict of the partition that owns the chosen node.
struct ReserveOutcome {
  bool ok = false;
  std::string message;
  std::string plugin;
  /// The plugin rejected the pod (Unschedulable) rather than failed (Error).
  bool rejected = false;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ReserveOutcome& x) {
  return f(caf::meta::type_name("ReserveOutcome"), x.ok, x.message, x.plugin, x.rejected);
}

}  // namespace troupe::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::CycleRequestPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::FilterOutcomePtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::PodInfoPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::NodePtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::NodeNamesPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::NodeJsonPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::FrameworkPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::DevicePtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::TopologyPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::NodeMetricPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::EvaluationPtr)
