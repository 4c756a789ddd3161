#pragma once
// How far the claims a pod's binding wrote have got (kube-scheduler's
// binder.go checkBindings), read from the claims and volumes as the API
// server last showed them: each must end fully bound (the PV controller's
// bind-completed annotation on a claim naming its volume). A binding fails
// when the volume's claimRef was dropped, or a provisioned claim lost its
// selected node (its provisioner gave up). Objects older than the write are
// not judged: the watch has not caught up yet.

#include <string>
#include <vector>

#include "plugins/framework/claim_binding.hpp"
#include "plugins/volumes/volume_catalog.hpp"

namespace troupe::plugins::volumes {

enum class Progress { bound, waiting, failed };

struct BindingProgress {
  Progress progress = Progress::waiting;
  std::string message;  // why, when failed
};

/// `written[i]`: the resourceVersion claims[i]'s write answered with (its
/// volume's for a static binding, the claim's for a provisioning).
BindingProgress check_claim_bindings(const VolumeCatalog& observed, const std::vector<ClaimToBind>& claims,
                                     const std::vector<std::string>& written, const std::string& node);

/// Whether `observed` is older than `written`, both etcd revisions. Versions
/// that are not numbers cannot be ordered: never older.
bool older_than(const std::string& observed, const std::string& written);

}  // namespace troupe::plugins::volumes
