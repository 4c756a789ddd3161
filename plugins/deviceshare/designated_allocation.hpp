#pragma once
// Koordinator's designated allocation: a component that already chose a
// pod's node and devices (a job queue) says so with a SchedulingHint whose
// `extensions` name DeviceShare, and writes the devices into the pod's own
// `scheduling.koordinator.sh/device-allocated` annotation. Without that
// extension the annotation on a pending pod is ignored.
//
// As in Koordinator (plugin.go allocate, device_cache.go
// calcFreeWithPreemptible), the designation does not replace the allocator:
// it narrows what the allocator sees. Of each device type it names, every
// device it does not name is seen as taken, and a named device as free up to
// the amounts named (a GPU entry completed from the card's memory, as
// fillGPUTotalMem does; VFs, when named, only those); a type it does not name
// is not narrowed. Filter, the NUMA hints, the NUMA admission step and
// Reserve then run as usual on that view, with the pod's own request: a
// designation smaller than the request fails as a full node does
// (`Insufficient GPU Devices`, or `Insufficient gpu devices` on a node without
// a GPU topology tree), one larger gives the pod what it asks, and the ids
// come from the node's Device. The devices of the reservations the pod may
// use count as free under it (Reserve: the allocated reservation's first).

#include <memory>
#include <optional>

#include "model/object_meta.hpp"
#include "model/result.hpp"
#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "plugins/deviceshare/node_devices.hpp"

namespace troupe::plugins::deviceshare {

/// The pod's designated devices: null without a designation (no hint
/// extension, no annotation, or one naming no known device type); an error
/// naming the annotation when it does not decode.
Result<std::shared_ptr<const PodDevices>> designated_devices_of(const ObjectMeta& pod_meta);

/// `base` as the allocator may use it under the designation.
NodeDevices designated_view(const NodeDevices& base, const PodDevices& designated);

/// The view Filter, the NUMA hints and the NUMA admission step use for a
/// designated pod (over the devices its reservations give back); nullopt
/// when the pod has no designation or the node no device state.
std::optional<NodeDevices> designated_filter_view(const DeviceShare& plugin, const CycleState& state,
                                                  const PodInfo& pod, const NodeInfo& node);

/// Reserve of a designated pod: allocates on the view and accounts the
/// result on the node; nullopt when the pod has no designation.
std::optional<PluginStatus> reserve_designated_devices(const DeviceShare& plugin, CycleState& state,
                                                       const PodInfo& pod, NodeInfo& node,
                                                       std::optional<uint64_t> numa_affinity);

}  // namespace troupe::plugins::deviceshare
