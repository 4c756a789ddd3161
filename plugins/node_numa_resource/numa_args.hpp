#pragma once
// NodeNUMAResourceArgs (Koordinator pkg/scheduler/apis/config/v1 types.go,
// defaults.go, validation_pluginargs.go), decoded from YAML with errors
// naming the field:
//
//   defaultCPUBindPolicy: FullPCPUs | SpreadByPCPUs      # default FullPCPUs
//   scoringStrategy:                                     # the node's score (over the NUMA
//     type: LeastAllocated | MostAllocated               #   nodes it would get, with a NUMA policy)
//     resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]   # weight in (0, 100]
//   numaScoringStrategy: {...}                           # orders the NUMA hints (its type, over
//                                                        #   scoringStrategy's resources)
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
/// (cap-req)*100/cap or MostAllocated req*100/cap; 0 when no resource is
/// left. Left out, as Koordinator's calculateResourceAllocatableRequest:
/// resources with no capacity, `pods`, and scalar resources (extended,
/// hugepages-*, ...) the pod does not ask for. `get` maps a resource name to
/// {requested (with the pod), capacity}; `pod_request` to the pod's request.
template <class PodRequest, class Get>
int64_t strategy_score(const NumaScoringStrategy& strategy, PodRequest pod_request, Get get);

/// Whether a strategy's resource is scored for a pod asking `pod_request` of it.
bool scored_resource(const std::string& name, int64_t pod_request);

}  // namespace troupe::plugins::numa

#include "plugins/common/resource_allocation.hpp"

namespace troupe::plugins::numa {

template <class PodRequest, class Get>
int64_t strategy_score(const NumaScoringStrategy& strategy, PodRequest pod_request, Get get) {
  int64_t sum = 0, weights = 0;
  for (const plugins::ResourceSpec& r : strategy.resources) {
    if (!scored_resource(r.name, pod_request(r.name))) continue;
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
