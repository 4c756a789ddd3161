#pragma once
// kube-scheduler's resourceAllocationScorer (noderesources/resource_allocation.go):
// for each configured resource, the node's allocatable and what would be
// requested with the pod on it. cpu and memory use the non-zero requests
// (100m / 200Mi for containers that ask for none) unless `use_requested`;
// a scalar resource the pod does not request is left out, as is a resource
// the node does not have (allocatable 0).

#include <cstdint>
#include <string>
#include <vector>

#include "plugins/common/args.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins {

struct ScoredResource {
  enum class Kind { cpu, memory, ephemeral_storage, scalar, untracked };
  std::string name;
  int64_t weight = 1;
  Kind kind = Kind::untracked;
};

std::vector<ScoredResource> classify_resources(const std::vector<ResourceSpec>& specs);

/// The pod's request for the resource (non-zero cpu/memory unless use_requested).
int64_t pod_request(const ScoredResource& resource, const PodInfo& pod, bool use_requested);

struct AllocatableRequested {
  int64_t allocatable = 0;  // 0: leave the resource out of the score
  int64_t requested = 0;
};

/// calculateResourceAllocatableRequest.
AllocatableRequested allocatable_and_requested(const ScoredResource& resource, const NodeInfo& node,
                                               int64_t pod_request, bool use_requested);

/// (capacity - requested) * 100 / capacity; 0 when over capacity or no capacity.
int64_t least_requested_score(int64_t requested, int64_t capacity);
/// requested * 100 / capacity with requested capped at capacity; 0 with no capacity.
int64_t most_requested_score(int64_t requested, int64_t capacity);

}  // namespace troupe::plugins
