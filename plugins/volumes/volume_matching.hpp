#pragma once
// Which PersistentVolume an unbound claim of a WaitForFirstConsumer class
// would bind to on a node, as kube-scheduler matches one
// (component-helpers/storage/volume FindMatchingVolume, its scheduler path),
// and whether a class may provision a volume reachable from a node
// (allowedTopologies). Pure: the catalog is the cycle's snapshot.

#include <memory>
#include <string>
#include <unordered_set>

#include "model/label_selector.hpp"
#include "plugins/volumes/volume_catalog.hpp"

namespace troupe::plugins::volumes {

/// volume.IsVolumeBoundToClaim: the volume's claimRef names the claim (and
/// its uid, when the reference carries one).
bool volume_bound_to_claim(const PersistentVolume& volume, const PersistentVolumeClaim& claim);

/// volume.CheckAccessModes: the volume offers every access mode the claim asks for.
bool offers_access_modes(const PersistentVolume& volume, const PersistentVolumeClaim& claim);

/// The volume for `claim` on a node with these labels, or null. Among the
/// volumes of the claim's class: one pre-bound to the claim if there is one
/// (null when its node affinity rejects the node); else the smallest
/// Available one that is not bound elsewhere, not being deleted, not in `excluded`, is
/// large enough, has the claim's volume mode and access modes, matches its
/// selector and can be reached from the node.
std::shared_ptr<const PersistentVolume> find_matching_volume(const PersistentVolumeClaim& claim,
                                                             const VolumeCatalog& catalog, const Labels& node_labels,
                                                             const std::unordered_set<std::string>& excluded);

/// v1helper.MatchTopologySelectorTerms: no terms, or one non-empty term whose
/// every requirement the labels meet (the key present with one of the values).
bool matches_allowed_topologies(const StorageClass& storage_class, const Labels& node_labels);

}  // namespace troupe::plugins::volumes
