#pragma once
// The PersistentVolumeClaims, PersistentVolumes and StorageClasses volume
// scheduling reads (plugins/volumes/), kept up to date by sinks of the shared
// reflectors (the reflector's thread applies each change) as PdbStore keeps
// the budgets: the scheduling cycle takes an immutable snapshot for each pod
// that uses claims and shares it with the plugins.

#include <memory>
#include <mutex>
#include <string>

#include "plugins/volumes/volume_catalog.hpp"
#include "watch/watch_event.hpp"

namespace troupe::actors {

class VolumeStore {
 public:
  /// One watch event of one of the collections below; an object that does
  /// not decode is logged and left out.
  void apply(const std::string& collection, watch::EventType type, const watch::ObjectPtr& object);
  /// The catalog now (shared: unchanged until the next event).
  std::shared_ptr<const plugins::volumes::VolumeCatalog> snapshot() const;

 private:
  mutable std::mutex mutex_;
  plugins::volumes::VolumeCatalog live_;
  mutable std::shared_ptr<const plugins::volumes::VolumeCatalog> snapshot_;
};

/// The collections the store follows (kube-scheduler's informers for them).
struct VolumeCollection {
  const char* resource;
  const char* path;
};
inline constexpr VolumeCollection kVolumeCollections[] = {
    {"persistentvolumeclaims", "/api/v1/persistentvolumeclaims"},
    {"persistentvolumes", "/api/v1/persistentvolumes"},
    {"storageclasses", "/apis/storage.k8s.io/v1/storageclasses"},
};

/// Whether `resource` is one of kVolumeCollections.
bool is_volume_collection(const std::string& resource);

}  // namespace troupe::actors
