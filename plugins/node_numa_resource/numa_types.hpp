#pragma once
// The enums of Koordinator's CPU orchestration API (apis/extension/numa_aware.go,
// pkg/scheduler/apis/config types.go) and their spellings.

#include <cstdint>
#include <string>
#include <string_view>

namespace troupe::plugins::numa {

/// CPUBindPolicy. `other` keeps a spelling Koordinator would carry along but
/// never act on (it binds only FullPCPUs / SpreadByPCPUs).
enum class CpuBindPolicy { unset, default_policy, full_pcpus, spread_by_pcpus, constrained_burst, other };
enum class CpuExclusivePolicy : uint8_t { unset, none, pcpu_level, numa_node_level, other };
/// node.koordinator.sh/cpu-bind-policy (and kubelet full-pcpus-only).
enum class NodeCpuBindPolicy { none, full_pcpus_only, spread_by_pcpus };
enum class NumaAllocateStrategy { most_allocated, least_allocated, distribute_evenly };

CpuBindPolicy parse_cpu_bind_policy(std::string_view text);
CpuExclusivePolicy parse_cpu_exclusive_policy(std::string_view text);
/// The canonical spellings ("" for unset / other).
std::string_view to_string(CpuBindPolicy policy);
std::string_view to_string(CpuExclusivePolicy policy);
std::string_view to_string(NumaAllocateStrategy strategy);

/// FullPCPUs or SpreadByPCPUs: the policies that produce a cpuset.
inline bool binds_cpus(CpuBindPolicy p) {
  return p == CpuBindPolicy::full_pcpus || p == CpuBindPolicy::spread_by_pcpus;
}
/// PCPULevel or NUMANodeLevel.
inline bool is_exclusive(CpuExclusivePolicy p) {
  return p == CpuExclusivePolicy::pcpu_level || p == CpuExclusivePolicy::numa_node_level;
}

}  // namespace troupe::plugins::numa
