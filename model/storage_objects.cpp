#include "model/storage_objects.hpp"

#include <algorithm>

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kClaimKind{"v1", "PersistentVolumeClaim"};
constexpr KindInfo kVolumeKind{"v1", "PersistentVolume"};
constexpr KindInfo kStorageClassKind{"storage.k8s.io/v1", "StorageClass"};
constexpr KindInfo kCsiNodeKind{"storage.k8s.io/v1", "CSINode"};
constexpr KindInfo kCsiDriverKind{"storage.k8s.io/v1", "CSIDriver"};
constexpr KindInfo kCapacityKind{"storage.k8s.io/v1", "CSIStorageCapacity"};

template <class Io, class T>
void claim_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.nested("spec", [&] {
    io.field("volumeName", x.volume_name);
    io.field("storageClassName", x.storage_class_name);
    io.field("accessModes", x.access_modes);
    io.nested("resources", [&] { io.nested("requests", [&] { io.field("storage", x.requested_storage); }); });
    io.field("volumeMode", x.volume_mode);
    io.field("selector", x.selector);
  });
  io.nested("status", [&] { io.field("phase", x.phase); });
}

template <class Io, class T>
void volume_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.nested("spec", [&] {
    io.nested("nodeAffinity", [&] { io.optional_object("required", x.node_affinity); });
    io.field("storageClassName", x.storage_class_name);
    io.field("accessModes", x.access_modes);
    io.optional_object("claimRef", x.claim_ref);
    io.nested("capacity", [&] { io.field("storage", x.capacity_storage); });
    io.field("volumeMode", x.volume_mode);
    io.nested("csi", [&] {
      io.field("driver", x.csi_driver);
      io.field("volumeHandle", x.csi_volume_handle);
    });
  });
  io.nested("status", [&] { io.field("phase", x.phase); });
}

template <class Io, class T>
void storage_class_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.field("provisioner", x.provisioner);
  io.field("volumeBindingMode", x.volume_binding_mode);
  io.array("allowedTopologies", x.allowed_topologies);
}

template <class Io, class T>
void csi_node_driver_fields(Io& io, T& x) {
  io.field("name", x.name);
  io.nested("allocatable", [&] { io.field("count", x.allocatable_count); });
}

template <class Io, class T>
void csi_node_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.nested("spec", [&] { io.array("drivers", x.drivers); });
}

template <class Io, class T>
void csi_driver_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.nested("spec", [&] { io.field("storageCapacity", x.storage_capacity); });
}

template <class Io, class T>
void capacity_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.field("storageClassName", x.storage_class_name);
  io.field("nodeTopology", x.node_topology);
  io.field("capacity", x.capacity);
  io.field("maximumVolumeSize", x.maximum_volume_size);
}

template <class Io, class T>
void topology_requirement_fields(Io& io, T& x) {
  io.field("key", x.key);
  io.field("values", x.values);
}

template <class Io, class T>
void topology_term_fields(Io& io, T& x) {
  io.array("matchLabelExpressions", x.match_label_expressions);
}

}  // namespace

TROUPE_JSON_FIELDS(CsiDriver, csi_driver_fields)
TROUPE_JSON_FIELDS(CsiStorageCapacity, capacity_fields)
TROUPE_JSON_FIELDS(CsiNodeDriver, csi_node_driver_fields)
TROUPE_JSON_FIELDS(CsiNode, csi_node_fields)
TROUPE_JSON_FIELDS(TopologyLabelRequirement, topology_requirement_fields)
TROUPE_JSON_FIELDS(TopologySelectorTerm, topology_term_fields)
TROUPE_JSON_FIELDS(PersistentVolumeClaim, claim_fields)
TROUPE_JSON_FIELDS(PersistentVolume, volume_fields)
TROUPE_JSON_FIELDS(StorageClass, storage_class_fields)

bool PersistentVolumeClaim::has_access_mode(std::string_view mode) const {
  return std::find(access_modes.begin(), access_modes.end(), mode) != access_modes.end();
}

Result<PersistentVolumeClaim> decode_persistent_volume_claim(JsonPtr doc) {
  return decode_object<PersistentVolumeClaim>(doc, kClaimKind);
}
Result<PersistentVolumeClaim> decode_persistent_volume_claim_json(std::string_view text) {
  return decode_object_text<PersistentVolumeClaim>(text, kClaimKind);
}
Result<PersistentVolume> decode_persistent_volume(JsonPtr doc) { return decode_object<PersistentVolume>(doc, kVolumeKind); }
Result<PersistentVolume> decode_persistent_volume_json(std::string_view text) {
  return decode_object_text<PersistentVolume>(text, kVolumeKind);
}
Result<CsiNode> decode_csi_node(JsonPtr doc) { return decode_object<CsiNode>(doc, kCsiNodeKind); }
Result<CsiNode> decode_csi_node_json(std::string_view text) { return decode_object_text<CsiNode>(text, kCsiNodeKind); }
Result<CsiDriver> decode_csi_driver(JsonPtr doc) { return decode_object<CsiDriver>(doc, kCsiDriverKind); }
Result<CsiDriver> decode_csi_driver_json(std::string_view text) {
  return decode_object_text<CsiDriver>(text, kCsiDriverKind);
}
Result<CsiStorageCapacity> decode_csi_storage_capacity(JsonPtr doc) {
  return decode_object<CsiStorageCapacity>(doc, kCapacityKind);
}
Result<CsiStorageCapacity> decode_csi_storage_capacity_json(std::string_view text) {
  return decode_object_text<CsiStorageCapacity>(text, kCapacityKind);
}
Result<StorageClass> decode_storage_class(JsonPtr doc) { return decode_object<StorageClass>(doc, kStorageClassKind); }
Result<StorageClass> decode_storage_class_json(std::string_view text) {
  return decode_object_text<StorageClass>(text, kStorageClassKind);
}

}  // namespace troupe
