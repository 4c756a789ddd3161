#include "plugins/volumes/claim_users.hpp"

#include <functional>
#include <map>

namespace troupe::plugins::volumes {

size_t ClaimUsers::of(const std::string& claim_key) const {
  auto it = by_claim.find(claim_key);
  return it == by_claim.end() ? 0 : it->second;
}

uint64_t ClaimUsers::version() const {
  // In key order, so that equal contents get equal versions.
  const std::map<std::string, size_t> sorted(by_claim.begin(), by_claim.end());
  uint64_t version = 1;
  for (const auto& [key, users] : sorted)
    version = (version * 0x9e3779b97f4a7c15ULL) ^ std::hash<std::string>{}(key) ^ (users * 0xff51afd7ed558ccdULL);
  return version == 0 ? 1 : version;
}

std::string claim_key(const Pod& pod, const PodVolumeClaim& claim) {
  return pod.meta.namespace_name + "/" + claim.claim_name;
}

ClaimUsers claim_users_of(const Pod& pod, const ClusterPods& cluster) {
  ClaimUsers users;
  for (const PodVolumeClaim& claim : pod.spec.volume_claims) {
    if (claim.ephemeral) continue;
    const std::string key = claim_key(pod, claim);
    users.by_claim[key] = cluster.claim_users(key);
  }
  return users;
}

}  // namespace troupe::plugins::volumes
