#pragma once
// The per-device allocation Koordinator uses for RDMA NICs and FPGAs, and
// for GPUs when neither partitions nor the topology tree decided
// (devicehandler_default.go, device_allocator.go defaultAllocateDevices):
//
// Request per device (prepare_common_device):
//   quantity > 100 and a multiple of 100  -> quantity/100 devices × 100
//   hint ApplyForAll                      -> every device of the type (or every
//                                            one the hint's selector matches) × quantity
//   hint RequestsAsCount                  -> quantity devices × 1 (× 100 with
//                                            exclusivePolicy DeviceLevel)
//   otherwise                             -> one device × quantity
//
// Choosing devices (allocate_default_devices): score each candidate with the
// scorer (0 without one), order preferred PCIe switches first (round-robin
// over the switches, so each preferred switch gets a device), then score
// descending, then minor ascending; skip devices with nothing free or too
// little free (a GPU card: too little for the request with both memory
// dimensions filled in, see gpu_memory.hpp); with a VF selector take the unallocated VF with the smallest
// bus id from the matching vfGroups (no such VF: skip the device); take up to
// max(desired, preferred switches) devices; fewer than desired is
// "Insufficient <type> devices".

#include <string>

#include "plugins/deviceshare/allocation_view.hpp"

namespace troupe::plugins::deviceshare {

/// PCIe switch ids a secondary device type should be taken from.
using PcieIds = FixedVector<const std::string*, kMaxDevicesPerType>;

PluginStatus prepare_common_device(const NodeDevices& node, DeviceType type, const TypeRequest& request,
                                   const DeviceHint* hint, PreparedType& out);

PluginStatus allocate_default_devices(const AllocationView& view, DeviceType type, const DeviceShareRequest& request,
                                      const DeviceAmounts& per_instance, int64_t desired,
                                      const PcieIds* preferred_pcie, const DeviceScorer* scorer,
                                      PlannedDevices& out);

/// The unallocated VF with the smallest bus id in the vfGroups matching
/// `selector`; -1 when there is none.
int32_t select_vf(const DeviceSlot& slot, const LabelSelector& selector);

}  // namespace troupe::plugins::deviceshare
