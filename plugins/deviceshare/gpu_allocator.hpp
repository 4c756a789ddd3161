#pragma once
// Koordinator's GPU allocator (allocator_gpu.go), three strategies in order:
//
// 1. Partitions (whole-GPU requests only). Honoured when the pod has a
//    gpu-partition-spec or the Device (else the Node, with the built-in
//    Hopper table) has policy Honor; otherwise their failures fall through.
//    The size's groups are scanned by ascending allocationScore; a partition
//    is feasible when none of its GPUs is in use, all are healthy candidates
//    and its ring bandwidth covers the pod's; the first group with a feasible
//    partition decides (only the first group under Restricted). Ties go to
//    the partition that leaves the most (score-weighted) whole 8/4/2-GPU
//    partitions free: weights 10000, 100, 1.
// 2. The topology tree (Node > NUMA node > PCIe). A scope is tried only with
//    at least `count` GPUs; the deepest result wins, then the one whose path
//    already hosts allocations (binpack), then for shared requests the best
//    scored device. A scope at or below the required level takes its first
//    `count` fitting GPUs by minor (or, shared, the best scored one). Without
//    requiredTopologyScope, an unsupported case (no tree, multi-card shared)
//    falls through; nothing fitting is "Insufficient GPU Devices".
// 3. The per-device allocation of rdma_allocator.hpp.
//
// Two deliberate differences:
//  - the shared-GPU device score uses the device's (total, free) in the right
//    order (koordinator-sh/koordinator#3073, fixed by PR #3074), so
//    LeastAllocated / MostAllocated rank shared cards as configured;
//  - a card "fits" when it has room for the request with both memory
//    dimensions filled in (gpu_memory.hpp), so pods sized by memory and by
//    ratio never over-commit a card's memory together.

#include "plugins/deviceshare/allocation_view.hpp"

namespace troupe::plugins::deviceshare {

inline constexpr const char* kErrInsufficientPartitionedDevice = "Insufficient Partitioned GPU Devices";
inline constexpr const char* kErrInsufficientTopologyScopedGpu = "Insufficient Topology Scoped GPU Devices";
inline constexpr const char* kErrInsufficientGpuDevices = "Insufficient GPU Devices";
inline constexpr const char* kErrMissingPartitionTable = "node(s) missing GPU Partition Table";
inline constexpr const char* kErrUnsupportedGpuRequests = "node(s) Unsupported number of GPU requests";
inline constexpr const char* kErrUnsupportedMultiSharedGpu = "node(s) Unsupported Multi-Shared GPU";
inline constexpr const char* kErrMissingTopologyTree = "node(s) missing GPU Device Topology Tree";

PluginStatus allocate_gpus(const AllocationView& view, const DeviceShareRequest& request,
                           const PreparedType& prepared, const AllocateOptions& options, PlannedDevices& out);

}  // namespace troupe::plugins::deviceshare
