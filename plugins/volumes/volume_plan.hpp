#pragma once
// What a pod's unbound claims of WaitForFirstConsumer classes need on one
// node (kube-scheduler's binder.go FindPodVolumes, for those claims): each is
// bound to an existing PersistentVolume the node can reach (the smallest
// that fits, claims taken in ascending size so that small claims do not take
// the large volumes), or provisioned for the node by its class's provisioner
// (which the class must have, whose allowedTopologies must admit the node,
// and which must have room for it there when its CSI driver publishes its
// storage capacity). A claim that already names a selected node is provisioned there and
// fits no other node. Pure: the catalog is the cycle's snapshot.

#include <string>
#include <vector>

#include "model/label_selector.hpp"
#include "plugins/framework/claim_binding.hpp"
#include "plugins/framework/status.hpp"
#include "plugins/volumes/volume_catalog.hpp"

namespace troupe::plugins::volumes {

using plugins::ClaimToBind;

struct VolumePlan {
  std::vector<ClaimToBind> claims;  // static bindings first, then provisionings
};

struct PlanOutcome {
  VolumePlan plan;
  /// Success; UnschedulableAndUnresolvable with kBindConflict when a claim
  /// can be neither bound nor provisioned here, kNotEnoughSpace when it could
  /// be provisioned but the storage has no room for it; an error for a claim
  /// without a class or whose class does not exist.
  PluginStatus status;
};

/// Upstream's ErrReasonBindConflict and ErrReasonNotEnoughSpace.
inline constexpr const char* kBindConflict = "node(s) didn't find available persistent volumes to bind";
inline constexpr const char* kNotEnoughSpace = "node(s) did not have enough free storage";

PlanOutcome plan_delayed_claims(const std::vector<const PersistentVolumeClaim*>& delayed, const VolumeCatalog& catalog,
                                const std::string& node_name, const Labels& node_labels);

}  // namespace troupe::plugins::volumes
