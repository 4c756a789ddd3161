#include "plugins/volumes/node_volume_limits.hpp"

#include "plugins/volumes/pod_claims.hpp"

namespace troupe::plugins::volumes {

namespace {

/// Stands for the volume an unbound claim will get: unique per claim, never
/// a real handle (upstream uses a random prefix for the same purpose).
constexpr const char* kUnboundHandlePrefix = "troupe-unbound-claim";

/// getCSIDriverInfoFromSC: a claim without its volume yet counts as a volume
/// of its class's provisioner; without a class (it must be bound before the
/// pod can be placed) it is not counted.
void add_unbound(const PersistentVolumeClaim& claim, const VolumeCatalog& catalog, NodeVolumeLimits::CsiVolumes& out) {
  const StorageClass* storage_class = catalog.storage_class(storage_class_of(claim));
  if (storage_class == nullptr || storage_class->provisioner.empty()) return;
  out[storage_class->provisioner + "/" + kUnboundHandlePrefix + "-" + claim.meta.namespace_name + "/" +
      claim.meta.name] = storage_class->provisioner;
}

/// getCSIDriverInfo: a bound claim's CSI volume; a volume of another type is not counted.
void add_claim(const PersistentVolumeClaim& claim, const VolumeCatalog& catalog, NodeVolumeLimits::CsiVolumes& out) {
  auto volume = claim.volume_name.empty() ? nullptr : catalog.volume(claim.volume_name);
  if (!volume) return add_unbound(claim, catalog, out);
  if (volume->csi_driver.empty() || volume->csi_volume_handle.empty()) return;
  out[volume->csi_driver + "/" + volume->csi_volume_handle] = volume->csi_driver;
}

}  // namespace

PluginStatus csi_volumes_of(const Pod& pod, const VolumeCatalog& catalog, bool strict,
                            NodeVolumeLimits::CsiVolumes& out) {
  for (const PodVolumeClaim& volume : pod.spec.volume_claims) {
    const std::string name = volume.claim_of(pod.meta.name);
    const PersistentVolumeClaim* claim = catalog.claim(pod.meta.namespace_name, name);
    if (claim == nullptr) {
      if (!strict) continue;
      return PluginStatus::unresolvable("looking up PVC " + pod.meta.namespace_name + "/" + name +
                                        ": persistentvolumeclaim " + quoted(name) + " not found");
    }
    if (volume.ephemeral && !created_for(*claim, pod)) {
      if (!strict) continue;
      return PluginStatus::internal_error(not_created_for(*claim, pod));
    }
    add_claim(*claim, catalog, out);
  }
  return {};
}

PluginStatus NodeVolumeLimits::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) const {
  if (pod.spec().volume_claims.empty()) return PluginStatus(Code::skip);
  PodVolumes volumes;
  volumes.failure = csi_volumes_of(*pod.pod, catalog_of(state), true, volumes.volumes);
  if (volumes.failure.ok() && volumes.volumes.empty()) return PluginStatus(Code::skip);
  state.write(state_slot(), std::move(volumes));
  return {};
}

// csi.go Filter: the limits of the node's CSINode; the distinct volumes its
// pods use; the pod's volumes that are not among them must fit.
PluginStatus NodeVolumeLimits::filter(const CycleState& state, const PodInfo&, const NodeInfo& node) const {
  const PodVolumes* pod_volumes = state.read<PodVolumes>(state_slot());
  if (pod_volumes == nullptr) return PluginStatus::internal_error("NodeVolumeLimits: no PreFilter state");
  if (!pod_volumes->failure.ok()) return pod_volumes->failure;
  const VolumeCatalog& catalog = catalog_of(state);
  const CsiNode* csi_node = catalog.csi_node(node.node()->meta.name);
  if (csi_node == nullptr) return {};
  std::map<std::string, int64_t> limits;
  for (const CsiNodeDriver& driver : csi_node->drivers)
    if (driver.allocatable_count) limits[driver.name] = *driver.allocatable_count;
  if (limits.empty()) return {};
  CsiVolumes attached;
  for (const auto& placed : node.pods())
    if (!placed->spec().volume_claims.empty()) csi_volumes_of(*placed->pod, catalog, false, attached);
  std::map<std::string, int64_t> attached_count;
  for (const auto& [unique, driver] : attached) ++attached_count[driver];
  std::map<std::string, int64_t> new_count;
  for (const auto& [unique, driver] : pod_volumes->volumes)
    if (attached.count(unique) == 0) ++new_count[driver];  // a volume already attached is not counted twice
  for (const auto& [driver, count] : new_count) {
    auto limit = limits.find(driver);
    if (limit != limits.end() && attached_count[driver] + count > limit->second)
      return PluginStatus::unschedulable(kMaxVolumeCountExceeded);
  }
  return {};
}

std::vector<ClusterEvent> NodeVolumeLimits::events_to_register() const {
  return {{EventResource::storage, kAdd, "StorageChange"}, {EventResource::pod, kDelete, "AssignedPodDelete"}};
}

}  // namespace troupe::plugins::volumes
