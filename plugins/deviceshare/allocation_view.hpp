#pragma once
// The vocabulary of the allocation pipeline (device_allocator.go):
//  - PreparedTypes: per requested device type, the request of one device
//    instance and how many instances are wanted (the device handlers' work);
//  - AllocationView: which devices of the node may be used for this pod
//    (Koordinator's filtered nodeDevice: NUMA affinity, hint selectors,
//    PCIe-level exclusivity);
//  - AllocationPlan: the devices chosen, per type, in allocation order.
// Everything here is fixed-size, so Filter allocates nothing.

#include <array>
#include <cstdint>
#include <optional>

#include "model/label_selector.hpp"
#include "plugins/deviceshare/device_amounts.hpp"
#include "plugins/deviceshare/device_share_request.hpp"
#include "plugins/deviceshare/device_scorer.hpp"
#include "plugins/deviceshare/fixed_vector.hpp"
#include "plugins/deviceshare/node_devices.hpp"
#include "plugins/framework/status.hpp"

namespace troupe::plugins::deviceshare {

struct AllocateOptions {
  /// Orders devices during allocation; Koordinator's Filter and NUMA hints
  /// allocate without one (every device scores 0), Reserve with one.
  const DeviceScorer* scorer = nullptr;
  /// Allowed NUMA nodes (bit i = node i); nullopt = no NUMA restriction.
  std::optional<uint64_t> numa_nodes;
  /// Reserve allocates secondary devices on well-planned nodes too.
  bool reserve_phase = false;
  /// The Node's labels (built-in Hopper partition table and its policy).
  const Labels* node_labels = nullptr;
  /// GPU slots the pod may use (bit i = slots[i]); the Fragmentation strategy
  /// narrows a shared request to the card it chose.
  uint64_t gpu_slot_mask = ~uint64_t{0};
};

struct PreparedType {
  bool present = false;
  DeviceAmounts per_instance;
  int64_t desired = 1;
  /// The per-instance request is the pod's own quantities (RDMA/FPGA taking
  /// one device): the annotation repeats them as written.
  bool as_written = false;
};
using PreparedTypes = std::array<PreparedType, kDeviceTypeCount>;

struct PlannedDevice {
  int32_t minor = 0;
  int32_t vf = -1;  // index into the slot's vfs, -1 = none
};
using PlannedDevices = FixedVector<PlannedDevice, kMaxDevicesPerType>;

struct TypePlan {
  bool present = false;
  DeviceAmounts per_instance;
  bool as_written = false;
  PlannedDevices devices;
};

struct AllocationPlan {
  std::array<TypePlan, kDeviceTypeCount> types;
  bool empty() const;
  /// Same devices and VFs (for determinism checks).
  friend bool operator==(const AllocationPlan& a, const AllocationPlan& b);
};

struct TypeView {
  /// The filtered node device still has the type (some device has free capacity).
  bool present = false;
  /// Slot indices (bit i = devices(type).slots[i]) the pod may use.
  uint64_t candidates = 0;
};

struct AllocationView {
  const NodeDevices* node = nullptr;
  std::array<TypeView, kDeviceTypeCount> types;

  const TypeDevices& devices(DeviceType type) const { return node->devices(type); }
  bool candidate(DeviceType type, size_t slot) const {
    return slot < kMaxDevicesPerType && (types[type_index(type)].candidates >> slot & 1u) != 0;
  }
};

/// calcRequestsAndCountByDeviceType plus the VF check: the per-instance
/// request and count of every requested type the node must provide now.
PluginStatus prepare_types(const NodeDevices& node, const DeviceShareRequest& request,
                           const AllocateOptions& options, PreparedTypes& out);

/// filterNodeDevice for the prepared types.
AllocationView build_view(const NodeDevices& node, const DeviceShareRequest& request, const PreparedTypes& prepared,
                          const AllocateOptions& options);

/// The PCIe switch of a device ("" when it has no topology).
const std::string* pcie_of(const DeviceSlot& slot);

}  // namespace troupe::plugins::deviceshare
