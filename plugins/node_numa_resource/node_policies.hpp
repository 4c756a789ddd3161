#pragma once
// The node-side policies NodeNUMAResource applies to every pod on a node,
// derived from the Node's labels and its NodeResourceTopology:
//  - the CPU bind policy the node forces (cpu-bind-policy label, kubelet
//    full-pcpus-only);
//  - the NUMA topology policy (numa-topology-policy label, else the NRT's);
//  - the NUMA allocate strategy (numa-allocate-strategy label, kubelet
//    distribute-cpus-across-numa, else the plugin's default).
// They change only with a Node or NRT update, so NodeCpus keeps them instead
// of Filter and Score reading three labels per pod and node. The labels are
// parsed once (NodePolicyLabels) and combined with the NRT part whenever
// either changes (node_policies); the per-call helpers of topology_options.hpp
// are built from the same two functions, so both paths decide alike.

#include <optional>

#include "model/node.hpp"
#include "plugins/node_numa_resource/numa_types.hpp"
#include "plugins/node_numa_resource/topology_options.hpp"
#include "plugins/topology_manager/policy.hpp"

namespace troupe::plugins::numa {

/// What the Node's own labels say (unknown or absent labels: nothing).
struct NodePolicyLabels {
  NodeCpuBindPolicy cpu_bind = NodeCpuBindPolicy::none;
  topology::NumaPolicy numa_policy = topology::NumaPolicy::none;
  std::optional<NumaAllocateStrategy> allocate_strategy;

  friend bool operator==(const NodePolicyLabels& a, const NodePolicyLabels& b) {
    return a.cpu_bind == b.cpu_bind && a.numa_policy == b.numa_policy && a.allocate_strategy == b.allocate_strategy;
  }
};

NodePolicyLabels read_node_policy_labels(const Node& node);

/// The labels combined with the NRT (kubelet CPU manager policy, NRT topology policy).
struct NodePolicies {
  NodeCpuBindPolicy cpu_bind = NodeCpuBindPolicy::none;
  topology::NumaPolicy numa_policy = topology::NumaPolicy::none;
  /// nullopt: neither the label nor kubelet decides; the plugin default applies.
  std::optional<NumaAllocateStrategy> allocate_strategy;

  NumaAllocateStrategy allocate_strategy_or(NumaAllocateStrategy fallback) const {
    return allocate_strategy.value_or(fallback);
  }
  friend bool operator==(const NodePolicies& a, const NodePolicies& b) {
    return a.cpu_bind == b.cpu_bind && a.numa_policy == b.numa_policy && a.allocate_strategy == b.allocate_strategy;
  }
};

NodePolicies combine_node_policies(const NodePolicyLabels& labels, const TopologyOptions& options);

}  // namespace troupe::plugins::numa
