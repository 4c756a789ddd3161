#pragma once
// NodeNUMAResourceArgs (Koordinator pkg/scheduler/apis/config/v1 types.go,
// defaults.go, validation_pluginargs.go), decoded from YAML with errors
// naming the field:
//
//   defaultCPUBindPolicy: FullPCPUs | SpreadByPCPUs      # default FullPCPUs
//   scoringStrategy:                                     # node-level score
//     type: LeastAllocated | MostAllocated               # default LeastAllocated
//     resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]   # weight in (0, 100]
//   numaScoringStrategy: {...}                           # NUMA-level score, same shape
//
// The default NUMA allocate strategy is MostAllocated when
// numaScoringStrategy.type is MostAllocated, else LeastAllocated
// (GetDefaultNUMAAllocateStrategy); a node label overrides it.

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "plugins/common/args.hpp"
#include "plugins/node_numa_resource/numa_types.hpp"

namespace troupe::plugins::numa {

enum class ScoringType { least_allocated, most_allocated };

struct NumaScoringStrategy {
  ScoringType type = ScoringType::least_allocated;
  std::vector<plugins::ResourceSpec> resources = default_resource_specs();
};

struct NodeNumaResourceArgs {
  CpuBindPolicy default_cpu_bind_policy = CpuBindPolicy::full_pcpus;
  NumaScoringStrategy scoring_strategy;
  NumaScoringStrategy numa_scoring_strategy;

  NumaAllocateStrategy default_numa_allocate_strategy() const {
    return numa_scoring_strategy.type == ScoringType::most_allocated ? NumaAllocateStrategy::most_allocated
                                                                     : NumaAllocateStrategy::least_allocated;
  }

  /// Throws config::FieldError naming the field.
  static NodeNumaResourceArgs from_yaml(const YAML::Node& args);
};

/// The weighted mean over the strategy's resources of LeastAllocated
/// (cap-req)*100/cap or MostAllocated req*100/cap; resources with no
/// capacity are left out; 0 when none is left. `get` maps a resource name
/// to {requested (with the pod), capacity}.
template <class Get>
int64_t strategy_score(const NumaScoringStrategy& strategy, Get get);

}  // namespace troupe::plugins::numa

#include "plugins/common/resource_allocation.hpp"

namespace troupe::plugins::numa {

template <class Get>
int64_t strategy_score(const NumaScoringStrategy& strategy, Get get) {
  int64_t sum = 0, weights = 0;
  for (const plugins::ResourceSpec& r : strategy.resources) {
    auto [requested, capacity] = get(r.name);
    if (capacity <= 0) continue;
    const int64_t score = strategy.type == ScoringType::most_allocated ? most_requested_score(requested, capacity)
                                                                        : least_requested_score(requested, capacity);
    sum += score * r.weight;
    weights += r.weight;
  }
  return weights == 0 ? 0 : sum / weights;
}

}  // namespace troupe::plugins::numa
