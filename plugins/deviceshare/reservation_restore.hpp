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
//
// Owners' allocations are accounted on the node beside the hold they came
// from; every view counts them once (owners_counted_once), Score's too
// (reserved_score_view).

#include <functional>
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

/// Owners allocate inside their reservation's hold, and both are accounted
/// on the node: for a pod that does not get a hold given back, each such
/// reservation holds only what its owners left (Koordinator gives their use
/// back: mergedUnmatchedUsed, mergedMatchedAllocated), so the devices count
/// once. Whether any reservation not `restored` has an owner using devices.
bool owners_use_kept_holds(const NodeDevices& devices, const NodeInfo& node, const std::vector<std::string>& restored);

/// `devices` with every reservation not `restored` holding only what its
/// owners left of its hold.
NodeDevices owners_counted_once(NodeDevices devices, const NodeInfo& node, const std::vector<std::string>& restored);

/// Restricted: on the devices the `restricted` reservations hold, an owner
/// gets at most what their holds have left after their other owners
/// (Koordinator's requiredDeviceResources, the reservation's `remained`):
/// `view`'s free capacity beyond that is blocked. `accounted`: the node as
/// accounted (holds and owners), without the pod's own allocation.
NodeDevices capped_at_restricted_holds(NodeDevices view, const NodeDevices& accounted, const NodeInfo& node,
                                       const std::vector<std::string>& restricted);

/// What Filter lets the pod allocate from when reservations it may use hold
/// devices on the node (their devices given back; only theirs if one is
/// Restricted), or when other reservations' owners use their holds
/// (owners_counted_once); nullopt when neither applies.
std::optional<NodeDevices> reserved_filter_view(const PodInfo& pod, const NodeInfo& node);

/// What Score rates the node by, as Koordinator's Score without a nominated
/// reservation (mergedUnmatchedUsed and mergedMatchedAllocatable given back):
/// the holds of the reservations the pod may use given back (Restricted ones
/// too: the rest of the node is not blocked), the other reservations' owners
/// counted once; nullopt when neither applies (the node as it is).
std::optional<NodeDevices> reserved_score_view(const PodInfo& pod, const NodeInfo& node);

/// The node for a pod that allocated no reservation holding devices here:
/// the reservations' owners counted once; nullopt when no owner uses a hold
/// (the node's devices as they are).
std::optional<NodeDevices> owners_counted_once_view(const PodInfo& pod, const NodeInfo& node);

/// The devices of the reservation the pod allocated on the node, given back
/// (`only_reserved`: nothing else usable), the other reservations' owners
/// counted once; nullopt when it allocated none holding devices there.
std::optional<NodeDevices> reserved_reserve_view(const PodInfo& pod, const NodeInfo& node, bool only_reserved);

/// How a caller narrows each view before Reserve runs on it (a designation).
using NarrowDevices = std::function<NodeDevices(NodeDevices)>;

/// Reserve on the views of the reservation the pod allocated: its devices
/// first, then (unless it is Restricted) the whole node with them given back,
/// each view passed through `narrow`; the result is accounted on the node
/// itself. nullopt when the pod allocated no reservation holding devices here.
std::optional<PluginStatus> reserve_on_reserved_views(const DeviceShare& plugin, CycleState& state, const PodInfo& pod,
                                                      NodeInfo& node, std::optional<uint64_t> numa_affinity,
                                                      const NarrowDevices& narrow);

/// Reserve ran on a view (a copy of the node's devices): accounts the
/// allocation it wrote into the state on the node itself.
void account_on_node(const DeviceShare& plugin, const CycleState& state, const PodInfo& pod, NodeInfo& node);

}  // namespace troupe::plugins::deviceshare
