#include "plugins/volumes/volume_restrictions.hpp"

#include "plugins/volumes/claims_in_use.hpp"
#include "plugins/volumes/disk_conflicts.hpp"
#include "plugins/volumes/volume_catalog.hpp"

namespace troupe::plugins::volumes {

namespace {

const ClaimsInUse& in_use_of(const CycleState& state) {
  static const ClaimsInUse none;
  const ClaimsInUse* in_use = state.input<ClaimsInUse>();
  return in_use != nullptr ? *in_use : none;
}

}  // namespace

PluginStatus VolumeRestrictions::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) const {
  const VolumeCatalog& catalog = catalog_of(state);
  ReadWriteOncePodClaims rwop;
  for (const PodVolumeClaim& volume : pod.spec().volume_claims) {
    if (volume.ephemeral) continue;
    const PersistentVolumeClaim* claim = catalog.claim(pod.meta().namespace_name, volume.claim_name);
    if (claim == nullptr)
      return PluginStatus::unresolvable("persistentvolumeclaim " + quoted(volume.claim_name) + " not found");
    if (claim->has_access_mode(kReadWriteOncePod)) rwop.claims.insert(claim_key(*pod.pod, volume));
  }
  const ClaimsInUse& in_use = in_use_of(state);
  for (const std::string& key : rwop.claims) {
    auto it = in_use.in_use.find(key);
    if (it != in_use.in_use.end() && it->second) ++rwop.in_use;
  }
  // As upstream: nothing to check without inline disks when no placed pod holds one of the claims.
  if (rwop.in_use == 0 && pod.spec().inline_disks.empty()) return PluginStatus(Code::skip);
  state.write(state_slot(), std::move(rwop));
  return {};
}

// Preemption's dry run: every persistentVolumeClaim volume of the pod taken
// off or put back that names one of the claims counts (in the pod's own
// namespace; upstream compares the claim name alone).
PluginStatus VolumeRestrictions::adjust(CycleState& state, const PodInfo& other, int64_t delta) const {
  const ReadWriteOncePodClaims* rwop = state.read<ReadWriteOncePodClaims>(state_slot());
  if (rwop == nullptr) return {};
  ReadWriteOncePodClaims next = *rwop;
  for (const PodVolumeClaim& volume : other.spec().volume_claims)
    if (!volume.ephemeral && next.claims.count(claim_key(*other.pod, volume)) > 0) next.in_use += delta;
  state.write(state_slot(), std::move(next));
  return {};
}

PluginStatus VolumeRestrictions::add_pod(CycleState& state, const PodInfo&, const PodInfo& added,
                                         const NodeInfo&) const {
  return adjust(state, added, +1);
}

PluginStatus VolumeRestrictions::remove_pod(CycleState& state, const PodInfo&, const PodInfo& removed,
                                            const NodeInfo&) const {
  return adjust(state, removed, -1);
}

PluginStatus VolumeRestrictions::filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  const std::vector<PodInlineDisk>& disks = pod.spec().inline_disks;
  if (!disks.empty())
    for (const auto& placed : node.pods())
      if (conflicts_with(disks, *placed->pod)) return PluginStatus::unschedulable(kDiskConflict);
  const ReadWriteOncePodClaims* rwop = state.read<ReadWriteOncePodClaims>(state_slot());
  if (rwop == nullptr)
    return PluginStatus::internal_error("cannot read \"PreFilterVolumeRestrictions\" from cycleState");
  if (rwop->in_use > 0) return PluginStatus::unschedulable(kReadWriteOncePodConflict);
  return {};
}

std::vector<ClusterEvent> VolumeRestrictions::events_to_register() const {
  return {{EventResource::pod, kDelete, "AssignedPodDelete"},
          {EventResource::node, kAdd | kUpdateNodeLabel | kUpdateNodeTaint, "NodeChange"},
          {EventResource::storage, kAdd | kUpdate, "StorageChange"}};
}

}  // namespace troupe::plugins::volumes
