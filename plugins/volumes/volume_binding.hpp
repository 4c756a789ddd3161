#pragma once
// VolumeBinding (kube-scheduler's volumebinding plugin), for claims that are
// already bound: a pod whose claims are missing, Lost, being deleted or
// unbound with Immediate binding is rejected at PreFilter with upstream's
// messages; on each node, every bound claim's PersistentVolume must exist and
// its node affinity must match the node's labels.
//
// Not implemented: binding. A claim of a WaitForFirstConsumer storage class
// that is not bound yet waits for a scheduler that binds volumes (matching a
// PersistentVolume or asking for one to be provisioned, then writing the
// binding at PreBind); troupe rejects such a pod at PreFilter saying so,
// rather than placing it where its volume may never follow. Nor the
// VolumeCapacityPriority score (an alpha feature gate upstream).

#include <memory>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"
#include "plugins/volumes/volume_catalog.hpp"

namespace troupe::plugins::volumes {

class VolumeBinding final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kVolumeBinding;
  static constexpr const char* kUnboundImmediate = "pod has unbound immediate PersistentVolumeClaims";
  static constexpr const char* kNodeConflict = "node(s) had volume node affinity conflict";
  static constexpr const char* kVolumeMissing =
      "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

  /// VolumeBindingArgs: bindTimeoutSeconds (not negative) is accepted and
  /// changes nothing without binding; shape is refused, as upstream refuses it
  /// while its feature gate is off.
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);

  std::string_view name() const override { return kName; }
  /// Skip for a pod without claims, or whose bound volumes have no node affinity.
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  std::vector<ClusterEvent> events_to_register() const override;

  /// What PreFilter leaves for Filter: the PersistentVolume of each bound
  /// claim, in the pod's order (null: the claim names a volume that does not exist).
  struct BoundVolumes {
    std::vector<std::shared_ptr<const PersistentVolume>> volumes;
  };
};

}  // namespace troupe::plugins::volumes
