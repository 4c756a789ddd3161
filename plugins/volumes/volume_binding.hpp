#pragma once
// VolumeBinding (kube-scheduler's volumebinding plugin): a pod whose claims
// are missing, Lost, being deleted or unbound with Immediate binding is
// rejected at PreFilter with upstream's messages. On each node, every bound
// claim's PersistentVolume must exist and its node affinity must match the
// node's labels, and every unbound claim of a WaitForFirstConsumer class must
// find a volume the node can reach or a class that provisions for it
// (volume_plan.hpp). Once a node is chosen, the scheduling cycle decides the
// plan for it (decide_plan) and assumes it, so that the next pods do not take
// the same volumes; PreBind hands the binding's writes and the wait for the
// claims to be bound to the API writer (BindingChanges::volumes).
//
// Not implemented: the VolumeCapacityPriority score (an alpha feature gate
// upstream).

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"
#include "plugins/volumes/volume_catalog.hpp"
#include "plugins/volumes/volume_plan.hpp"

namespace troupe::plugins {
class Framework;
}

namespace troupe::plugins::volumes {

inline constexpr const char* kLabelHostname = "kubernetes.io/hostname";

/// util.GetLocalPersistentVolumeNodeNames: the node names a volume's required
/// node affinity pins by `kubernetes.io/hostname In` (per term the values of
/// every such expression intersected, the terms joined; upstream reads the
/// label's values as node names). Empty when it pins none.
std::set<std::string> local_volume_node_names(const NodeSelector& affinity);

class VolumeBinding final : public PreFilterPlugin,
                            public FilterPlugin,
                            public PreBindPlugin,
                            public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kVolumeBinding;
  static constexpr const char* kUnboundImmediate = "pod has unbound immediate PersistentVolumeClaims";
  static constexpr const char* kNodeConflict = "node(s) had volume node affinity conflict";
  static constexpr const char* kVolumeMissing =
      "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

  /// VolumeBindingArgs: bindTimeoutSeconds (not negative; with 0 a binding
  /// that has claims to bind always fails, as upstream's) bounds PreBind's
  /// wait for the claims to be bound; shape is refused, as upstream refuses
  /// it while its feature gate is off.
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);
  explicit VolumeBinding(std::chrono::seconds bind_timeout) : bind_timeout_(bind_timeout) {}

  /// The profile's VolumeBinding, or null.
  static const VolumeBinding* of(const Framework& framework);

  std::string_view name() const override { return kName; }
  /// Skip for a pod without claims, or whose claims are all bound to volumes without node affinity.
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  /// The decided plan's writes and waits, or nothing when every claim was bound.
  PluginStatus pre_bind(CycleState& state, const PodInfo& pod, const std::string& node_name,
                        BindingChanges& changes) const override;
  std::vector<ClusterEvent> events_to_register() const override;

  /// The plan for the chosen node, kept for PreBind: nullopt when the pod has
  /// no claim to bind (nothing to assume). The node passed Filter on the same
  /// catalog, so a failure here means the node changed in between.
  std::optional<PlanOutcome> decide_plan(CycleState& state, const std::string& node_name,
                                         const Labels& node_labels) const;

  /// What PreFilter leaves for Filter: the PersistentVolume of each bound
  /// claim, in the pod's order (null: the claim names a volume that does not
  /// exist), and the unbound claims of WaitForFirstConsumer classes; then the
  /// plan decided for the chosen node.
  struct PodVolumes {
    std::vector<std::shared_ptr<const PersistentVolume>> volumes;
    std::vector<const PersistentVolumeClaim*> delayed;  // in the cycle's catalog
    std::optional<VolumePlan> decided;
  };

 private:
  std::chrono::seconds bind_timeout_;
};

}  // namespace troupe::plugins::volumes
