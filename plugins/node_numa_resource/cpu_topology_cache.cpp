#include "plugins/node_numa_resource/cpu_topology_cache.hpp"

#include <optional>

namespace troupe::plugins::numa {

Result<std::shared_ptr<const CpuTopology>> CpuTopologyCache::get(std::string_view annotation) {
  std::optional<Error> failed;
  auto topology = topologies_.get(annotation, [&]() -> std::shared_ptr<const CpuTopology> {
    auto parsed = CpuTopology::parse(annotation);
    if (!parsed) {
      failed = parsed.error();
      return nullptr;
    }
    return std::make_shared<const CpuTopology>(std::move(*parsed));
  });
  if (!topology) return *failed;
  return topology;
}

CpuTopologyCache& process_cpu_topology_cache() {
  static CpuTopologyCache cache;
  return cache;
}

}  // namespace troupe::plugins::numa
