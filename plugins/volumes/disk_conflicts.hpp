#pragma once
// VolumeRestrictions' inline disk conflicts (kube-scheduler's
// isVolumeConflict): a node cannot give one in-tree disk to two pods unless
// the disk allows it.
//   gcePersistentDisk     the same pdName, unless both mount it read-only
//   awsElasticBlockStore  the same volumeID, always
//   iscsi                 the same iqn, unless both mount it read-only
//   rbd                   the same pool and image on a shared Ceph monitor,
//                         unless both mount it read-only

#include <vector>

#include "model/pod.hpp"

namespace troupe::plugins::volumes {

/// Whether the two disks may not be mounted together on one node.
bool disks_conflict(const PodInlineDisk& disk, const PodInlineDisk& existing);

/// Whether one of `disks` conflicts with one of the placed pod's disks.
bool conflicts_with(const std::vector<PodInlineDisk>& disks, const Pod& placed);

}  // namespace troupe::plugins::volumes
