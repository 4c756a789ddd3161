#pragma once
// Allocation on one node (Koordinator resource_manager.go): NUMA resources
// for a chosen NUMA affinity (tryBestToDistributeEvenly), the cpuset
// (allocateCPUSet) and the NUMA hints of NodeNUMAResource as a topology
// hint provider (GetTopologyHints / generateResourceHints).

#include "model/cpuset.hpp"
#include "model/resources.hpp"
#include "model/result.hpp"
#include "plugins/node_numa_resource/node_cpus.hpp"
#include "plugins/node_numa_resource/numa_args.hpp"
#include "plugins/topology_manager/numa_hint.hpp"

namespace troupe::plugins::numa {

inline constexpr const char* kErrInsufficientNumaResources = "insufficient resources on NUMA Node";
inline constexpr const char* kErrInsufficientNuma = "Insufficient NUMA ";  // + resource name

/// What one pod needs on one node (Koordinator's ResourceOptions).
struct AllocateRequest {
  ResourceList requests;
  bool bind_cpus = false;
  int num_cpus = 0;
  /// The policy the cpuset follows, and whether it is required (pod or node).
  CpuBindPolicy bind_policy = CpuBindPolicy::unset;
  bool required = false;
  CpuExclusivePolicy exclusive = CpuExclusivePolicy::unset;
  NumaAllocateStrategy strategy = NumaAllocateStrategy::least_allocated;
  /// Further CPUs that may not be used (the Node's own reservation annotation).
  CpuSet also_reserved;
  /// A NUMA node offers no more cpu than its free CPUs, whatever the policy
  /// (a designated cpuset: the CPUs outside it are held without NUMA amounts).
  bool numa_cpu_at_most_free = false;
};

/// Allocate: NUMA resources within `affinity` (0 = no NUMA allocation), then
/// the cpuset when the pod binds CPUs. Errors carry Koordinator's messages.
Result<PodAllocation> allocate_on_node(const NodeCpus& node, const AllocateRequest& request,
                                       topology::NumaMask affinity);

/// The cpuset alone (allocateCPUSet), restricted per NUMA node when
/// `numa_resources` is not empty.
Result<CpuSet> allocate_cpuset(const NodeCpus& node, const AllocateRequest& request,
                               const std::vector<NumaNodeResource>& numa_resources);

/// Hints for every requested resource the NUMA zones describe: each
/// feasible subset of NUMA nodes (smallest first), preferred when minimal
/// (every hint under Restricted), scored by `scoring` over the subset.
Result<topology::NumaHints> generate_hints(const NodeCpus& node, const AllocateRequest& request,
                                           topology::NumaPolicy policy, const NumaScoringStrategy& scoring);

/// NUMA availability with cpu capped at what the required bind policy can
/// use (trimNUMANodeResources).
std::map<int, ResourceList> trimmed_numa_available(const NodeCpus& node, const AllocateRequest& request);

}  // namespace troupe::plugins::numa
