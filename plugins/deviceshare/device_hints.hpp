#pragma once
// The pod annotations that steer device allocation (apis/extension/device_share.go):
//   scheduling.koordinator.sh/device-allocate-hint   {"<type>": DeviceHint}
//   scheduling.koordinator.sh/device-joint-allocate  {"deviceTypes": [...], "requiredScope": "SamePCIe"}
//   scheduling.koordinator.sh/gpu-partition-spec     {"allocatePolicy": "Restricted", "ringBusBandwidth": "200Gi"}
// Enum-valued strings are kept as written: Koordinator accepts any string and
// only acts on the values it knows. Errors are PreFilter's messages
// ("invalid DeviceAllocateHint annotation, err: ...").

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/label_selector.hpp"
#include "model/quantity.hpp"
#include "model/result.hpp"
#include "plugins/deviceshare/device_types.hpp"

namespace troupe::plugins::deviceshare {

/// DeviceTopologyScopeLevel: Device 4, PCIe 3, NUMANode 2, Node 1; anything else 0.
int topology_scope_level(std::string_view scope);
inline constexpr int kScopeLevelPcie = 3;
inline constexpr int kScopeLevelNumaNode = 2;
inline constexpr int kScopeLevelNode = 1;

struct DeviceHint {
  /// Filters devices by their labels; nullopt = no selector (a nil pointer).
  std::optional<LabelSelector> selector;
  /// Present (even `{}`) = the pod must get a virtual function of each device.
  std::optional<LabelSelector> vf_selector;
  std::string allocate_strategy;        // "ApplyForAll", "RequestsAsCount"
  std::string required_topology_scope;  // "Device", "PCIe", "NUMANode", "Node"
  std::string exclusive_policy;         // "DeviceLevel", "PCIeLevel"

  bool apply_for_all() const { return allocate_strategy == "ApplyForAll"; }
  bool requests_as_count() const { return allocate_strategy == "RequestsAsCount"; }
  bool device_level_exclusive() const { return exclusive_policy == "DeviceLevel"; }
  bool pcie_level_exclusive() const { return exclusive_policy == "PCIeLevel"; }
  bool must_allocate_vf() const { return vf_selector.has_value(); }
};

/// Hints of the known device types (other keys are ignored, as nothing reads them).
using DeviceHints = std::array<std::optional<DeviceHint>, kDeviceTypeCount>;

struct JointAllocate {
  std::vector<std::string> device_types;  // as written; PreFilter narrows them
  std::string required_scope;             // "SamePCIe"

  bool same_pcie() const { return required_scope == "SamePCIe"; }
};

struct GpuPartitionSpec {
  std::string allocate_policy = "BestEffort";  // "" is read as BestEffort
  std::optional<Quantity> ring_bus_bandwidth;

  bool restricted() const { return allocate_policy == "Restricted"; }
};

using Annotations = std::map<std::string, std::string>;

/// Absent annotation: no hints. Errors: "invalid DeviceAllocateHint annotation,
/// err: ..." or "invalid Selector of DeviceHint, deviceType: <t>, err: ..."
/// (VFSelector likewise).
Result<DeviceHints> parse_device_allocate_hints(const Annotations& annotations);
/// Absent: nullopt. Errors: "invalid DeviceJointAllocate annotation, err: ...".
Result<std::optional<JointAllocate>> parse_device_joint_allocate(const Annotations& annotations);
/// Absent: nullopt. Errors: "invalid GPUPartitionSpec annotation, err: ...".
Result<std::optional<GpuPartitionSpec>> parse_gpu_partition_spec(const Annotations& annotations);

}  // namespace troupe::plugins::deviceshare
