#pragma once
// A pod's claims as kube-scheduler's VolumeBinding reads them
// (volumebinding/volume_binding.go podHasPVCs, binder.go GetPodVolumeClaims):
// each persistentVolumeClaim and ephemeral volume's claim, looked up in the
// pod's namespace, checked (exists, not Lost, not being deleted, an ephemeral
// one created for this pod), and sorted into
//   bound               spec.volumeName set and the PV controller's
//                       bind-completed annotation present
//   delayed             unbound, of a WaitForFirstConsumer storage class
//   unbound immediate   anything else (a claim pre-bound to a volume but not
//                       yet completed counts here, whatever its class)
// Pure: the catalog is the cycle's snapshot.

#include <string>
#include <vector>

#include "model/pod.hpp"
#include "plugins/framework/status.hpp"
#include "plugins/volumes/volume_catalog.hpp"

namespace troupe::plugins::volumes {

enum class ClaimBinding { bound, delayed, unbound_immediate };

struct PodClaim {
  std::string name;                    // the claim's name in the pod's namespace
  const PersistentVolumeClaim* claim;  // in the catalog
  ClaimBinding binding;
};

struct PodClaims {
  std::vector<PodClaim> claims;  // in the order of the pod's volumes
  /// Success, or why the pod cannot be tried: UnschedulableAndUnresolvable
  /// with upstream's message, or an error (a storage class without a binding mode).
  PluginStatus failure;
};

PodClaims resolve_pod_claims(const Pod& pod, const VolumeCatalog& catalog);

/// ephemeral.VolumeIsForPod: an ephemeral volume's claim must be the one the
/// ephemeral volume controller made for this pod (controlled by it); the
/// message says when it is not.
bool created_for(const PersistentVolumeClaim& claim, const Pod& pod);
std::string not_created_for(const PersistentVolumeClaim& claim, const Pod& pod);

/// Whether the PV controller completed the claim's binding.
bool fully_bound(const PersistentVolumeClaim& claim);

}  // namespace troupe::plugins::volumes
