#pragma once
// The claims a pod's binding binds first (VolumeBinding's PreBind): each to
// an existing PersistentVolume, or provisioned for the chosen node. The API
// writer writes them (the volume's claimRef, or the claim's selected-node
// annotation) and then waits for the PV controller to complete each binding
// before it binds the pod.

#include <chrono>
#include <string>
#include <vector>

namespace troupe::plugins {

struct ClaimToBind {
  std::string namespace_name;
  std::string name;
  std::string uid;
  std::string resource_version;  // the claim's, as the plan saw it
  /// The volume to bind it to; "" = provision one for the node.
  std::string volume;
  std::string volume_resource_version;
  bool volume_prebound = false;  // the user bound the volume to this claim already

  bool provisions() const { return volume.empty(); }
};

struct ClaimBindings {
  std::vector<ClaimToBind> claims;
  /// How long to wait for the claims to be bound (bindTimeoutSeconds).
  std::chrono::seconds timeout{600};
};

}  // namespace troupe::plugins
