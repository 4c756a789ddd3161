#include "plugins/common/resource_allocation.hpp"

#include "model/resource_names.hpp"
#include "plugins/framework/plugin.hpp"

namespace troupe::plugins {

namespace rn = resource_names;

std::vector<ScoredResource> classify_resources(const std::vector<ResourceSpec>& specs) {
  std::vector<ScoredResource> out;
  for (const auto& spec : specs) {
    ScoredResource r{spec.name, spec.weight, ScoredResource::Kind::untracked};
    if (spec.name == rn::kCpu) r.kind = ScoredResource::Kind::cpu;
    else if (spec.name == rn::kMemory) r.kind = ScoredResource::Kind::memory;
    else if (spec.name == rn::kEphemeralStorage) r.kind = ScoredResource::Kind::ephemeral_storage;
    else if (rn::is_scalar_resource_name(spec.name)) r.kind = ScoredResource::Kind::scalar;
    out.push_back(std::move(r));
  }
  return out;
}

int64_t pod_request(const ScoredResource& resource, const PodInfo& pod, bool use_requested) {
  const ResourceVector& requests = use_requested ? pod.requests : pod.non_zero_requests;
  switch (resource.kind) {
    case ScoredResource::Kind::cpu: return requests.milli_cpu;
    case ScoredResource::Kind::memory: return requests.memory;
    case ScoredResource::Kind::ephemeral_storage: return pod.requests.ephemeral_storage;
    case ScoredResource::Kind::scalar: return pod.requests.scalar(resource.name);
    case ScoredResource::Kind::untracked: return 0;
  }
  return 0;
}

AllocatableRequested allocatable_and_requested(const ScoredResource& resource, const NodeInfo& node,
                                               int64_t pod_request, bool use_requested) {
  const ResourceVector& requested = use_requested ? node.requested() : node.non_zero_requested();
  const ResourceVector& allocatable = node.allocatable();
  switch (resource.kind) {
    case ScoredResource::Kind::cpu: return {allocatable.milli_cpu, requested.milli_cpu + pod_request};
    case ScoredResource::Kind::memory: return {allocatable.memory, requested.memory + pod_request};
    case ScoredResource::Kind::ephemeral_storage:
      return {allocatable.ephemeral_storage, node.requested().ephemeral_storage + pod_request};
    case ScoredResource::Kind::scalar:
      if (pod_request == 0 || !allocatable.has_scalar(resource.name)) return {};
      return {allocatable.scalar(resource.name), node.requested().scalar(resource.name) + pod_request};
    case ScoredResource::Kind::untracked: return {};
  }
  return {};
}

int64_t least_requested_score(int64_t requested, int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return (capacity - requested) * kMaxNodeScore / capacity;
}

int64_t most_requested_score(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  if (requested > capacity) requested = capacity;
  return requested * kMaxNodeScore / capacity;
}

}  // namespace troupe::plugins
