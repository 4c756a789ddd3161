#include "plugins/node_numa_resource/node_level_score.hpp"

#include "model/resource_names.hpp"
#include "plugins/common/resource_allocation.hpp"

namespace troupe::plugins::numa {

namespace rn = resource_names;

NodeLevelScorer::NodeLevelScorer(const NumaScoringStrategy& strategy) : type_(strategy.type) {
  for (const plugins::ResourceSpec& r : strategy.resources) {
    Weighed w;
    w.weight = r.weight;
    // The names ResourceVector::get maps to fields; any other name it reads as a scalar.
    if (r.name == rn::kCpu) w.field = &ResourceVector::milli_cpu;
    else if (r.name == rn::kMemory) w.field = &ResourceVector::memory;
    else if (r.name == rn::kEphemeralStorage) w.field = &ResourceVector::ephemeral_storage;
    else if (r.name == rn::kPods) continue;  // never scored (strategy_score)
    else w.scalar_name = r.name;
    w.scalar = rn::is_scalar_resource_name(r.name);
    resources_.push_back(std::move(w));
  }
}

int64_t NodeLevelScorer::score(const PodInfo& pod, const ResourceVector& allocatable,
                               const ResourceVector& requested) const {
  int64_t sum = 0, weights = 0;
  for (const Weighed& r : resources_) {
    if (r.scalar && r.read(pod.requests) == 0) continue;  // a scalar resource the pod does not ask for
    const int64_t capacity = r.read(allocatable);
    if (capacity <= 0) continue;
    const int64_t used = r.read(requested) + r.read(pod.requests);
    const int64_t score = type_ == ScoringType::most_allocated ? most_requested_score(used, capacity)
                                                               : least_requested_score(used, capacity);
    sum += score * r.weight;
    weights += r.weight;
  }
  return weights == 0 ? 0 : sum / weights;
}

}  // namespace troupe::plugins::numa
