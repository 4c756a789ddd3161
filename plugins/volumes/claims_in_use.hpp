#pragma once
// ClaimsInUse: which of a pod's ReadWriteOncePod claims a placed pod uses
// already, read for that pod from the cycle's ClusterPods (every bound or
// assumed pod, cluster-wide: upstream's PVCRefCounts; nominated pods'
// placeholders are not counted, as upstream counts them at Filter only). The
// cycle shares it with the pod's attempt: VolumeRestrictions decides on it.
// Only those claims, and only whether each is used, so that the input (and
// the pod's class in the evaluation cache) changes when that answer does.

#include <cstdint>
#include <map>
#include <string>

#include "model/pod.hpp"
#include "plugins/framework/cluster_pods.hpp"
#include "plugins/volumes/volume_catalog.hpp"

namespace troupe::plugins::volumes {

struct ClaimsInUse {
  std::map<std::string, bool> in_use;  // "ns/claim" of each ReadWriteOncePod claim → used by a placed pod

  /// Names the content, never 0 (0 = no input).
  uint64_t version() const;
};

/// Empty when the pod has no ReadWriteOncePod claim (missing claims are left out).
ClaimsInUse claims_in_use(const Pod& pod, const ClusterPods& cluster, const VolumeCatalog& catalog);

/// "<namespace>/<claim>" of a persistentVolumeClaim volume of `pod`.
std::string claim_key(const Pod& pod, const PodVolumeClaim& claim);

}  // namespace troupe::plugins::volumes
