#pragma once
// The writes that bind a pod's claims before the pod (kube-scheduler's
// binder.go bindAPIUpdate), as merge patches that carry the resourceVersion
// the decision was made on, so that a volume or claim changed since fails the
// binding (409 Conflict) instead of being overwritten:
//   - a PersistentVolume gets its claimRef (and, unless the user pre-bound
//     it to that claim, pv.kubernetes.io/bound-by-controller), after which
//     the PV controller binds the claim;
//   - a claim to provision gets volume.kubernetes.io/selected-node, after
//     which its provisioner makes a volume for that node.

#include <string>

#include "watch/api_client.hpp"
#include "watch/api_result.hpp"

namespace troupe::watch {

struct ClaimIdentity {
  std::string namespace_name;
  std::string name;
  std::string uid;
  std::string resource_version;
};

ApiResult bind_volume_to_claim(ApiClient& api, const std::string& volume, const std::string& volume_resource_version,
                               bool prebound, const ClaimIdentity& claim);

ApiResult select_node_for_claim(ApiClient& api, const ClaimIdentity& claim, const std::string& node);

/// metadata.resourceVersion of the object a successful write answered with ("" if none).
std::string written_resource_version(const ApiResult& result);

}  // namespace troupe::watch
