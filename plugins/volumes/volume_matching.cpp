#include "plugins/volumes/volume_matching.hpp"

#include <algorithm>

#include "plugins/node_affinity/node_selector.hpp"

namespace troupe::plugins::volumes {

namespace {

/// An unset volumeMode is Filesystem, on either side (CheckVolumeModeMismatches).
/// (Both arms are string_views: with a string literal and a std::string the
/// conditional's type is a temporary std::string, and the view would dangle.)
std::string_view mode_or_filesystem(const std::string& mode) {
  return mode.empty() ? std::string_view("Filesystem") : std::string_view(mode);
}

bool reachable_from(const PersistentVolume& volume, const Labels& node_labels) {
  return !volume.node_affinity || selector_matches_labels(*volume.node_affinity, node_labels);
}

}  // namespace

bool volume_bound_to_claim(const PersistentVolume& volume, const PersistentVolumeClaim& claim) {
  if (!volume.claim_ref) return false;
  const ObjectReference& ref = *volume.claim_ref;
  if (ref.name != claim.meta.name || ref.namespace_name != claim.meta.namespace_name) return false;
  return ref.uid.empty() || ref.uid == claim.meta.uid;
}

bool offers_access_modes(const PersistentVolume& volume, const PersistentVolumeClaim& claim) {
  return std::all_of(claim.access_modes.begin(), claim.access_modes.end(), [&](const std::string& mode) {
    return std::find(volume.access_modes.begin(), volume.access_modes.end(), mode) != volume.access_modes.end();
  });
}

// The order of the checks is upstream's: a volume pre-bound to the claim is
// the answer whatever its phase or selector; only its node matters.
std::shared_ptr<const PersistentVolume> find_matching_volume(const PersistentVolumeClaim& claim,
                                                             const VolumeCatalog& catalog, const Labels& node_labels,
                                                             const std::unordered_set<std::string>& excluded) {
  const std::string claim_class = storage_class_of(claim);
  std::shared_ptr<const PersistentVolume> smallest;
  for (const auto& [name, volume] : catalog.volumes) {
    // Upstream lists the volumes of the claim's class only, pre-bound ones included.
    if (excluded.count(name) > 0 || storage_class_of(*volume) != claim_class) continue;
    const bool bound_here = volume_bound_to_claim(*volume, claim);
    if (volume->claim_ref && !bound_here) continue;
    if (volume->capacity_storage < claim.requested_storage) continue;
    if (mode_or_filesystem(volume->volume_mode) != mode_or_filesystem(claim.volume_mode)) continue;
    if (volume->meta.is_terminating()) continue;
    const bool reachable = reachable_from(*volume, node_labels);
    if (bound_here) return reachable ? volume : nullptr;
    if (volume->phase != "Available") continue;
    if (claim.selector && !claim.selector->matches(volume->meta.labels)) continue;
    if (!reachable || !offers_access_modes(*volume, claim)) continue;
    // Ties go to the first name, so that every node and every run agree.
    if (!smallest || volume->capacity_storage < smallest->capacity_storage ||
        (volume->capacity_storage == smallest->capacity_storage && name < smallest->meta.name))
      smallest = volume;
  }
  return smallest;
}

bool matches_allowed_topologies(const StorageClass& storage_class, const Labels& node_labels) {
  if (storage_class.allowed_topologies.empty()) return true;
  return std::any_of(
      storage_class.allowed_topologies.begin(), storage_class.allowed_topologies.end(), [&](const auto& term) {
        // An empty term selects no node.
        return !term.match_label_expressions.empty() &&
               std::all_of(term.match_label_expressions.begin(), term.match_label_expressions.end(),
                           [&](const TopologyLabelRequirement& requirement) {
                             auto label = node_labels.find(requirement.key);
                             return label != node_labels.end() &&
                                    std::find(requirement.values.begin(), requirement.values.end(), label->second) !=
                                        requirement.values.end();
                           });
      });
}

}  // namespace troupe::plugins::volumes
