#include "plugins/deviceshare/allocation_result.hpp"

#include "plugins/deviceshare/gpu_memory.hpp"

namespace troupe::plugins::deviceshare {

Result<DeviceAllocations> to_device_allocations(const AllocationPlan& plan, const NodeDevices& node,
                                                const DeviceShareRequest& request) {
  DeviceAllocations out;
  for (DeviceType type : kAllDeviceTypes) {
    const TypePlan& tp = plan.types[type_index(type)];
    if (!tp.present || tp.devices.empty()) continue;
    const TypeRequest* written = request.requests.get(type);
    const ResourceList resources =
        tp.as_written && written != nullptr ? written->resources : tp.per_instance.to_list();
    auto& entries = out[std::string(device_type_name(type))];
    const TypeDevices& devices = node.devices(type);
    for (const PlannedDevice& d : tp.devices) {
      DeviceAllocation entry;
      entry.minor = d.minor;
      entry.resources = resources;
      const DeviceSlot* slot = devices.find(d.minor);
      if (type == DeviceType::gpu) {
        if (slot == nullptr || slot->total().is_zero())
          return Error{"no healthy gpu device with minor " + std::to_string(d.minor) + " of allocation"};
        entry.resources = fill_gpu_memory(tp.per_instance, slot->total()).to_list();
      }
      if (slot != nullptr && slot->info != nullptr) entry.id = std::string(node.device_id(*slot));
      if (d.vf >= 0 && slot != nullptr && static_cast<size_t>(d.vf) < slot->vfs().size()) {
        const DeviceVf& vf = slot->vfs()[static_cast<size_t>(d.vf)];
        entry.extension.emplace();
        entry.extension->vfs.push_back(AllocatedVirtualFunction{vf.minor, vf.bus_id});
      }
      entries.push_back(std::move(entry));
    }
  }
  return out;
}

}  // namespace troupe::plugins::deviceshare
