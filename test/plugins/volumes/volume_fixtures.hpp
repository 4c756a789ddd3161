#pragma once
// Claims, volumes and storage classes for the volume plugin tests, and pods
// that use them.

#include <memory>
#include <optional>
#include <string>

#include "model/pod.hpp"
#include "model/storage_objects.hpp"
#include "plugins/volumes/volume_catalog.hpp"

namespace troupe::plugins::volumes::testing {

/// A claim in namespace "default"; bound to `volume` (bind completed) unless empty.
inline PersistentVolumeClaim claim(std::string name, std::string volume = "",
                                   std::optional<std::string> storage_class = std::nullopt) {
  PersistentVolumeClaim c;
  c.meta.name = std::move(name);
  c.meta.namespace_name = "default";
  c.volume_name = std::move(volume);
  if (!c.volume_name.empty()) c.meta.annotations[kAnnotationBindCompleted] = "yes";
  c.storage_class_name = std::move(storage_class);
  return c;
}

inline PersistentVolume volume(std::string name, Labels labels = {}, std::optional<NodeSelector> affinity = {}) {
  PersistentVolume v;
  v.meta.name = std::move(name);
  v.meta.labels = std::move(labels);
  v.node_affinity = std::move(affinity);
  return v;
}

inline StorageClass storage_class(std::string name, std::string mode) {
  StorageClass sc;
  sc.meta.name = std::move(name);
  sc.provisioner = "csi.example.com";
  sc.volume_binding_mode = std::move(mode);
  return sc;
}

inline NodeSelector node_in(std::string key, std::vector<std::string> values) {
  LabelRequirement r;
  r.key = std::move(key);
  r.op = LabelRequirement::Op::in;
  r.values = std::move(values);
  NodeSelectorTerm term;
  term.match_expressions.push_back(std::move(r));
  return NodeSelector{{std::move(term)}};
}

class CatalogBuilder {
 public:
  CatalogBuilder& add(PersistentVolumeClaim c) {
    std::string key = c.meta.namespace_name + "/" + c.meta.name;
    catalog_.claims[key] = std::make_shared<const PersistentVolumeClaim>(std::move(c));
    return *this;
  }
  CatalogBuilder& add(PersistentVolume v) {
    std::string key = v.meta.name;
    catalog_.volumes[key] = std::make_shared<const PersistentVolume>(std::move(v));
    return *this;
  }
  CatalogBuilder& add(CsiNode node) {
    std::string key = node.meta.name;
    catalog_.csi_nodes[key] = std::make_shared<const CsiNode>(std::move(node));
    return *this;
  }
  CatalogBuilder& add(CsiDriver driver) {
    std::string key = driver.meta.name;
    catalog_.csi_drivers[key] = std::make_shared<const CsiDriver>(std::move(driver));
    return *this;
  }
  CatalogBuilder& add(CsiStorageCapacity capacity) {
    std::string key = capacity.meta.namespace_name + "/" + capacity.meta.name;
    catalog_.capacities[key] = std::make_shared<const CsiStorageCapacity>(std::move(capacity));
    return *this;
  }
  CatalogBuilder& add(StorageClass sc) {
    std::string key = sc.meta.name;
    catalog_.classes[key] = std::make_shared<const StorageClass>(std::move(sc));
    return *this;
  }
  std::shared_ptr<const VolumeCatalog> build() const { return std::make_shared<const VolumeCatalog>(catalog_); }

 private:
  VolumeCatalog catalog_;
};

/// A pod "p" in "default" with persistentVolumeClaim volumes naming these claims.
inline Pod pod_with_claims(const std::vector<std::string>& claims) {
  Pod pod;
  pod.meta.name = "p";
  pod.meta.namespace_name = "default";
  pod.meta.uid = "uid-p";
  for (size_t i = 0; i < claims.size(); ++i)
    pod.spec.volume_claims.push_back(PodVolumeClaim{"v" + std::to_string(i), claims[i], false});
  return pod;
}

/// The same pod with an ephemeral volume "scratch" (claim "p-scratch").
inline Pod with_ephemeral(Pod pod) {
  pod.spec.volume_claims.push_back(PodVolumeClaim{"scratch", "", true});
  return pod;
}

}  // namespace troupe::plugins::volumes::testing
