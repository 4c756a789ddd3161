#pragma once
// DeviceLayout: what DeviceShare reads of a node's Device object, apart from
// the device ids: per device type the devices by minor with their capacity,
// health, labels, NUMA/PCIe placement and virtual functions; the node's
// NUMA -> PCIe switch layout, GPU topology tree and partition table; the
// Device labels the plugin reads. Nodes of one hardware model report the same
// layout, so it is built once and shared (shared_device_layout): NodeDevices
// keeps the shared layout and the node's own device ids instead of the Device
// object, which is freed once the watch event is applied.

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/device.hpp"
#include "plugins/deviceshare/device_amounts.hpp"
#include "plugins/deviceshare/device_types.hpp"
#include "plugins/deviceshare/gpu_partition.hpp"
#include "plugins/deviceshare/gpu_topology.hpp"

namespace troupe::plugins::deviceshare {

/// A virtual function of a device, with the index of its vfGroup.
struct DeviceVf {
  std::string bus_id;
  int32_t minor = 0;
  size_t group = 0;
};

/// Where a device sits (DeviceInfo.topology without the bus id, which the plugin does not read).
struct DevicePlacement {
  int32_t socket = 0;
  int32_t numa_node = 0;  // -1 when unknown
  std::string pcie_id;
};

/// One device of the Device object.
struct DeviceSlotInfo {
  int32_t minor = 0;
  bool health = false;
  /// The device's resources; its capacity while it is healthy and the Device present.
  DeviceAmounts capacity;
  Labels labels;
  std::optional<DevicePlacement> placement;
  /// VFs of all groups, by ascending bus id.
  std::vector<DeviceVf> vfs;
  /// The labels of each vfGroup (DeviceVf::group indexes it).
  std::vector<Labels> vf_group_labels;

  bool has_vf_groups() const { return !vf_group_labels.empty(); }
};

/// A PCIe switch: the device minors behind it, per type.
struct PcieSwitch {
  int32_t socket = 0;
  int32_t numa_node = 0;
  std::string pcie_id;
  std::array<std::vector<int32_t>, kDeviceTypeCount> minors;
};

/// NUMA node id -> its PCIe switches (devices with nodeID -1 or no topology are left out).
using NumaTopology = std::map<int32_t, std::vector<PcieSwitch>>;

struct DeviceLayout {
  /// Per known device type, ascending by minor, one entry per minor (a later
  /// duplicate in the Device replaces an earlier one, as Koordinator's
  /// minor-keyed maps do).
  std::array<std::vector<DeviceSlotInfo>, kDeviceTypeCount> devices;
  NumaTopology numa;
  std::optional<GpuScope> gpu_topology;
  /// The gpu-partitions annotation's table; nullopt when absent or it did not parse.
  std::optional<GpuPartitionIndexer> partitions;
  /// Why the table was ignored ("" when it was fine or absent).
  std::string partition_error;
  /// node.koordinator.sh/gpu-partition-policy is Honor.
  bool honor_partitions = false;
  /// node.koordinator.sh/secondary-device-well-planned is "true".
  bool secondary_well_planned = false;
  /// The Device's node.koordinator.sh/gpu-model label, when it has one.
  std::optional<std::string> gpu_model;
  /// Its node.koordinator.sh/gpu-vendor label ("" when absent).
  std::string gpu_vendor;
};

DeviceLayout build_device_layout(const Device& device);

/// Everything build_device_layout reads, in an unambiguous text form: two
/// Devices with the same key have the same layout (names and ids are left out).
std::string device_layout_key(const Device& device);

/// The layout of `device`, shared with every node whose Device has the same
/// key while any of them holds it (process-wide, thread-safe).
std::shared_ptr<const DeviceLayout> shared_device_layout(const Device& device);
/// Layouts the process-wide cache holds now (for tests and the memory probe).
size_t shared_device_layouts_in_use();

/// The id (DeviceInfo.id) of each device of the layout, in the layout's order.
std::array<std::vector<std::string_view>, kDeviceTypeCount> device_ids(const Device& device);

}  // namespace troupe::plugins::deviceshare
