#pragma once
// DeviceShare: Koordinator's fine-grained device scheduling plugin
// (pkg/scheduler/plugins/deviceshare/plugin.go).
//
//   PreFilter  normalise and validate the pod's device requests and hints
//              (device_share_request.hpp); Skip when it asks for no device.
//   Filter     GPU isolation provider and gpuShareUnsupportedModels checks,
//              then "can the node's devices take the pod" by running the
//              allocator (joint_allocator.hpp) without a scorer. A node with
//              no Device and no allocated pods passes (kubelet decides).
//   Score      the node score of scoring.go, normalised to 0-100 across nodes;
//              with scoringStrategy Fragmentation the fragmentation-aware
//              score of fragmentation_scoring.hpp instead (every pod, also
//              those without devices), and Reserve takes the card it chose
//              (or the allocator's, when that card lacks e.g. the gpu-memory).
//              Without taskClasses the distribution is the snapshot the
//              cycle shares in the CycleState (LearnedTasks, learned from the
//              pods seen; actors/task_learning.hpp, and for the extender
//              endpoint actors/extender_learning.hpp), else a fixed prior.
//   Reserve    allocate with the configured scorer and account the result on
//              the node; Unreserve gives it back exactly.
//   PreBind    the device-allocated annotation (and, with devicePluginAdaption,
//              bind-timestamp, gpu-minors, hami.io/vgpu-node, Huawei NPU
//              annotations) into BindingChanges.
//
// Per-node state is a NodeDevices, NodeInfo's extension in slot kDevices. The
// framework entry points (filter, score, reserve, unreserve) find it there
// and call the *_devices member functions, which take it explicitly so tests
// and the GPU-share extender endpoint can drive them without a NodeInfo.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/deviceshare/allocation_view.hpp"
#include "plugins/deviceshare/device_allocated.hpp"
#include "plugins/deviceshare/device_share_request.hpp"
#include "plugins/deviceshare/deviceshare_args.hpp"
#include "plugins/deviceshare/fragmentation_scoring.hpp"
#include "plugins/deviceshare/node_devices.hpp"
#include "plugins/deviceshare/numa_hints.hpp"
#include "plugins/framework/plugin.hpp"

namespace troupe::plugins::deviceshare {

/// The CycleState slot of DeviceShare.
struct DeviceShareState {
  std::shared_ptr<const DeviceShareRequest> request;
  /// Set by Reserve: what the pod got, with ids, ready for the annotation.
  std::shared_ptr<const DeviceAllocations> allocated;
  /// The Device's node.koordinator.sh/gpu-vendor at Reserve (device plugin adaption).
  std::string gpu_vendor;
  /// The devices a SchedulingHint designates (designated_allocation.hpp):
  /// the allocator sees only them; null = every device of the node.
  std::shared_ptr<const PodDevices> designated;
};

inline constexpr const char* kErrIsolationProviderMissing = "GPUIsolationProviderHAMICore not found on the node";

class DeviceShare final : public PreFilterPlugin,
                          public FilterPlugin,
                          public ScorePlugin,
                          public ReservePlugin,
                          public PreBindPlugin,
                          public EnqueueExtensions {
 public:
  static constexpr const char* kName = "DeviceShare";
  using Clock = std::function<int64_t()>;  // unix nanoseconds
  /// The NUMA affinity the topology manager chose for the pod in this cycle
  /// (NodeNUMAResource's Reserve, which runs first); nullopt = none.
  using NumaAffinitySource = std::function<std::optional<uint64_t>(const CycleState&)>;

  explicit DeviceShare(DeviceShareArgs args, Clock clock = {}, NumaAffinitySource numa_affinity = {});
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);
  /// make() whose Reserve allocates within `numa_affinity`'s answer.
  static Result<std::shared_ptr<const Plugin>> make_with_numa_affinity(const YAML::Node& args,
                                                                       NumaAffinitySource numa_affinity);

  std::string_view name() const override { return kName; }
  const DeviceShareArgs& args() const { return args_; }
  const DeviceScorer& scorer() const { return scorer_; }

  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  bool has_normalize_score() const override { return true; }
  PluginStatus normalize_scores(const CycleState& state, const PodInfo& pod,
                                std::vector<int64_t>& scores) const override;
  PluginStatus reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const override;
  void unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const override;
  PluginStatus pre_bind(CycleState& state, const PodInfo& pod, const std::string& node_name,
                        BindingChanges& changes) const override;
  std::vector<ClusterEvent> events_to_register() const override;

  /// Filter for one node: `node` may be null only in tests of the device
  /// checks (a null node is an error, as upstream); `devices` null = the node
  /// has no device state.
  PluginStatus filter_devices(const CycleState& state, const Node* node, const NodeDevices* devices) const;
  /// Raw score (before normalisation).
  int64_t score_devices(const CycleState& state, const Node* node, const NodeDevices* devices) const;
  /// Scores of all feasible nodes mapped to 0-100 (DefaultNormalizeScore).
  void normalize(std::vector<int64_t>& scores) const;
  /// Allocates and accounts the pod's devices on the node; writes the result
  /// into the state. `numa_affinity` (bit i = NUMA node i) is the merged
  /// affinity of the topology manager, ignored with disableDeviceNUMATopologyAlignment.
  /// `gpu_slot_mask` narrows the GPU slots it may take (the Fragmentation
  /// strategy's card choice).
  PluginStatus reserve_devices(CycleState& state, const PodInfo& pod, const Node* node, NodeDevices* devices,
                               std::optional<uint64_t> numa_affinity = std::nullopt,
                               uint64_t gpu_slot_mask = ~uint64_t{0}) const;
  /// GetPodTopologyHints: per device type, the NUMA node sets that can hold
  /// the pod's devices (none with disableDeviceNUMATopologyAlignment).
  PluginStatus numa_hints(const CycleState& state, const Node* node, const NodeDevices* devices,
                          NumaHints& out) const;
  /// Undoes reserve_devices.
  void unreserve_devices(CycleState& state, const PodInfo& pod, NodeDevices* devices) const;

  /// The state PreFilter wrote, or nullptr (no device request).
  const DeviceShareState* read_state(const CycleState& state) const;

  /// The distribution the Fragmentation strategy scores this cycle with: the
  /// configured taskClasses; else the learned snapshot shared in `state`;
  /// else the prior (task_learner.hpp: prior_task_classes). Null tasks with
  /// another strategy.
  ScoringTasks fragmentation_tasks(const CycleState& state) const;
  /// The task templates PreFilter reads devices with (what a learner needs
  /// to count a pod as DeviceShare sees it).
  const TemplatePolicy& templates() const { return templates_; }

 private:
  AllocateOptions options_for(const Node* node) const;
  bool share_unsupported(const Node& node) const;

  DeviceShareArgs args_;
  DeviceScorer scorer_;
  TemplatePolicy templates_;
  /// Learned Fragmentation without a snapshot yet: prior_task_classes().
  std::shared_ptr<const TaskDistribution> prior_;
  std::map<std::string, std::set<std::string>> unsupported_models_;  // vendor -> models
  Clock clock_;
  NumaAffinitySource numa_affinity_;
};

}  // namespace troupe::plugins::deviceshare
