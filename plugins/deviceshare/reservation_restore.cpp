#include "plugins/deviceshare/reservation_restore.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "plugins/reservation/node_reservations.hpp"
#include "plugins/reservation/reservation_restore.hpp"

namespace troupe::plugins::deviceshare {

namespace {

/// The key the blocking allocation is accounted under in a restricted view:
/// never a pod identity (a uid, or namespace/name of DNS labels: no '#').
constexpr const char* kBlockerKey = "#reservation-restore/other-devices";
/// The key of what a Restricted reservation's devices have free beyond its hold.
constexpr const char* kHoldCapKey = "#reservation-restore/beyond-the-hold";

const NodeDevices* devices_of(const NodeInfo& node) {
  return node.extension<NodeDevices>(NodeExtensionSlot::kDevices);
}

/// Uids of the reservations whose reserve pod holds devices on the node.
std::vector<std::string> with_devices(const NodeDevices& devices,
                                      const std::vector<const reservation::ReservationEntry*>& entries) {
  std::vector<std::string> out;
  for (const auto* e : entries)
    if (devices.has_pod(e->uid())) out.push_back(e->uid());
  return out;
}

bool any_restricted(const std::vector<const reservation::ReservationEntry*>& entries, const NodeDevices& devices) {
  for (const auto* e : entries)
    if (devices.has_pod(e->uid()) && reservation::restricted(*e)) return true;
  return false;
}

/// The node's devices without the pod's own allocation (its annotation, read
/// when it was assumed): no other's use, and left in place it would escape an
/// only-reserved view's blocker.
NodeDevices without_own(const NodeDevices& devices, const PodInfo& pod) {
  NodeDevices out = devices;
  out.remove_pod(pod_identity(pod));
  return out;
}

/// The held reservations whose hold is kept in a view (not in `restored`).
std::vector<const reservation::ReservationEntry*> kept_holds(const NodeInfo& node, const NodeDevices& devices,
                                                              const std::vector<std::string>& restored) {
  std::vector<const reservation::ReservationEntry*> out;
  const auto* held = node.extension<reservation::NodeReservations>(NodeExtensionSlot::kReservations);
  if (held == nullptr) return out;
  for (const auto& [uid, entry] : held->entries())
    if (!entry.owners.empty() && devices.has_pod(uid) &&
        std::find(restored.begin(), restored.end(), uid) == restored.end())
      out.push_back(&entry);
  return out;
}

/// What the owners of `entry` use of each device its hold names, by type and minor.
std::array<std::map<int32_t, AccountedDevice>, kDeviceTypeCount> owners_inside(const NodeDevices& devices,
                                                                                const reservation::ReservationEntry& entry,
                                                                                const PodDevices& hold) {
  std::array<std::map<int32_t, AccountedDevice>, kDeviceTypeCount> inside;
  for (size_t t = 0; t < kDeviceTypeCount; ++t)
    for (const auto& d : hold.by_type[t]) inside[t][d.minor].minor = d.minor;
  for (const auto& [owner, requests] : entry.owners) {
    (void)requests;
    auto accounted = devices.pods().find(owner);
    if (accounted == devices.pods().end()) continue;
    for (size_t t = 0; t < kDeviceTypeCount; ++t)
      for (const auto& d : accounted->second.devices.by_type[t]) {
        auto it = inside[t].find(d.minor);
        if (it == inside[t].end()) continue;  // a device outside the hold: the owner's own use
        it->second.amounts += d.amounts;
        it->second.vf_bus_ids.insert(it->second.vf_bus_ids.end(), d.vf_bus_ids.begin(), d.vf_bus_ids.end());
      }
  }
  return inside;
}

/// The hold less what its owners use inside it (Koordinator's `remained`).
PodDevices remained_of(const PodDevices& hold,
                       const std::array<std::map<int32_t, AccountedDevice>, kDeviceTypeCount>& inside) {
  PodDevices remained;
  for (size_t t = 0; t < kDeviceTypeCount; ++t)
    for (const auto& d : hold.by_type[t]) {
      const AccountedDevice& used = inside[t].at(d.minor);
      AccountedDevice left{d.minor, d.amounts.subtract_non_negative(used.amounts), {}};
      for (const auto& vf : d.vf_bus_ids)
        if (std::find(used.vf_bus_ids.begin(), used.vf_bus_ids.end(), vf) == used.vf_bus_ids.end())
          left.vf_bus_ids.push_back(vf);
      if (!left.amounts.is_zero() || !left.vf_bus_ids.empty()) remained.by_type[t].push_back(std::move(left));
    }
  return remained;
}

/// What each device of the reservations' holds has left after their owners,
/// summed over `uids`, by type and minor.
std::array<std::map<int32_t, DeviceAmounts>, kDeviceTypeCount> holds_left(const NodeDevices& devices,
                                                                          const NodeInfo& node,
                                                                          const std::vector<std::string>& uids) {
  std::array<std::map<int32_t, DeviceAmounts>, kDeviceTypeCount> left;
  const auto* held = node.extension<reservation::NodeReservations>(NodeExtensionSlot::kReservations);
  if (held == nullptr) return left;
  for (const auto& uid : uids) {
    const auto* entry = held->find(uid);
    auto hold = devices.pods().find(uid);
    if (entry == nullptr || hold == devices.pods().end()) continue;
    const auto inside = owners_inside(devices, *entry, hold->second.devices);
    for (size_t t = 0; t < kDeviceTypeCount; ++t)
      for (const auto& d : hold->second.devices.by_type[t])
        left[t][d.minor] += d.amounts.subtract_non_negative(inside[t].at(d.minor).amounts);
  }
  return left;
}

/// Blocks, in `view`, what the reserved devices have free beyond what the
/// holds have left (`left`), for the resources the holds name.
void cap_at(NodeDevices& view, const std::array<std::map<int32_t, DeviceAmounts>, kDeviceTypeCount>& left) {
  PodDevices blocker;
  for (size_t t = 0; t < kDeviceTypeCount; ++t) {
    for (const auto& slot : view.devices(kAllDeviceTypes[t]).slots) {
      auto it = left[t].find(slot.minor);
      if (it == left[t].end()) continue;
      DeviceAmounts beyond;
      for (DeviceResource r : kAllDeviceResources)
        if (it->second.has(r) && slot.free().milli(r) > it->second.milli(r))
          beyond.set_milli(r, slot.free().milli(r) - it->second.milli(r));
      if (!beyond.empty()) blocker.by_type[t].push_back(AccountedDevice{slot.minor, beyond, {}});
    }
  }
  if (!blocker.empty()) view.add_pod(kHoldCapKey, blocker);
}

/// Restricted reservations among `entries` that hold devices here.
std::vector<std::string> restricted_uids(const std::vector<const reservation::ReservationEntry*>& entries,
                                         const NodeDevices& devices) {
  std::vector<std::string> out;
  for (const auto* e : entries)
    if (devices.has_pod(e->uid()) && reservation::restricted(*e)) out.push_back(e->uid());
  return out;
}

}  // namespace

NodeDevices capped_at_restricted_holds(NodeDevices view, const NodeDevices& accounted, const NodeInfo& node,
                                       const std::vector<std::string>& restricted) {
  if (restricted.empty()) return view;
  cap_at(view, holds_left(accounted, node, restricted));
  return view;
}

bool owners_use_kept_holds(const NodeDevices& devices, const NodeInfo& node, const std::vector<std::string>& restored) {
  for (const auto* entry : kept_holds(node, devices, restored))
    for (const auto& [owner, requests] : entry->owners) {
      (void)requests;
      if (devices.has_pod(owner)) return true;
    }
  return false;
}

NodeDevices owners_counted_once(NodeDevices devices, const NodeInfo& node, const std::vector<std::string>& restored) {
  for (const auto* entry : kept_holds(node, devices, restored)) {
    const auto held = devices.pods().find(entry->uid());
    const NodeDevices::AccountedPod hold = held->second;  // a copy: the entry goes below
    const PodDevices remained = remained_of(hold.devices, owners_inside(devices, *entry, hold.devices));
    devices.remove_pod(entry->uid());
    if (!remained.empty()) devices.add_pod(entry->uid(), remained, hold.name);
  }
  return devices;
}

NodeDevices restored_devices(const NodeDevices& devices, const std::vector<std::string>& reservation_uids,
                             bool only_reserved) {
  NodeDevices out = devices;
  std::array<std::set<int32_t>, kDeviceTypeCount> reserved;
  for (const auto& uid : reservation_uids) {
    auto it = devices.pods().find(uid);
    if (it == devices.pods().end()) continue;
    for (size_t t = 0; t < kDeviceTypeCount; ++t)
      for (const auto& d : it->second.devices.by_type[t]) reserved[t].insert(d.minor);
    out.remove_pod(uid);
  }
  if (!only_reserved) return out;
  // As Koordinator's Restricted policy, only the device types the reservations
  // hold are restricted to them: an owner's RDMA NIC still comes from the node
  // when the reservation holds GPUs only.
  PodDevices blocker;
  for (size_t t = 0; t < kDeviceTypeCount; ++t) {
    if (reserved[t].empty()) continue;
    for (const auto& slot : out.devices(kAllDeviceTypes[t]).slots) {
      if (reserved[t].count(slot.minor) != 0 || !slot.has_free()) continue;
      blocker.by_type[t].push_back(AccountedDevice{slot.minor, slot.free(), {}});
    }
  }
  if (!blocker.empty()) out.add_pod(kBlockerKey, blocker);
  return out;
}

namespace {

/// What the reservations on a node make of it for a pod: the ones it may use,
/// those of them holding devices here, and the node's devices with the other
/// reservations' owners counted once (without the pod's own allocation).
struct ApplicableReservations {
  std::vector<const reservation::ReservationEntry*> usable;
  std::vector<std::string> uids;
  NodeDevices base;
};

/// nullopt when no reservation applies and no owner uses a hold (the node as it is).
std::optional<ApplicableReservations> reservations_apply(const PodInfo& pod, const NodeInfo& node) {
  const NodeDevices* devices = devices_of(node);
  if (devices == nullptr || !devices->known()) return std::nullopt;
  ApplicableReservations out;
  out.usable = reservation::usable_reservations(pod, node);
  out.uids = with_devices(*devices, out.usable);
  const bool once = owners_use_kept_holds(*devices, node, out.uids);
  if (out.uids.empty() && !once) return std::nullopt;
  out.base = without_own(*devices, pod);
  if (once) out.base = owners_counted_once(std::move(out.base), node, out.uids);
  return out;
}

}  // namespace

std::optional<NodeDevices> reserved_filter_view(const PodInfo& pod, const NodeInfo& node) {
  auto applicable = reservations_apply(pod, node);
  if (!applicable) return std::nullopt;
  if (applicable->uids.empty()) return std::move(applicable->base);
  const auto& [usable, uids, base] = *applicable;
  // Filter asks whether some allocation exists; the preference only matters
  // at Reserve. A Restricted reservation leaves only the reserved devices.
  const bool only_reserved = any_restricted(usable, *devices_of(node));
  NodeDevices view = restored_devices(base, uids, only_reserved);
  if (!only_reserved) return view;
  return capped_at_restricted_holds(std::move(view), base, node, restricted_uids(usable, *devices_of(node)));
}

std::optional<NodeDevices> reserved_score_view(const PodInfo& pod, const NodeInfo& node) {
  auto applicable = reservations_apply(pod, node);
  if (!applicable) return std::nullopt;
  if (applicable->uids.empty()) return std::move(applicable->base);
  return restored_devices(applicable->base, applicable->uids, /*only_reserved=*/false);
}

std::optional<NodeDevices> owners_counted_once_view(const PodInfo& pod, const NodeInfo& node) {
  const NodeDevices* devices = devices_of(node);
  if (devices == nullptr || !devices->known() || !owners_use_kept_holds(*devices, node, {})) return std::nullopt;
  return owners_counted_once(without_own(*devices, pod), node, {});
}

std::optional<NodeDevices> reserved_reserve_view(const PodInfo& pod, const NodeInfo& node, bool only_reserved) {
  const NodeDevices* devices = devices_of(node);
  if (devices == nullptr || !devices->known()) return std::nullopt;
  const auto* entry = reservation::allocated_reservation(pod, node);
  if (entry == nullptr || !devices->has_pod(entry->uid())) return std::nullopt;
  const std::vector<std::string> restored{entry->uid()};
  NodeDevices base = without_own(*devices, pod);
  if (owners_use_kept_holds(base, node, restored)) base = owners_counted_once(std::move(base), node, restored);
  NodeDevices view = restored_devices(base, restored, only_reserved);
  if (!only_reserved || !reservation::restricted(*entry)) return view;
  return capped_at_restricted_holds(std::move(view), base, node, restored);
}

void account_on_node(const DeviceShare& plugin, const CycleState& state, const PodInfo& pod, NodeInfo& node) {
  auto* real = node.mutable_extension<NodeDevices>(NodeExtensionSlot::kDevices);
  if (real == nullptr) return;
  const std::string_view key = pod_identity(pod);
  real->remove_pod(key);
  if (const auto* s = plugin.read_state(state); s != nullptr && s->allocated)
    real->add_pod(key, pod_devices_from(*s->allocated), pod.key);
}

std::optional<PluginStatus> filter_reserved_devices(const DeviceShare& plugin, const CycleState& state,
                                                    const PodInfo& pod, const NodeInfo& node) {
  if (plugin.read_state(state) == nullptr) return std::nullopt;
  const auto view = reserved_filter_view(pod, node);
  if (!view) return std::nullopt;
  return plugin.filter_devices(state, node.node(), &*view);
}

std::optional<PluginStatus> reserve_on_reserved_views(const DeviceShare& plugin, CycleState& state, const PodInfo& pod,
                                                      NodeInfo& node, std::optional<uint64_t> numa_affinity,
                                                      const NarrowDevices& narrow) {
  // The reserved devices first; Aligned (or no policy) falls back to the whole restored node.
  auto view = reserved_reserve_view(pod, node, true);
  if (!view) return std::nullopt;
  NodeDevices narrowed = narrow(std::move(*view));
  PluginStatus status = plugin.reserve_devices(state, pod, node.node(), &narrowed, numa_affinity);
  if (!status.ok() && !reservation::allocated_reservation_restricted(pod, node)) {
    narrowed = narrow(*reserved_reserve_view(pod, node, false));
    status = plugin.reserve_devices(state, pod, node.node(), &narrowed, numa_affinity);
  }
  // The allocation was made on the view: account it on the node itself.
  if (status.ok()) account_on_node(plugin, state, pod, node);
  return status;
}

std::optional<PluginStatus> reserve_reserved_devices(const DeviceShare& plugin, CycleState& state, const PodInfo& pod,
                                                     NodeInfo& node, std::optional<uint64_t> numa_affinity) {
  if (plugin.read_state(state) == nullptr) return std::nullopt;
  return reserve_on_reserved_views(plugin, state, pod, node, numa_affinity, [](NodeDevices view) { return view; });
}

}  // namespace troupe::plugins::deviceshare
