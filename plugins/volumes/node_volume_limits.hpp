#pragma once
// NodeVolumeLimits (kube-scheduler's nodevolumelimits CSILimits): a node
// attaches at most as many volumes of a CSI driver as its CSINode object
// allows (spec.drivers[].allocatable.count). A pod fits when the node's pods'
// distinct volumes of each driver, plus the pod's volumes not among them, stay
// within the limit ("node(s) exceed max volume count", Unschedulable: taking
// a pod off can make room). A volume is counted by its driver and handle
// (a bound claim's CSI PersistentVolume); a claim not bound yet counts as a
// new volume of its storage class's provisioner. A node without a CSINode,
// or a driver without a count, has no limit.
//
// Not implemented: in-tree volumes migrated to CSI (counted by upstream
// through its CSI translation) and the limits on the Node object's
// allocatable `attachable-volumes-*` (upstream's fallback from before
// CSINode); such volumes and limits are not counted.

#include <map>
#include <string>
#include <vector>

#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"
#include "plugins/volumes/volume_catalog.hpp"

namespace troupe::plugins::volumes {

class NodeVolumeLimits final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kNodeVolumeLimits;
  static constexpr const char* kMaxVolumeCountExceeded = "node(s) exceed max volume count";

  std::string_view name() const override { return kName; }
  /// Skip for a pod without claims, or whose claims name no CSI volume.
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  std::vector<ClusterEvent> events_to_register() const override;

  /// A pod's CSI volumes: "driver/handle" → driver.
  using CsiVolumes = std::map<std::string, std::string>;

  /// What PreFilter leaves for Filter: the pod's CSI volumes, or why they
  /// could not be read (a claim missing, an ephemeral claim not the pod's).
  struct PodVolumes {
    CsiVolumes volumes;
    PluginStatus failure;
  };
};

/// The CSI volumes of a pod's claims (filterAttachableVolumes). `strict`: a
/// new pod, for which a missing claim or a foreign ephemeral claim is an
/// error; a placed pod's unreadable claims are left out.
PluginStatus csi_volumes_of(const Pod& pod, const VolumeCatalog& catalog, bool strict,
                            NodeVolumeLimits::CsiVolumes& out);

}  // namespace troupe::plugins::volumes
