#pragma once
// The storage objects volume scheduling reads (core/v1 PersistentVolumeClaim
// and PersistentVolume, storage.k8s.io/v1 StorageClass): only their
// scheduling fields are modelled, the rest stays in raw.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/label_selector.hpp"
#include "model/object_meta.hpp"
#include "model/quantity.hpp"
#include "model/result.hpp"
#include "model/scheduling_types.hpp"

namespace troupe {

/// The access mode a claim used by one pod at most asks for.
inline constexpr const char* kReadWriteOncePod = "ReadWriteOncePod";

struct PersistentVolumeClaim {
  ObjectMeta meta;
  std::string volume_name;                        // spec.volumeName: the PV it is bound to; empty = unbound
  std::optional<std::string> storage_class_name;  // spec.storageClassName; nullopt = not set
  std::vector<std::string> access_modes;          // spec.accessModes
  std::string phase;                              // status.phase: Pending, Bound, Lost
  Quantity requested_storage;                     // spec.resources.requests.storage; 0 = not set
  std::string volume_mode;                        // spec.volumeMode; "" reads as Filesystem
  std::optional<LabelSelector> selector;          // spec.selector: the volumes it may bind to
  JsonPtr raw;

  bool has_access_mode(std::string_view mode) const;
};

struct PersistentVolume {
  ObjectMeta meta;  // the zone and region labels VolumeZone reads
  /// spec.nodeAffinity.required: the nodes that can reach the volume; nullopt = any node.
  std::optional<NodeSelector> node_affinity;
  std::string storage_class_name;
  std::vector<std::string> access_modes;
  std::optional<ObjectReference> claim_ref;
  Quantity capacity_storage;  // spec.capacity.storage
  std::string volume_mode;    // spec.volumeMode; "" reads as Filesystem
  std::string csi_driver;     // spec.csi.driver; "" = not a CSI volume
  std::string csi_volume_handle;  // spec.csi.volumeHandle
  std::string phase;          // status.phase: Available, Bound, Released, Failed
  JsonPtr raw;
};

/// One term of a StorageClass's allowedTopologies: every requirement
/// (a label key and the values it may take) must hold.
struct TopologyLabelRequirement {
  std::string key;
  std::vector<std::string> values;
};
struct TopologySelectorTerm {
  std::vector<TopologyLabelRequirement> match_label_expressions;
};

struct StorageClass {
  ObjectMeta meta;
  std::string provisioner;
  /// volumeBindingMode: Immediate (the API server's default) or WaitForFirstConsumer.
  std::string volume_binding_mode;
  /// allowedTopologies: where volumes it provisions can be reached; empty = anywhere.
  std::vector<TopologySelectorTerm> allowed_topologies;
  JsonPtr raw;

  bool waits_for_first_consumer() const { return volume_binding_mode == "WaitForFirstConsumer"; }
};

Result<PersistentVolumeClaim> decode_persistent_volume_claim(JsonPtr doc);
Result<PersistentVolumeClaim> decode_persistent_volume_claim_json(std::string_view text);
Result<PersistentVolume> decode_persistent_volume(JsonPtr doc);
Result<PersistentVolume> decode_persistent_volume_json(std::string_view text);
Result<StorageClass> decode_storage_class(JsonPtr doc);
Result<StorageClass> decode_storage_class_json(std::string_view text);

/// storage.k8s.io/v1 CSINode: the CSI drivers on a node (named as the node)
/// and how many of each driver's volumes the node can attach.
struct CsiNodeDriver {
  std::string name;
  std::optional<int64_t> allocatable_count;  // allocatable.count; nullopt = no limit
};
struct CsiNode {
  ObjectMeta meta;
  std::vector<CsiNodeDriver> drivers;
  JsonPtr raw;
};

/// storage.k8s.io/v1 CSIDriver: whether the driver publishes its storage
/// capacity (spec.storageCapacity), which the scheduler then checks.
struct CsiDriver {
  ObjectMeta meta;
  bool storage_capacity = false;
  JsonPtr raw;
};

/// storage.k8s.io/v1 CSIStorageCapacity: how much of a class's storage the
/// nodes its topology selects can still get.
struct CsiStorageCapacity {
  ObjectMeta meta;
  std::string storage_class_name;
  std::optional<LabelSelector> node_topology;  // nullopt: no node has access
  std::optional<Quantity> capacity;
  std::optional<Quantity> maximum_volume_size;  // preferred over capacity when set
  JsonPtr raw;
};

Result<CsiNode> decode_csi_node(JsonPtr doc);
Result<CsiNode> decode_csi_node_json(std::string_view text);

Result<CsiDriver> decode_csi_driver(JsonPtr doc);
Result<CsiDriver> decode_csi_driver_json(std::string_view text);
Result<CsiStorageCapacity> decode_csi_storage_capacity(JsonPtr doc);
Result<CsiStorageCapacity> decode_csi_storage_capacity_json(std::string_view text);

TROUPE_DECLARE_JSON_FIELDS(CsiDriver)
TROUPE_DECLARE_JSON_FIELDS(CsiStorageCapacity)
TROUPE_DECLARE_JSON_FIELDS(CsiNodeDriver)
TROUPE_DECLARE_JSON_FIELDS(CsiNode)
TROUPE_DECLARE_JSON_FIELDS(TopologyLabelRequirement)
TROUPE_DECLARE_JSON_FIELDS(TopologySelectorTerm)
TROUPE_DECLARE_JSON_FIELDS(PersistentVolumeClaim)
TROUPE_DECLARE_JSON_FIELDS(PersistentVolume)
TROUPE_DECLARE_JSON_FIELDS(StorageClass)

}  // namespace troupe
