#pragma once
// RestoreReservation for DeviceShare (Koordinator's
// pkg/scheduler/plugins/deviceshare reservation restore state): a pod that
// may use a reservation holding devices on the node sees the reservation's
// devices free again — what its other owners took stays used, accounted
// under their own keys — and allocates from them first; with allocatePolicy
// Restricted only from them, with Aligned (or none) from the rest of the node
// when they are not enough. The reservation's devices are those its reserve
// pod holds on the node (the Reservation's device-allocated annotation).
//
// The plugin calls these first in Filter and Reserve; nullopt means no
// reservation with devices applies and the plugin goes on as usual.

#include <optional>

#include "plugins/deviceshare/deviceshare_plugin.hpp"

namespace troupe::plugins::deviceshare {

std::optional<PluginStatus> filter_reserved_devices(const DeviceShare& plugin, const CycleState& state,
                                                    const PodInfo& pod, const NodeInfo& node);

std::optional<PluginStatus> reserve_reserved_devices(const DeviceShare& plugin, CycleState& state, const PodInfo& pod,
                                                     NodeInfo& node, std::optional<uint64_t> numa_affinity);

/// The node's devices with the holds of the reservations (by uid) given
/// back; `only_reserved`: every other device's free capacity blocked.
NodeDevices restored_devices(const NodeDevices& devices, const std::vector<std::string>& reservation_uids,
                             bool only_reserved);

}  // namespace troupe::plugins::deviceshare
