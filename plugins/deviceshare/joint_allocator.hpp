#pragma once
// The allocation pipeline (device_allocator.go AutopilotAllocator.Allocate):
//  1. prepare the per-type requests (prepare_types) and the node's view
//     (build_view);
//  2. with more than one requested type and a device-joint-allocate spec,
//     allocate the primary type first, then each secondary type preferring
//     the PCIe switches the primary got (with requiredScope SamePCIe at least
//     one device per such switch, and the switch sets must then be equal:
//     "node(s) Device Joint-Allocate rules violation");
//  3. allocate the remaining types independently (GPUs through the GPU
//     allocator, RDMA/FPGA per device);
//  4. nothing allocated at all: "Insufficient <type> devices" per type.
// Deterministic: the same node state and request give the same devices.

#include "plugins/deviceshare/allocation_view.hpp"

namespace troupe::plugins::deviceshare {

inline constexpr const char* kErrInsufficientPrimaryDevice = "node(s) Insufficient primary device";
inline constexpr const char* kErrJointAllocateViolation = "node(s) Device Joint-Allocate rules violation";

/// Chooses the pod's devices on the node. `out` is the plan on success.
PluginStatus allocate_devices(const NodeDevices& node, const DeviceShareRequest& request,
                              const AllocateOptions& options, AllocationPlan& out);

/// The node's DeviceShare score (scoring.go): per requested type, the
/// scorer over the sums of its candidate devices' capacity and free; the
/// types' scores summed (the plugin normalises across nodes). 0 when the
/// node cannot prepare the request (Filter rejects such nodes).
int64_t score_node(const NodeDevices& node, const DeviceShareRequest& request, const DeviceScorer& scorer,
                   const AllocateOptions& options);

}  // namespace troupe::plugins::deviceshare
