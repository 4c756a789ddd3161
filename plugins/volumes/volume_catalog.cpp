#include "plugins/volumes/volume_catalog.hpp"

namespace troupe::plugins::volumes {

namespace {

/// The object under `key`, or null.
template <class T>
std::shared_ptr<const T> find_in(const std::unordered_map<std::string, std::shared_ptr<const T>>& objects,
                                 const std::string& key) {
  auto it = objects.find(key);
  return it == objects.end() ? nullptr : it->second;
}

}  // namespace

const PersistentVolumeClaim* VolumeCatalog::claim(const std::string& namespace_name, const std::string& name) const {
  return find_in(claims, namespace_name + "/" + name).get();
}

std::shared_ptr<const PersistentVolume> VolumeCatalog::volume(const std::string& name) const {
  return find_in(volumes, name);
}

const StorageClass* VolumeCatalog::storage_class(const std::string& name) const {
  return find_in(classes, name).get();
}

const CsiNode* VolumeCatalog::csi_node(const std::string& node_name) const {
  return find_in(csi_nodes, node_name).get();
}

const CsiDriver* VolumeCatalog::csi_driver(const std::string& name) const { return find_in(csi_drivers, name).get(); }

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
