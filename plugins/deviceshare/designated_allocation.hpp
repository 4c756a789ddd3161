#pragma once
// Koordinator's designated allocation: a component that already chose a
// pod's node and devices (a job queue) says so with a SchedulingHint whose
// `extensions` name DeviceShare, and writes the devices in the pod's own
// `scheduling.koordinator.sh/device-allocated` annotation. DeviceShare then
// checks at Filter that exactly those devices are free on the node (every
// resource of each minor, and each virtual function named), and takes
// exactly them at Reserve, instead of choosing devices itself. Without the
// hint's DeviceShare extension the annotation on a pending pod is ignored.

#include <memory>
#include <optional>

#include "model/object_meta.hpp"
#include "model/result.hpp"
#include "plugins/deviceshare/device_allocated.hpp"
#include "plugins/deviceshare/node_devices.hpp"
#include "plugins/deviceshare/numa_hints.hpp"
#include "plugins/framework/status.hpp"

namespace troupe::plugins::deviceshare {

/// The pod's designated allocation: nullopt without one (no hint extension,
/// or no annotation); an error naming the annotation when it does not decode.
Result<std::optional<DeviceAllocations>> designated_allocation_of(const ObjectMeta& pod_meta);

/// Whether the designated devices are free on the node: "Insufficient gpu
/// devices" for a minor the node lacks, an unhealthy one or one without room
/// for the amounts named; "Insufficient rdma VirtualFunctions" for a VF that
/// is taken or unknown.
PluginStatus designated_fits(const NodeDevices& devices, const DeviceAllocations& designated);

/// The designated allocation as Reserve records it: each entry without an
/// `id` gets its device's id on the node, as the allocator's results carry.
DeviceAllocations with_device_ids(const NodeDevices& devices, DeviceAllocations designated);

inline constexpr const char* kErrDesignatedAllocationLackNuma = "Designated Allocation Lack NUMA Node ID";

/// The NUMA hints of a designated allocation (Koordinator's
/// generateDesignatedHints): per device type, one preferred hint, the NUMA
/// nodes its designated devices sit on; kErrDesignatedAllocationLackNuma when
/// one of them has no known NUMA node.
PluginStatus designated_numa_hints(const NodeDevices& devices, const DeviceAllocations& designated, NumaHints& out);

}  // namespace troupe::plugins::deviceshare
