#include "model/device.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kDeviceKind{"scheduling.koordinator.sh/v1alpha1", "Device"};

template <class Io, class T>
void device_topology_fields(Io& io, T& x) {
  io.field("socketID", x.socket_id);
  io.field("nodeID", x.node_id);
  io.field("pcieID", x.pcie_id);
  io.field("busID", x.bus_id);
}

template <class Io, class T>
void virtual_function_fields(Io& io, T& x) {
  io.field("minor", x.minor);
  io.field("busID", x.bus_id);
}

template <class Io, class T>
void virtual_function_group_fields(Io& io, T& x) {
  io.field("labels", x.labels);
  io.array("vfs", x.vfs);
}

template <class Io, class T>
void device_info_fields(Io& io, T& x) {
  // Absent or unknown: Go decodes "" and Koordinator's cache skips the entry
  // (as infos_by_type does); one such entry must not make the whole Device unreadable.
  io.field("type", x.type);
  io.field("labels", x.labels);
  io.field("id", x.id);
  io.field("minor", x.minor);
  io.field("moduleID", x.module_id);
  io.unomitted("health", x.health, false);
  io.field("resources", x.resources);
  io.optional_object("topology", x.topology);
  io.array("vfGroups", x.vf_groups);
}

template <class Io, class T>
void device_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.nested("spec", [&] { io.array("devices", x.devices); });
}

}  // namespace

TROUPE_JSON_FIELDS(DeviceTopology, device_topology_fields)
TROUPE_JSON_FIELDS(VirtualFunction, virtual_function_fields)
TROUPE_JSON_FIELDS(VirtualFunctionGroup, virtual_function_group_fields)
TROUPE_JSON_FIELDS(DeviceInfo, device_info_fields)
TROUPE_JSON_FIELDS(Device, device_fields)

Result<Device> decode_device(JsonPtr doc) { return decode_object<Device>(doc, kDeviceKind); }

Result<Device> decode_device_json(std::string_view text) { return decode_object_text<Device>(text, kDeviceKind); }

std::shared_ptr<JsonDocument> to_document(const Device& device) { return encode_document(device, kDeviceKind); }

std::string encode(const Device& device) { return to_json(*to_document(device)); }

}  // namespace troupe
