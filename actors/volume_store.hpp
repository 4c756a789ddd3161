#pragma once
// The PersistentVolumeClaims, PersistentVolumes and StorageClasses volume
// scheduling reads (plugins/volumes/), kept up to date by sinks of the shared
// reflectors (the reflector's thread applies each change) as PdbStore keeps
// the budgets: the scheduling cycle takes an immutable snapshot for each pod
// that uses claims and shares it with the plugins.
//
// The cycle also records the volume bindings it decided and has not seen
// through (upstream's assume caches): until forgotten, every snapshot shows
// the chosen volumes bound to their claims and the claims to provision with
// their selected node, so that the next pods neither take those volumes nor
// provision those claims elsewhere. The API writer reads the observed
// objects, without assumptions, to follow the bindings it wrote.

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "plugins/framework/claim_binding.hpp"
#include "plugins/volumes/volume_catalog.hpp"
#include "watch/watch_event.hpp"

namespace troupe::actors {

class VolumeStore {
 public:
  /// One watch event of one of the collections below; an object that does
  /// not decode is logged and left out.
  void apply(const std::string& collection, watch::EventType type, const watch::ObjectPtr& object);
  /// The catalog now, with the assumed bindings (shared: unchanged until the next change).
  std::shared_ptr<const plugins::volumes::VolumeCatalog> snapshot() const;
  /// The catalog as the API server last showed it.
  std::shared_ptr<const plugins::volumes::VolumeCatalog> observed() const;

  /// The claims the pod with this uid binds on `node` (replacing what it assumed before).
  void assume(const std::string& pod_uid, const std::string& node, std::vector<plugins::ClaimToBind> claims);
  /// The pod's binding ended, either way: the API server's objects stand alone again.
  void forget(const std::string& pod_uid);

 private:
  struct Assumed {
    std::string node;
    std::vector<plugins::ClaimToBind> claims;
  };
  void changed();  // with mutex_ held

  mutable std::mutex mutex_;
  plugins::volumes::VolumeCatalog live_;
  std::unordered_map<std::string, Assumed> assumed_;  // by pod uid
  uint64_t generation_ = 0;
  mutable std::shared_ptr<const plugins::volumes::VolumeCatalog> snapshot_;
  mutable std::shared_ptr<const plugins::volumes::VolumeCatalog> observed_;
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
    {"csinodes", "/apis/storage.k8s.io/v1/csinodes"},
    {"csidrivers", "/apis/storage.k8s.io/v1/csidrivers"},
    {"csistoragecapacities", "/apis/storage.k8s.io/v1/csistoragecapacities"},
};

/// Whether `resource` is one of kVolumeCollections.
bool is_volume_collection(const std::string& resource);

}  // namespace troupe::actors
