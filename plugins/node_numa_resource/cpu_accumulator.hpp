#pragma once
// Koordinator's CPU accumulator (nodenumaresource/cpu_accumulator.go
// takeCPUs): picks `needed` logical CPUs out of `available`, deterministically.
//
//  1. needed <= 0: nothing; needed > |available|:
//     "not enough cpus available to satisfy request".
//  2. FullPCPUs (or one CPU per core): whole free cores, first from one NUMA
//     node that can hold them all (nodes ordered by free count — ascending
//     for MostAllocated, else descending — then socket free count, then id;
//     first avoiding NUMA nodes held NUMANodeLevel-exclusively, then not),
//     then from one socket, then whole sockets (most free cores first, each
//     only if it fits entirely), then single cores from the sockets with the
//     fewest free cores.
//  3. Otherwise (SpreadByPCPUs, or FullPCPUs leftovers below a core):
//     one NUMA node, then one socket, holding enough CPUs, reordered one CPU
//     per core round robin so siblings go last.
//  4. Fallback: every free CPU, sockets already used by the result first,
//     then socket / NUMA free counts (strategy-dependent), cores with fewer
//     free CPUs, socket id, core id; spread; taken one by one.
//  5. "failed to allocate cpus".
// Exclusivity: cores holding a PCPULevel CPU and NUMA nodes holding a
// NUMANodeLevel CPU are avoided in a first pass and allowed in a second.
// DistributeEvenly orders like LeastAllocated here (as Koordinator's code).
// CPUs are never shared (Koordinator's maxRefCount 1), so reference counts
// play no part.

#include <map>

#include "model/cpuset.hpp"
#include "model/result.hpp"
#include "plugins/node_numa_resource/allocated_cpus.hpp"
#include "plugins/node_numa_resource/cpu_topology.hpp"
#include "plugins/node_numa_resource/numa_types.hpp"

namespace troupe::plugins::numa {

inline constexpr const char* kErrNotEnoughCpus = "not enough cpus available to satisfy request";
inline constexpr const char* kErrFailedToAllocate = "failed to allocate cpus";


Result<CpuSet> take_cpus(const CpuTopology& topology, const CpuSet& available, const AllocatedCpus& allocated,
                         int needed, CpuBindPolicy bind, CpuExclusivePolicy exclusive, NumaAllocateStrategy strategy);

/// takePreferredCPUs: as many as possible from `preferred ∩ available`
/// first (e.g. CPUs reserved for this pod), the rest from the others.
Result<CpuSet> take_preferred_cpus(const CpuTopology& topology, const CpuSet& available, const CpuSet& preferred,
                                   const AllocatedCpus& allocated, int needed, CpuBindPolicy bind,
                                   CpuExclusivePolicy exclusive, NumaAllocateStrategy strategy);

/// filterCPUsByRequiredCPUBindPolicy: FullPCPUs keeps the CPUs of wholly
/// available cores; SpreadByPCPUs keeps the lowest available CPU of each core.
CpuSet filter_by_required_policy(CpuBindPolicy required, const CpuSet& available, const CpuTopology& topology);
/// filter_by_required_policy(...).size(), without allocating. With a required
/// policy takeCPUs always completes from those CPUs (whole free cores for
/// FullPCPUs with a request of whole cores, one CPU per core for
/// SpreadByPCPUs), so Filter's trial allocation reduces to this count.
int count_for_required_policy(CpuBindPolicy required, const CpuSet& available, const CpuTopology& topology);

/// satisfiedRequiredCPUBindPolicy: FullPCPUs needs whole cores, SpreadByPCPUs
/// one CPU per core: "insufficient CPUs to satisfy required cpu bind policy <p>".
Status check_required_policy(CpuBindPolicy required, const CpuSet& cpus, const CpuTopology& topology);

}  // namespace troupe::plugins::numa
