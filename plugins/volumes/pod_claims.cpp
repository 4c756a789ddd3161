#include "plugins/volumes/pod_claims.hpp"

namespace troupe::plugins::volumes {

namespace {

/// Why the claim cannot be used at all, or "" when it can.
std::string unusable(const PodVolumeClaim& volume, const std::string& name, const PersistentVolumeClaim* claim,
                     const Pod& pod) {
  if (claim == nullptr) {
    if (volume.ephemeral)
      return "waiting for ephemeral volume controller to create the persistentvolumeclaim " + quoted(name);
    return "persistentvolumeclaim " + quoted(name) + " not found";
  }
  if (claim->phase == "Lost")
    return "persistentvolumeclaim " + quoted(name) + " bound to non-existent persistentvolume " +
           quoted(claim->volume_name);
  if (claim->meta.is_terminating()) return "persistentvolumeclaim " + quoted(name) + " is being deleted";
  if (volume.ephemeral && !created_for(*claim, pod)) return not_created_for(*claim, pod);
  return "";
}

}  // namespace

bool created_for(const PersistentVolumeClaim& claim, const Pod& pod) {
  if (claim.meta.namespace_name != pod.meta.namespace_name) return false;
  const OwnerReference* owner = claim.meta.controller_ref();
  return owner != nullptr && owner->uid == pod.meta.uid;
}

std::string not_created_for(const PersistentVolumeClaim& claim, const Pod& pod) {
  return "PVC " + claim.meta.namespace_name + "/" + claim.meta.name + " was not created for pod " +
         pod.meta.namespace_name + "/" + pod.meta.name + " (pod is not owner)";
}

bool fully_bound(const PersistentVolumeClaim& claim) {
  return !claim.volume_name.empty() && claim.meta.annotation(kAnnotationBindCompleted) != nullptr;
}

PodClaims resolve_pod_claims(const Pod& pod, const VolumeCatalog& catalog) {
  PodClaims out;
  for (const PodVolumeClaim& volume : pod.spec.volume_claims) {
    const std::string name = volume.claim_of(pod.meta.name);
    const PersistentVolumeClaim* claim = catalog.claim(pod.meta.namespace_name, name);
    if (std::string why = unusable(volume, name, claim, pod); !why.empty()) {
      out.failure = PluginStatus::unresolvable(why);
      return out;
    }
    out.claims.push_back(PodClaim{name, claim, ClaimBinding::bound});
  }
  for (PodClaim& pod_claim : out.claims) {
    if (fully_bound(*pod_claim.claim)) continue;
    BindingMode mode = binding_mode_of(*pod_claim.claim, catalog);
    if (mode == BindingMode::not_set) {
      out.failure = PluginStatus::internal_error("VolumeBindingMode not set for StorageClass " +
                                                 quoted(storage_class_of(*pod_claim.claim)));
      return out;
    }
    const bool delayed = mode == BindingMode::wait_for_first_consumer && pod_claim.claim->volume_name.empty();
    pod_claim.binding = delayed ? ClaimBinding::delayed : ClaimBinding::unbound_immediate;
  }
  return out;
}

}  // namespace troupe::plugins::volumes
