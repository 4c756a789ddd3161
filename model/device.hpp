#pragma once
// Koordinator's Device CRD (scheduling.koordinator.sh/v1alpha1, cluster
// scoped, one object per node and named after it): the node's GPUs, RDMA NICs
// and FPGAs with their per-device resources, health, PCIe/NUMA topology and
// SR-IOV virtual functions. status.allocations is not read by the scheduler
// and stays in raw; so do annotations such as the GPU partition table.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/label_selector.hpp"
#include "model/object_meta.hpp"
#include "model/resources.hpp"
#include "model/result.hpp"

namespace troupe {

/// Device types the scheduler allocates (DeviceInfo.type).
inline constexpr std::string_view kDeviceTypeGpu = "gpu";
inline constexpr std::string_view kDeviceTypeRdma = "rdma";
inline constexpr std::string_view kDeviceTypeFpga = "fpga";

struct DeviceTopology {
  int32_t socket_id = 0;
  int32_t node_id = 0;  // NUMA node; -1 when unknown
  std::string pcie_id;  // PCIe switch, unique across NUMA nodes
  std::string bus_id;   // "domain:bus:device.function"
};

struct VirtualFunction {
  int32_t minor = 0;
  std::string bus_id;
};

struct VirtualFunctionGroup {
  Labels labels;
  std::vector<VirtualFunction> vfs;
};

struct DeviceInfo {
  std::string type;  // gpu, rdma, fpga (kept as text: newer koordlets report more)
  Labels labels;
  std::string id;  // device UUID or well-known id (Go field UUID)
  std::optional<int32_t> minor;
  std::optional<int32_t> module_id;
  /// Written by koordlet always; absent reads as false (as Go decodes it). An
  /// unhealthy device contributes no resources.
  bool health = false;
  ResourceList resources;
  std::optional<DeviceTopology> topology;
  std::vector<VirtualFunctionGroup> vf_groups;
};

struct Device {
  ObjectMeta meta;
  std::vector<DeviceInfo> devices;  // spec.devices
  JsonPtr raw;
};

Result<Device> decode_device(JsonPtr doc);
Result<Device> decode_device_json(std::string_view text);
std::shared_ptr<JsonDocument> to_document(const Device& device);
std::string encode(const Device& device);

TROUPE_DECLARE_JSON_FIELDS(DeviceTopology)
TROUPE_DECLARE_JSON_FIELDS(VirtualFunction)
TROUPE_DECLARE_JSON_FIELDS(VirtualFunctionGroup)
TROUPE_DECLARE_JSON_FIELDS(DeviceInfo)
TROUPE_DECLARE_JSON_FIELDS(Device)

}  // namespace troupe
