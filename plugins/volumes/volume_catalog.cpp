#include "plugins/volumes/volume_catalog.hpp"

namespace troupe::plugins::volumes {

const PersistentVolumeClaim* VolumeCatalog::claim(const std::string& namespace_name, const std::string& name) const {
  auto it = claims.find(namespace_name + "/" + name);
  return it == claims.end() ? nullptr : it->second.get();
}

std::shared_ptr<const PersistentVolume> VolumeCatalog::volume(const std::string& name) const {
  auto it = volumes.find(name);
  return it == volumes.end() ? nullptr : it->second;
}

const StorageClass* VolumeCatalog::storage_class(const std::string& name) const {
  auto it = classes.find(name);
  return it == classes.end() ? nullptr : it->second.get();
}

const CsiNode* VolumeCatalog::csi_node(const std::string& node_name) const {
  auto it = csi_nodes.find(node_name);
  return it == csi_nodes.end() ? nullptr : it->second.get();
}

const CsiDriver* VolumeCatalog::csi_driver(const std::string& name) const {
  auto it = csi_drivers.find(name);
  return it == csi_drivers.end() ? nullptr : it->second.get();
}

const VolumeCatalog& catalog_of(const CycleState& state) {
  static const VolumeCatalog empty;
  const VolumeCatalog* catalog = state.input<VolumeCatalog>();
  return catalog != nullptr ? *catalog : empty;
}

std::string quoted(const std::string& name) { return "\"" + name + "\""; }

std::string storage_class_of(const PersistentVolumeClaim& claim) {
  if (const std::string* beta = claim.meta.annotation(kAnnotationBetaStorageClass)) return *beta;
  return claim.storage_class_name.value_or("");
}

std::string storage_class_of(const PersistentVolume& volume) {
  if (const std::string* beta = volume.meta.annotation(kAnnotationBetaStorageClass)) return *beta;
  return volume.storage_class_name;
}

BindingMode binding_mode_of(const PersistentVolumeClaim& claim, const VolumeCatalog& catalog) {
  const std::string name = storage_class_of(claim);
  if (name.empty()) return BindingMode::immediate;
  const StorageClass* storage_class = catalog.storage_class(name);
  if (storage_class == nullptr) return BindingMode::immediate;
  if (storage_class->volume_binding_mode.empty()) return BindingMode::not_set;
  return storage_class->waits_for_first_consumer() ? BindingMode::wait_for_first_consumer : BindingMode::immediate;
}

}  // namespace troupe::plugins::volumes
