#include "actors/volume_store.hpp"

#include <spdlog/spdlog.h>

#include "watch/object_store.hpp"

namespace troupe::actors {

namespace {

/// Stores the decoded object under `key`, or erases it.
template <class T, class Decode>
void apply_to(std::unordered_map<std::string, std::shared_ptr<const T>>& map, const std::string& key,
              watch::EventType type, const watch::ObjectPtr& object, Decode decode, const char* kind) {
  if (type == watch::EventType::deleted) {
    map.erase(key);
    return;
  }
  auto decoded = decode(object);
  if (!decoded) {
    spdlog::warn("volume scheduling ignores {} {}: {}", kind, key, decoded.message());
    map.erase(key);
    return;
  }
  map[key] = std::make_shared<const T>(std::move(*decoded));
}

/// The catalog with one pod's assumed bindings applied: copies of the
/// objects it changes, as binder.go AssumePodVolumes makes them.
void apply_assumed(plugins::volumes::VolumeCatalog& catalog, const std::string& node,
                   const std::vector<plugins::ClaimToBind>& claims) {
  for (const auto& claim : claims) {
    if (claim.provisions()) {
      auto it = catalog.claims.find(claim.namespace_name + "/" + claim.name);
      if (it == catalog.claims.end()) continue;
      auto copy = std::make_shared<PersistentVolumeClaim>(*it->second);
      copy->meta.annotations[plugins::volumes::kAnnotationSelectedNode] = node;
      it->second = std::move(copy);
      continue;
    }
    auto it = catalog.volumes.find(claim.volume);
    if (it == catalog.volumes.end()) continue;
    auto copy = std::make_shared<PersistentVolume>(*it->second);
    copy->claim_ref =
        ObjectReference{"PersistentVolumeClaim", claim.namespace_name, claim.name, claim.uid, "v1", "", ""};
    copy->meta.annotations.emplace(plugins::volumes::kAnnotationBoundByController, "yes");
    it->second = std::move(copy);
  }
}

}  // namespace

bool is_volume_collection(const std::string& resource) {
  for (const auto& collection : kVolumeCollections)
    if (resource == collection.resource) return true;
  return false;
}

void VolumeStore::apply(const std::string& collection, watch::EventType type, const watch::ObjectPtr& object) {
  const std::string key = watch::ObjectStore::key_of(*object);
  std::lock_guard<std::mutex> lock(mutex_);
  if (collection == "persistentvolumeclaims")
    apply_to(live_.claims, key, type, object, decode_persistent_volume_claim, "PersistentVolumeClaim");
  else if (collection == "persistentvolumes")
    apply_to(live_.volumes, key, type, object, decode_persistent_volume, "PersistentVolume");
  else if (collection == "storageclasses")
    apply_to(live_.classes, key, type, object, decode_storage_class, "StorageClass");
  else if (collection == "csinodes")
    apply_to(live_.csi_nodes, key, type, object, decode_csi_node, "CSINode");
  else if (collection == "csidrivers")
    apply_to(live_.csi_drivers, key, type, object, decode_csi_driver, "CSIDriver");
  else if (collection == "csistoragecapacities")
    apply_to(live_.capacities, key, type, object, decode_csi_storage_capacity, "CSIStorageCapacity");
  else
    return;
  observed_.reset();
  changed();
}

void VolumeStore::changed() {
  live_.generation = ++generation_;
  snapshot_.reset();
}

std::shared_ptr<const plugins::volumes::VolumeCatalog> VolumeStore::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (snapshot_) return snapshot_;
  auto catalog = std::make_shared<plugins::volumes::VolumeCatalog>(live_);
  for (const auto& [uid, assumed] : assumed_) apply_assumed(*catalog, assumed.node, assumed.claims);
  snapshot_ = std::move(catalog);
  return snapshot_;
}

std::shared_ptr<const plugins::volumes::VolumeCatalog> VolumeStore::observed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!observed_) observed_ = std::make_shared<const plugins::volumes::VolumeCatalog>(live_);
  return observed_;
}

void VolumeStore::assume(const std::string& pod_uid, const std::string& node,
                         std::vector<plugins::ClaimToBind> claims) {
  std::lock_guard<std::mutex> lock(mutex_);
  assumed_[pod_uid] = Assumed{node, std::move(claims)};
  changed();
}

void VolumeStore::forget(const std::string& pod_uid) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (assumed_.erase(pod_uid) > 0) changed();
}

}  // namespace troupe::actors
