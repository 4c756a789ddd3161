#pragma once
// NodeNUMAResource's designated allocation (Koordinator's preFilterState
// designatedAllocation): a component that already chose a pod's node and
// CPUs says so with a SchedulingHint whose `extensions` name
// NodeNUMAResource, and writes the cpuset into the pod's own
// `scheduling.koordinator.sh/resource-status` annotation. Without that
// extension the annotation on a pending pod is not a designation (Reserve
// lets go of what the node held of it when the pod was assumed). Only a pod
// that gets a cpuset has a designation.
//
// As for DeviceShare's designation (plugins/deviceshare/designated_allocation.hpp),
// the designation narrows what the allocator sees rather than replacing it:
// Filter, the NUMA hints and Reserve run on a trial copy of the node where
// every available CPU outside the designated cpuset is taken (over the CPUs
// the pod's reservations give back), with the pod's own request and bind
// policy, and Filter always makes a trial allocation (Koordinator's Filter
// confirms the designation still holds). A designation the node cannot
// honour (a CPU taken, fewer CPUs than requested, or CPUs the bind policy
// cannot use) fails as a full node does (`not enough cpus available to
// satisfy request`, or the NUMA reasons under a NUMA policy). The NUMA
// amounts offered follow the designated CPUs (AllocateRequest::numa_cpu_at_most_free).

#include <memory>
#include <optional>

#include "model/cpuset.hpp"
#include "model/object_meta.hpp"
#include "model/result.hpp"
#include "plugins/node_numa_resource/node_numa_resource_plugin.hpp"

namespace troupe::plugins::numa {

/// The pod's designated cpuset: null without a designation (no hint
/// extension, no annotation, or one without a cpuset); an error naming the
/// annotation when it does not decode.
Result<std::shared_ptr<const CpuSet>> designated_cpus_of(const ObjectMeta& pod_meta);

/// Makes every available CPU of `cpus` outside `designated` taken.
void narrow_to_designated(NodeCpus& cpus, const CpuSet& designated);

/// Filter of a designated pod on its trial node; nullopt without a designation.
std::optional<PluginStatus> filter_designated_cpus(const NodeNUMAResource& plugin, const CycleState& state,
                                                   const PodInfo& pod, const NodeInfo& node);

/// Reserve of a designated pod: on its trial node (the reservation's CPUs
/// first, as reserve_reserved_cpus), then held on the node itself; nullopt
/// without a designation.
std::optional<PluginStatus> reserve_designated_cpus(const NodeNUMAResource& plugin, CycleState& state,
                                                    const PodInfo& pod, NodeInfo& node);

}  // namespace troupe::plugins::numa
