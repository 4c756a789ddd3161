#pragma once
// The `scheduling.koordinator.sh/device-allocated` pod annotation
// (apis/extension/device_share.go DeviceAllocations): which devices, and how
// much of each, a pod was given. koord-scheduler writes it at PreBind, the
// node agent reads it, and every scheduler rebuilds its device accounting
// from it after a restart.
//
// Encoding is byte-for-byte what Go's encoding/json writes for
// map[DeviceType][]*DeviceAllocation: types in sorted order, entry fields in
// struct order (minor, resources, id omitempty, extension omitempty),
// resource names sorted with quantities as canonical strings, VF `minor`
// omitted when 0, and Go's string escaping (<, >, & as \u003c...).
//
// Decoding is as tolerant as encoding/json: unknown fields are ignored, keys
// match case-insensitively, quantities may be strings or numbers, null means
// absent. Errors name the path inside the annotation ("gpu[0].minor: ...").

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/resources.hpp"
#include "model/result.hpp"

namespace troupe::plugins::deviceshare {

struct AllocatedVirtualFunction {
  int32_t minor = 0;  // Go `int`, omitempty: koordlets report -1 for VFs without a minor
  std::string bus_id;

  friend bool operator==(const AllocatedVirtualFunction& a, const AllocatedVirtualFunction& b) {
    return a.minor == b.minor && a.bus_id == b.bus_id;
  }
};

struct DeviceAllocationExtension {
  std::vector<AllocatedVirtualFunction> vfs;
  std::string gpu_shared_resource_template;

  friend bool operator==(const DeviceAllocationExtension& a, const DeviceAllocationExtension& b) {
    return a.vfs == b.vfs && a.gpu_shared_resource_template == b.gpu_shared_resource_template;
  }
};

struct DeviceAllocation {
  int32_t minor = 0;
  ResourceList resources;
  std::string id;  // the Device's `id` for this type and minor
  std::optional<DeviceAllocationExtension> extension;

  friend bool operator==(const DeviceAllocation& a, const DeviceAllocation& b) {
    return a.minor == b.minor && a.resources == b.resources && a.id == b.id && a.extension == b.extension;
  }
};

/// Device type ("gpu", "rdma", "fpga", or any other a newer writer used) ->
/// entries in allocation order. std::map keeps Go's sorted key order.
using DeviceAllocations = std::map<std::string, std::vector<DeviceAllocation>>;

/// Decodes the annotation value. JSON null decodes to no allocations.
Result<DeviceAllocations> decode_device_allocations(std::string_view json);
/// The annotation on these annotations: nullopt when absent, an error (naming
/// the annotation) when it does not decode.
Result<std::optional<DeviceAllocations>> device_allocations_from(const std::map<std::string, std::string>& annotations);

/// Go's json.Marshal of the allocations.
std::string encode_device_allocations(const DeviceAllocations& allocations);

/// `scheduling.koordinator.sh/gpu-minors`: the GPU minors in allocation order,
/// joined with "," ("0,1"); empty when no GPU was allocated.
std::string gpu_minors(const DeviceAllocations& allocations);


}  // namespace troupe::plugins::deviceshare
