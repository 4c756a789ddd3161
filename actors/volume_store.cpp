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
  else
    return;
  ++live_.generation;
  snapshot_.reset();
}

std::shared_ptr<const plugins::volumes::VolumeCatalog> VolumeStore::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!snapshot_) snapshot_ = std::make_shared<const plugins::volumes::VolumeCatalog>(live_);
  return snapshot_;
}

}  // namespace troupe::actors
