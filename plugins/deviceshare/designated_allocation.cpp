#include "plugins/deviceshare/designated_allocation.hpp"

#include <algorithm>

#include "plugins/scheduling_hint/scheduling_hint.hpp"

namespace troupe::plugins::deviceshare {

namespace {

constexpr const char* kDeviceShare = "DeviceShare";

bool has_room(const DeviceSlot& slot, const DeviceAmounts& wanted) {
  for (size_t i = 0; i < kDeviceResourceCount; ++i) {
    const auto resource = static_cast<DeviceResource>(i);
    if (!wanted.has(resource)) continue;
    const int64_t free = slot.free().has(resource) ? slot.free().milli(resource) : 0;
    if (wanted.milli(resource) > free) return false;
  }
  return true;
}

bool vf_free(const DeviceSlot& slot, const std::string& bus_id) {
  const auto& vfs = slot.vfs();
  const bool known = std::any_of(vfs.begin(), vfs.end(), [&](const DeviceVf& vf) { return vf.bus_id == bus_id; });
  return known && !slot.vf_taken(bus_id);
}

}  // namespace

Result<std::optional<DeviceAllocations>> designated_allocation_of(const ObjectMeta& pod_meta) {
  if (!scheduling_hint::hint_extends(pod_meta, kDeviceShare)) return std::optional<DeviceAllocations>{};
  return device_allocations_from(pod_meta.annotations);
}

PluginStatus designated_fits(const NodeDevices& devices, const DeviceAllocations& designated) {
  const PodDevices wanted = pod_devices_from(designated);
  for (DeviceType type : kAllDeviceTypes) {
    for (const AccountedDevice& device : wanted.by_type[type_index(type)]) {
      const DeviceSlot* slot = devices.devices(type).find(device.minor);
      if (slot == nullptr || !slot->healthy() || !has_room(*slot, device.amounts))
        return PluginStatus::unschedulable(insufficient_devices(type));
      for (const std::string& bus_id : device.vf_bus_ids)
        if (!vf_free(*slot, bus_id))
          return PluginStatus::unschedulable("Insufficient " + std::string(device_type_name(type)) + " VirtualFunctions");
    }
  }
  return {};
}

DeviceAllocations with_device_ids(const NodeDevices& devices, DeviceAllocations designated) {
  for (auto& [type_name, entries] : designated) {
    auto type = device_type_of(type_name);
    if (!type) continue;
    for (DeviceAllocation& entry : entries) {
      if (!entry.id.empty()) continue;
      if (const DeviceSlot* slot = devices.devices(*type).find(entry.minor)) entry.id = std::string(devices.device_id(*slot));
    }
  }
  return designated;
}

PluginStatus designated_numa_hints(const NodeDevices& devices, const DeviceAllocations& designated, NumaHints& out) {
  out.clear();
  const PodDevices wanted = pod_devices_from(designated);
  for (DeviceType type : kAllDeviceTypes) {
    uint64_t mask = 0;
    for (const AccountedDevice& device : wanted.by_type[type_index(type)]) {
      const DeviceSlot* slot = devices.devices(type).find(device.minor);
      const bool known = slot != nullptr && slot->info != nullptr && slot->info->placement &&
                         slot->info->placement->numa_node >= 0 && slot->info->placement->numa_node <= 63;
      if (!known) return PluginStatus::unresolvable(kErrDesignatedAllocationLackNuma);
      mask |= uint64_t{1} << slot->info->placement->numa_node;
    }
    if (mask != 0) out[std::string(device_type_name(type))].push_back(NumaHint{mask, true, 0});
  }
  return {};
}

}  // namespace troupe::plugins::deviceshare
