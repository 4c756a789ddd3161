#pragma once
// VolumeRestrictions (kube-scheduler's volumerestrictions plugin):
// - inline disks: a node where a placed pod mounts one of the pod's
//   gcePersistentDisk, awsElasticBlockStore, iscsi or rbd disks in a way that
//   excludes the pod's mount (disk_conflicts.hpp) does not fit it ("node(s)
//   had no available disk", Unschedulable);
// - ReadWriteOncePod: a claim with that access mode serves one pod in the
//   whole cluster, so a pod using one that a placed pod (bound or assumed)
//   uses already fits no node ("node has pod using PersistentVolumeClaim with
//   the same name and ReadWriteOncePod access mode", Unschedulable:
//   preemption may remove the pod that holds it, and its dry run counts the
//   pods it takes off and puts back).
// A pod whose persistentVolumeClaim volume names a claim that does not exist
// is rejected at PreFilter, whatever its access mode.

#include <set>
#include <string>
#include <vector>

#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins::volumes {

class VolumeRestrictions final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kVolumeRestrictions;
  static constexpr const char* kDiskConflict = "node(s) had no available disk";
  static constexpr const char* kReadWriteOncePodConflict =
      "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";

  std::string_view name() const override { return kName; }
  /// Skip for a pod without inline disks none of whose ReadWriteOncePod claims a placed pod uses.
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus add_pod(CycleState& state, const PodInfo& pod, const PodInfo& added,
                       const NodeInfo& node) const override;
  PluginStatus remove_pod(CycleState& state, const PodInfo& pod, const PodInfo& removed,
                          const NodeInfo& node) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  std::vector<ClusterEvent> events_to_register() const override;

  /// What PreFilter leaves: the pod's ReadWriteOncePod claims ("ns/claim")
  /// and how many of them placed pods use (ClaimsInUse, shared by the cycle).
  struct ReadWriteOncePodClaims {
    std::set<std::string> claims;
    int64_t in_use = 0;
  };

 private:
  PluginStatus adjust(CycleState& state, const PodInfo& other, int64_t delta) const;
};

}  // namespace troupe::plugins::volumes
