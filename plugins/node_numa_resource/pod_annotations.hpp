#pragma once
// The pod annotations of Koordinator's CPU orchestration
// (apis/extension/numa_aware.go):
//   scheduling.koordinator.sh/resource-spec      what the pod asks for
//   scheduling.koordinator.sh/numa-topology-spec its NUMA alignment wishes
//   scheduling.koordinator.sh/resource-status    what the scheduler gave it
// Decoding is as lenient as Go's encoding/json (unknown keys ignored, keys
// matched case-insensitively, enum strings kept even when unknown) and fails
// with the annotation and field named. Encoding writes Go's exact bytes:
// struct field order, omitempty, canonical quantities, sorted resource names.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/cpuset.hpp"
#include "model/resources.hpp"
#include "model/result.hpp"
#include "plugins/node_numa_resource/numa_types.hpp"
#include "plugins/topology_manager/policy.hpp"

namespace troupe::plugins::numa {

inline constexpr const char* kAnnotationResourceSpec = "scheduling.koordinator.sh/resource-spec";
inline constexpr const char* kAnnotationResourceStatus = "scheduling.koordinator.sh/resource-status";
inline constexpr const char* kAnnotationNumaTopologySpec = "scheduling.koordinator.sh/numa-topology-spec";

struct ResourceSpec {
  std::string required_cpu_bind_policy;
  std::string preferred_cpu_bind_policy;
  std::string preferred_cpu_exclusive_policy;

  CpuBindPolicy required() const { return parse_cpu_bind_policy(required_cpu_bind_policy); }
  CpuBindPolicy preferred() const { return parse_cpu_bind_policy(preferred_cpu_bind_policy); }
  CpuExclusivePolicy exclusive() const { return parse_cpu_exclusive_policy(preferred_cpu_exclusive_policy); }
  friend bool operator==(const ResourceSpec& a, const ResourceSpec& b) {
    return a.required_cpu_bind_policy == b.required_cpu_bind_policy &&
           a.preferred_cpu_bind_policy == b.preferred_cpu_bind_policy &&
           a.preferred_cpu_exclusive_policy == b.preferred_cpu_exclusive_policy;
  }
};

struct NumaTopologySpec {
  topology::NumaPolicy policy = topology::NumaPolicy::none;
  topology::NumaExclusive exclusive = topology::NumaExclusive::none;
};

struct NumaNodeResource {
  int32_t node = 0;
  ResourceList resources;
  friend bool operator==(const NumaNodeResource& a, const NumaNodeResource& b) {
    return a.node == b.node && a.resources == b.resources;
  }
};

struct ResourceStatus {
  CpuSet cpuset;
  std::vector<NumaNodeResource> numa_node_resources;
  friend bool operator==(const ResourceStatus& a, const ResourceStatus& b) {
    return a.cpuset == b.cpuset && a.numa_node_resources == b.numa_node_resources;
  }
};

using Annotations = std::map<std::string, std::string>;

/// An absent annotation decodes to the empty value.
Result<ResourceSpec> decode_resource_spec(const Annotations& annotations);
Result<ResourceSpec> decode_resource_spec_json(std::string_view text);
std::string encode(const ResourceSpec& spec);

/// appendResourceSpecIfMissed: the resource-spec PreBind writes back so the
/// node agent knows which policy produced a cpuset. `required`: the policy
/// the pod requires or the node forces (unset: none); `preferred`: the pod's
/// preferred policy as resolved. A required policy fills an empty or
/// "Default" requiredCPUBindPolicy; a "Default" preferredCPUBindPolicy is
/// replaced; with neither given, the policy becomes the preferred one.
/// Nothing when the pod's own spec already says it all.
std::optional<ResourceSpec> resource_spec_to_write_back(ResourceSpec spec, CpuBindPolicy required,
                                                        CpuBindPolicy preferred);

/// Unknown policy or exclusivity values are errors (Koordinator would carry
/// them and never match a policy; rejecting says why).
Result<NumaTopologySpec> decode_numa_topology_spec(const Annotations& annotations);
Result<NumaTopologySpec> decode_numa_topology_spec_json(std::string_view text);
std::string encode(const NumaTopologySpec& spec);

/// The cpuset must be a valid cpulist; NUMA node ids must be >= 0.
Result<ResourceStatus> decode_resource_status(const Annotations& annotations);
Result<ResourceStatus> decode_resource_status_json(std::string_view text);
std::string encode(const ResourceStatus& status);

}  // namespace troupe::plugins::numa
