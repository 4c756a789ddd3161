#include "plugins/volumes/claims_in_use.hpp"

#include <functional>

namespace troupe::plugins::volumes {

uint64_t ClaimsInUse::version() const {
  uint64_t version = 1;
  for (const auto& [key, used] : in_use)
    version = (version * 0x9e3779b97f4a7c15ULL) ^ std::hash<std::string>{}(key) ^ (used ? 0xff51afd7ed558ccdULL : 0);
  return version == 0 ? 1 : version;
}

std::string claim_key(const Pod& pod, const PodVolumeClaim& claim) {
  return pod.meta.namespace_name + "/" + claim.claim_name;
}

ClaimsInUse claims_in_use(const Pod& pod, const ClusterPods& cluster, const VolumeCatalog& catalog) {
  ClaimsInUse out;
  for (const PodVolumeClaim& volume : pod.spec.volume_claims) {
    if (volume.ephemeral) continue;
    const PersistentVolumeClaim* claim = catalog.claim(pod.meta.namespace_name, volume.claim_name);
    if (claim == nullptr || !claim->has_access_mode(kReadWriteOncePod)) continue;
    const std::string key = claim_key(pod, volume);
    out.in_use[key] = cluster.claim_users(key) > 0;
  }
  return out;
}

}  // namespace troupe::plugins::volumes
