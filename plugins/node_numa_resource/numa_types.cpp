#include "plugins/node_numa_resource/numa_types.hpp"

namespace troupe::plugins::numa {

CpuBindPolicy parse_cpu_bind_policy(std::string_view text) {
  if (text.empty()) return CpuBindPolicy::unset;
  if (text == "Default") return CpuBindPolicy::default_policy;
  if (text == "FullPCPUs") return CpuBindPolicy::full_pcpus;
  if (text == "SpreadByPCPUs") return CpuBindPolicy::spread_by_pcpus;
  if (text == "ConstrainedBurst") return CpuBindPolicy::constrained_burst;
  return CpuBindPolicy::other;
}

CpuExclusivePolicy parse_cpu_exclusive_policy(std::string_view text) {
  if (text.empty()) return CpuExclusivePolicy::unset;
  if (text == "None") return CpuExclusivePolicy::none;
  if (text == "PCPULevel") return CpuExclusivePolicy::pcpu_level;
  if (text == "NUMANodeLevel") return CpuExclusivePolicy::numa_node_level;
  return CpuExclusivePolicy::other;
}

std::string_view to_string(CpuBindPolicy policy) {
  switch (policy) {
    case CpuBindPolicy::default_policy: return "Default";
    case CpuBindPolicy::full_pcpus: return "FullPCPUs";
    case CpuBindPolicy::spread_by_pcpus: return "SpreadByPCPUs";
    case CpuBindPolicy::constrained_burst: return "ConstrainedBurst";
    case CpuBindPolicy::unset:
    case CpuBindPolicy::other: break;
  }
  return "";
}

std::string_view to_string(CpuExclusivePolicy policy) {
  switch (policy) {
    case CpuExclusivePolicy::none: return "None";
    case CpuExclusivePolicy::pcpu_level: return "PCPULevel";
    case CpuExclusivePolicy::numa_node_level: return "NUMANodeLevel";
    case CpuExclusivePolicy::unset:
    case CpuExclusivePolicy::other: break;
  }
  return "";
}

std::string_view to_string(NumaAllocateStrategy strategy) {
  switch (strategy) {
    case NumaAllocateStrategy::most_allocated: return "MostAllocated";
    case NumaAllocateStrategy::distribute_evenly: return "DistributeEvenly";
    case NumaAllocateStrategy::least_allocated: break;
  }
  return "LeastAllocated";
}

}  // namespace troupe::plugins::numa
