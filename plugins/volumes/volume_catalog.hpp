#pragma once
// VolumeCatalog: the PersistentVolumeClaims, PersistentVolumes,
// StorageClasses, CSINodes, CSIDrivers and CSIStorageCapacities volume
// scheduling reads, as one immutable snapshot. An actor
// keeps the live one (actors/volume_store.hpp) and the scheduling cycle shares
// a snapshot as a CycleState input with pods that use claims.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "model/storage_objects.hpp"
#include "plugins/framework/cycle_state.hpp"

namespace troupe::plugins::volumes {

struct VolumeCatalog {
  std::unordered_map<std::string, std::shared_ptr<const PersistentVolumeClaim>> claims;  // by "ns/name"
  std::unordered_map<std::string, std::shared_ptr<const PersistentVolume>> volumes;      // by name
  std::unordered_map<std::string, std::shared_ptr<const StorageClass>> classes;          // by name
  std::unordered_map<std::string, std::shared_ptr<const CsiNode>> csi_nodes;             // by node name
  std::unordered_map<std::string, std::shared_ptr<const CsiDriver>> csi_drivers;         // by driver name
  std::unordered_map<std::string, std::shared_ptr<const CsiStorageCapacity>> capacities;  // by "ns/name"
  uint64_t generation = 0;  // counts the changes; names this content

  /// nullptr when absent.
  const PersistentVolumeClaim* claim(const std::string& namespace_name, const std::string& name) const;
  std::shared_ptr<const PersistentVolume> volume(const std::string& name) const;
  const StorageClass* storage_class(const std::string& name) const;
  const CsiNode* csi_node(const std::string& node_name) const;
  const CsiDriver* csi_driver(const std::string& name) const;
};

/// The snapshot the cycle shared with this attempt; an empty catalog when
/// none was (every claim then reads as missing).
const VolumeCatalog& catalog_of(const CycleState& state);

/// `"name"`, as upstream's messages quote object names.
std::string quoted(const std::string& name);

/// The annotation the PV controller sets once a claim's binding is complete.
inline constexpr const char* kAnnotationBindCompleted = "pv.kubernetes.io/bind-completed";
/// The beta storage class annotation, read before spec.storageClassName.
inline constexpr const char* kAnnotationBetaStorageClass = "volume.beta.kubernetes.io/storage-class";

/// A claim's storage class: the beta annotation, else spec.storageClassName, else "".
std::string storage_class_of(const PersistentVolumeClaim& claim);
/// A volume's storage class, read the same way.
std::string storage_class_of(const PersistentVolume& volume);

/// Set on a claim of a WaitForFirstConsumer class by the scheduler that
/// placed its pod: the node its volume is to be provisioned for.
inline constexpr const char* kAnnotationSelectedNode = "volume.kubernetes.io/selected-node";
/// Set on a volume bound to a claim by a binder rather than by its creator.
inline constexpr const char* kAnnotationBoundByController = "pv.kubernetes.io/bound-by-controller";
/// The provisioner of a class whose volumes are made by hand only.
inline constexpr const char* kNoProvisioner = "kubernetes.io/no-provisioner";

/// volume.IsDelayBindingMode: whether the claim's binding waits for its
/// first consumer. No class, or a class that does not exist: no (Immediate).
/// An error names a class whose volumeBindingMode is not set.
enum class BindingMode { immediate, wait_for_first_consumer, not_set };
BindingMode binding_mode_of(const PersistentVolumeClaim& claim, const VolumeCatalog& catalog);

}  // namespace troupe::plugins::volumes
