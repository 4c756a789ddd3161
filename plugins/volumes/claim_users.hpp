#pragma once
// ClaimUsers: how many placed pods use each claim a pod's
// persistentVolumeClaim volumes name, read for that pod from the cycle's
// ClusterPods (every bound or assumed pod, cluster-wide, upstream's
// PVCRefCounts). The cycle shares it with the pod's attempt: VolumeRestrictions
// tells from it whether a ReadWriteOncePod claim is already in use.

#include <cstdint>
#include <string>
#include <unordered_map>

#include "model/pod.hpp"
#include "plugins/framework/cluster_pods.hpp"

namespace troupe::plugins::volumes {

struct ClaimUsers {
  std::unordered_map<std::string, size_t> by_claim;  // "ns/claim" → placed pods using it

  size_t of(const std::string& claim_key) const;
  /// Names the content, never 0 (0 = no input).
  uint64_t version() const;
};

ClaimUsers claim_users_of(const Pod& pod, const ClusterPods& cluster);

/// "<namespace>/<claim>" of a persistentVolumeClaim volume of `pod`.
std::string claim_key(const Pod& pod, const PodVolumeClaim& claim);

}  // namespace troupe::plugins::volumes
