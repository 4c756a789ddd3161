#include "plugins/deviceshare/allocation_view.hpp"

#include <algorithm>

#include "plugins/deviceshare/rdma_allocator.hpp"

namespace troupe::plugins::deviceshare {

namespace {


bool numa_allowed(const DeviceSlotInfo& info, uint64_t numa_nodes) {
  if (!info.placement) return false;
  const int32_t node = info.placement->numa_node;
  if (node == -1) return true;
  return node >= 0 && node < 64 && (numa_nodes >> node & 1u) != 0;
}

// filterFreeDevicesByPCIe: minors on PCIe switches where every device of the
// type is entirely free (capacity equals free, names included).
bool on_idle_switch(const NodeDevices& node, DeviceType type, int32_t minor) {
  const TypeDevices& devices = node.devices(type);
  for (const auto& [numa, switches] : node.numa_topology()) {
    for (const PcieSwitch& sw : switches) {
      const auto& minors = sw.minors[type_index(type)];
      if (std::find(minors.begin(), minors.end(), minor) == minors.end()) continue;
      const bool idle = std::all_of(minors.begin(), minors.end(), [&](int32_t m) {
        const DeviceSlot* slot = devices.find(m);
        return slot == nullptr || slot->total() == slot->free();
      });
      if (idle) return true;
    }
  }
  return false;
}

}  // namespace

bool AllocationPlan::empty() const {
  return std::none_of(types.begin(), types.end(), [](const TypePlan& t) { return t.present && !t.devices.empty(); });
}

bool operator==(const AllocationPlan& a, const AllocationPlan& b) {
  for (size_t t = 0; t < kDeviceTypeCount; ++t) {
    const TypePlan& x = a.types[t];
    const TypePlan& y = b.types[t];
    if (x.present != y.present || x.devices.size() != y.devices.size()) return false;
    for (size_t i = 0; i < x.devices.size(); ++i)
      if (x.devices[i].minor != y.devices[i].minor || x.devices[i].vf != y.devices[i].vf) return false;
  }
  return true;
}

const std::string* pcie_of(const DeviceSlot& slot) {
  if (slot.info == nullptr || !slot.info->placement) return nullptr;
  return &slot.info->placement->pcie_id;
}

PluginStatus prepare_types(const NodeDevices& node, const DeviceShareRequest& request,
                           const AllocateOptions& options, PreparedTypes& out) {
  out = PreparedTypes{};
  const auto primary = request.primary();
  for (DeviceType type : kAllDeviceTypes) {
    const TypeRequest* req = request.requests.get(type);
    if (req == nullptr) continue;
    // Secondary devices of a well-planned node are left to Reserve.
    if (primary && type != *primary && request.fits_secondary_well_planned &&
        node.secondary_device_well_planned() && !options.reserve_phase)
      continue;
    PreparedType& p = out[type_index(type)];
    if (type == DeviceType::gpu) {
      if (node.devices(type).slots.empty()) return PluginStatus::unresolvable(insufficient_devices(type));
      p.present = true;
      p.per_instance = request.gpu->per_gpu_amounts;
      p.desired = request.gpu->count;
    } else {
      PluginStatus s = prepare_common_device(node, type, *req, request.hint(type), p);
      if (!s.ok()) return s;
    }
  }
  for (DeviceType type : kAllDeviceTypes) {
    if (!out[type_index(type)].present) continue;
    const DeviceHint* hint = request.hint(type);
    if (hint != nullptr && hint->must_allocate_vf() && !node.devices(type).has_virtual_functions())
      return PluginStatus::unresolvable("Insufficient " + std::string(device_type_name(type)) + " VirtualFunctions");
  }
  return {};
}

AllocationView build_view(const NodeDevices& node, const DeviceShareRequest& request, const PreparedTypes& prepared,
                          const AllocateOptions& options) {
  AllocationView view;
  view.node = &node;
  for (DeviceType type : kAllDeviceTypes) {
    if (!prepared[type_index(type)].present) continue;
    const TypeDevices& devices = node.devices(type);
    if (!devices.any_free()) continue;
    const DeviceHint* hint = request.hint(type);
    const LabelSelector* selector = hint != nullptr && hint->selector ? &*hint->selector : nullptr;
    uint64_t candidates = devices.listed_slots();
    if (type == DeviceType::gpu) candidates &= options.gpu_slot_mask;
    if (options.numa_nodes || selector != nullptr) {
      for (size_t i = 0; i < devices.slots.size() && i < kMaxDevicesPerType; ++i) {
        const DeviceSlotInfo* info = devices.slots[i].info;
        if (info == nullptr) continue;
        const bool allowed = (!options.numa_nodes || numa_allowed(*info, *options.numa_nodes)) &&
                             (selector == nullptr || selector->matches(info->labels));
        if (!allowed) candidates &= ~(uint64_t{1} << i);
      }
    }
    if (candidates == 0) continue;
    if (hint != nullptr && hint->pcie_level_exclusive()) {
      for (size_t i = 0; i < devices.slots.size() && i < kMaxDevicesPerType; ++i)
        if (!on_idle_switch(node, type, devices.slots[i].minor)) candidates &= ~(uint64_t{1} << i);
    }
    view.types[type_index(type)] = TypeView{true, candidates};
  }
  return view;
}

}  // namespace troupe::plugins::deviceshare
