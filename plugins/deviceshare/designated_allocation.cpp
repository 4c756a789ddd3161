#include "plugins/deviceshare/designated_allocation.hpp"

#include <algorithm>
#include <cassert>

#include "plugins/deviceshare/gpu_memory.hpp"
#include "plugins/deviceshare/reservation_restore.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/scheduling_hint/scheduling_hint.hpp"

namespace troupe::plugins::deviceshare {

namespace {

constexpr const char* kDeviceShare = "DeviceShare";

/// The key the blocking allocation is accounted under in a designated view:
/// never a pod identity (a uid, or namespace/name of DNS labels: no '#').
constexpr const char* kBlockerKey = "#designated-allocation/other-devices";

const AccountedDevice* named(const std::vector<AccountedDevice>& designated, int32_t minor) {
  auto it = std::find_if(designated.begin(), designated.end(), [&](const AccountedDevice& d) { return d.minor == minor; });
  return it == designated.end() ? nullptr : &*it;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// What the view must hide of one device: all of it when it is not named,
/// else what is free beyond the amounts named and the VFs not named.
AccountedDevice hidden_part(DeviceType type, const DeviceSlot& slot, const AccountedDevice* designation) {
  AccountedDevice hidden{slot.minor, {}, {}};
  if (designation == nullptr) {
    hidden.amounts = slot.free();
    return hidden;
  }
  const DeviceAmounts allowed =
      type == DeviceType::gpu ? fill_gpu_memory(designation->amounts, slot.total()) : designation->amounts;
  hidden.amounts = slot.free().subtract_non_negative(allowed);
  if (!designation->vf_bus_ids.empty()) {
    for (const DeviceVf& vf : slot.vfs())
      if (!contains(designation->vf_bus_ids, vf.bus_id) && !slot.vf_taken(vf.bus_id))
        hidden.vf_bus_ids.push_back(vf.bus_id);
  }
  return hidden;
}

std::optional<NodeDevices> base_filter_view(const PodInfo& pod, const NodeInfo& node) {
  if (auto restored = reserved_filter_view(pod, node)) return restored;
  const auto* devices = node.extension<NodeDevices>(NodeExtensionSlot::kDevices);
  if (devices == nullptr || !devices->known()) return std::nullopt;
  return *devices;
}

/// The pod's designated view of `base`. An allocation already accounted under
/// the pod's own key is its annotation read on an assumed pod: not a use of
/// others, so it is left out rather than hidden.
NodeDevices designated_view_for(NodeDevices base, const PodInfo& pod, const PodDevices& designated) {
  base.remove_pod(pod_identity(pod));
  return designated_view(base, designated);
}

}  // namespace

Result<std::shared_ptr<const PodDevices>> designated_devices_of(const ObjectMeta& pod_meta) {
  if (!scheduling_hint::hint_extends(pod_meta, kDeviceShare)) return std::shared_ptr<const PodDevices>{};
  auto annotation = device_allocations_from(pod_meta.annotations);
  if (!annotation) return Error{annotation.message()};
  if (!*annotation) return std::shared_ptr<const PodDevices>{};
  auto devices = std::make_shared<PodDevices>(pod_devices_from(**annotation));
  if (devices->empty()) return std::shared_ptr<const PodDevices>{};  // Koordinator: len(designated) == 0
  return std::shared_ptr<const PodDevices>(std::move(devices));
}

NodeDevices designated_view(const NodeDevices& base, const PodDevices& designated) {
  NodeDevices out = base;
  PodDevices hidden;
  for (DeviceType type : kAllDeviceTypes) {
    const auto& names = designated.by_type[type_index(type)];
    // A type the designation does not name is not restricted (Koordinator
    // filters only the types of its requiredDeviceResources).
    if (names.empty()) continue;
    for (const DeviceSlot& slot : base.devices(type).slots) {
      AccountedDevice part = hidden_part(type, slot, named(names, slot.minor));
      if (part.amounts.is_zero() && part.vf_bus_ids.empty()) continue;
      hidden.by_type[type_index(type)].push_back(std::move(part));
    }
  }
  if (!hidden.empty()) {
    [[maybe_unused]] const bool added = out.add_pod(kBlockerKey, hidden);
    assert(added);  // the key is no pod's, and the base has no view's blocker
  }
  return out;
}

std::optional<NodeDevices> designated_filter_view(const DeviceShare& plugin, const CycleState& state,
                                                  const PodInfo& pod, const NodeInfo& node) {
  const DeviceShareState* s = plugin.read_state(state);
  if (s == nullptr || !s->designated) return std::nullopt;
  auto base = base_filter_view(pod, node);
  if (!base) return std::nullopt;
  return designated_view_for(std::move(*base), pod, *s->designated);
}

std::optional<PluginStatus> reserve_designated_devices(const DeviceShare& plugin, CycleState& state,
                                                       const PodInfo& pod, NodeInfo& node,
                                                       std::optional<uint64_t> numa_affinity) {
  const DeviceShareState* s = plugin.read_state(state);
  if (s == nullptr || !s->designated) return std::nullopt;
  const auto* devices = node.extension<NodeDevices>(NodeExtensionSlot::kDevices);
  if (devices == nullptr || !devices->known()) return PluginStatus{};
  const auto designated = s->designated;  // the state is rewritten by reserve_devices
  auto narrow = [&](NodeDevices base) { return designated_view_for(std::move(base), pod, *designated); };
  // As reserve_reserved_devices, narrowed by the designation.
  if (auto reserved = reserve_on_reserved_views(plugin, state, pod, node, numa_affinity, narrow)) return reserved;
  NodeDevices view = narrow(owners_counted_once_view(pod, node).value_or(*devices));
  PluginStatus status = plugin.reserve_devices(state, pod, node.node(), &view, numa_affinity);
  if (status.ok()) account_on_node(plugin, state, pod, node);
  return status;
}

}  // namespace troupe::plugins::deviceshare
