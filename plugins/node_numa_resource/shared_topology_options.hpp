#pragma once
// The TopologyOptions of nodes whose NodeResourceTopology objects have the
// same content apart from their names (one hardware model, one kubelet
// configuration) are equal, so they are built once and shared: NodeCpus keeps
// a pointer to its node's instead of a copy (a copy is ~1 KB per node: two
// 1,024-CPU sets, the kubelet policy and each NUMA node's allocatable list).

#include <memory>
#include <string>

#include "model/node_resource_topology.hpp"
#include "plugins/node_numa_resource/topology_options.hpp"

namespace troupe::plugins::numa {

/// build_topology_options(nrt), shared with every other NRT of the same key
/// while any node holds it (process-wide, thread-safe).
std::shared_ptr<const TopologyOptions> shared_topology_options(const NodeResourceTopology& nrt);

/// What build_topology_options reads of the NRT, in an unambiguous text
/// form: the five annotations it decodes (cpu-topology by its shared parsed
/// topology), the topology policies, and each NUMA zone's name and
/// allocatable. Equal keys give equal options; fields it does not read (other
/// annotations such as koordlet's per-node cpu-shared-pools, costs,
/// attributes, capacity) do not split nodes apart. Keep it in step with
/// build_topology_options.
std::string topology_options_key(const NodeResourceTopology& nrt);

}  // namespace troupe::plugins::numa
