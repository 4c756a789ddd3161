#pragma once
// Turns an allocation plan into the DeviceAllocations koord-scheduler records
// (Reserve: fillGPUTotalMem; PreBind: fillID):
//  - each device's resources are the per-instance request (RDMA/FPGA taking
//    one device repeat the pod's quantities as written);
//  - every GPU entry carries both gpu-memory and gpu-memory-ratio, one
//    derived from the other against that card's gpu-memory:
//      bytes = ratio × totalMemory / 100            (integer, BinarySI)
//      ratio = int64(float64(bytes) / float64(totalMemory) × 100)
//    (neither requested: gpu-memory "0", as Koordinator writes);
//  - `id` is the Device's id of that type and minor;
//  - a chosen VF goes to extension.vfs.
// A GPU that is no longer healthy fails with Koordinator's message
// "no healthy gpu device with minor <n> of allocation".

#include "model/result.hpp"
#include "plugins/deviceshare/allocation_view.hpp"
#include "plugins/deviceshare/device_allocated.hpp"

namespace troupe::plugins::deviceshare {

Result<DeviceAllocations> to_device_allocations(const AllocationPlan& plan, const NodeDevices& node,
                                                const DeviceShareRequest& request);

}  // namespace troupe::plugins::deviceshare
