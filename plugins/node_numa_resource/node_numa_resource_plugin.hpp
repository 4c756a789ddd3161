#pragma once
// NodeNUMAResource: Koordinator's CPU orchestration plugin
// (pkg/scheduler/plugins/nodenumaresource/plugin.go).
//
//   PreFilter  decode resource-spec / numa-topology-spec; Skip with no
//              requests; decide the cpuset policy for LSE/LSR koord-prod
//              pods ("the requested CPUs must be integer").
//   Filter     NUMA policy match, node-forced bind policy, CPU topology and
//              SMT checks, a trial allocation for required policies, and the
//              topology manager admit for Restricted / SingleNUMANode.
//   Score      node-level scoringStrategy without a NUMA policy, else the
//              numaScoringStrategy over the NUMA nodes the pod would use.
//   Reserve    merge hints (any NUMA policy), allocate NUMA resources and the
//              cpuset, account them in NodeCpus; Unreserve releases them.
//   PreBind    resource-status (and resource-spec when the policy came from
//              the node or the defaults) into BindingChanges.annotations.
// Per-node state is NodeCpus, NodeInfo's extension in slot kCpus.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/node_numa_resource/node_cpus.hpp"
#include "plugins/node_numa_resource/node_level_score.hpp"
#include "plugins/node_numa_resource/numa_allocator.hpp"
#include "plugins/node_numa_resource/numa_args.hpp"
#include "plugins/node_numa_resource/pod_annotations.hpp"
#include "plugins/topology_manager/hint_provider.hpp"

namespace troupe::plugins::numa {

inline constexpr const char* kErrInvalidRequestedCpus = "the requested CPUs must be integer";
inline constexpr const char* kErrNumaPolicyNotMatch = "node(s) NUMA Topology policy not match";
inline constexpr const char* kErrInvalidCpuTopology = "node(s) invalid CPU Topology";
inline constexpr const char* kErrCpuBindPolicyConflict =
    "node(s) cpu bind policy conflicts with pod's required cpu bind policy";
inline constexpr const char* kErrSmtAlignment = "node(s) requested cpus not multiple cpus per core";
inline constexpr const char* kErrMissingNumaResources = "node(s) missing NUMA resources";
/// Any failure to give NUMA hints, as GetPodTopologyHints reports it.
inline constexpr const char* kErrNoNumaHints = "node(s) Insufficient NUMA Node resources";

/// NodeNUMAResource's CycleState slot.
struct NumaState {
  bool skip = false;
  ResourceList requests;
  int64_t milli_cpu = 0;
  int num_cpus = 0;
  bool request_cpu_bind = false;
  CpuBindPolicy required = CpuBindPolicy::unset;
  CpuBindPolicy preferred = CpuBindPolicy::unset;
  CpuExclusivePolicy exclusive = CpuExclusivePolicy::unset;
  topology::NumaPolicy pod_numa_policy = topology::NumaPolicy::none;
  topology::NumaExclusive pod_numa_exclusive = topology::NumaExclusive::none;
  ResourceSpec pod_spec;  // as the pod's annotation had it
  /// The cpuset a SchedulingHint designates (designated_cpus.hpp); null = any.
  std::shared_ptr<const CpuSet> designated_cpus;
  // Set by Reserve:
  std::optional<PodAllocation> allocation;
  /// The required policy on the chosen node (the pod's, or forced by the node).
  CpuBindPolicy node_required = CpuBindPolicy::unset;
  /// The merged NUMA affinity (0 = none), for other hint providers' Reserve.
  topology::NumaMask affinity = 0;
};

/// What one node makes of the pod (Filter steps 1, 2 and 4 without the trial).
/// Enums only: a plain pod (no cpuset, no NUMA policy) costs no copy per
/// node; allocate_request builds the AllocateRequest where it is needed.
struct NodeDecision {
  NodeCpuBindPolicy node_bind = NodeCpuBindPolicy::none;
  topology::NumaPolicy numa_policy = topology::NumaPolicy::none;
  topology::NumaExclusive numa_exclusive = topology::NumaExclusive::none;
  bool bind_cpus = false;
  CpuBindPolicy required = CpuBindPolicy::unset;
  NumaAllocateStrategy strategy = NumaAllocateStrategy::least_allocated;

  /// Neither a cpuset nor NUMA alignment: nothing to allocate on the node.
  bool allocates_nothing() const { return !bind_cpus && numa_policy == topology::NumaPolicy::none; }
};

class NodeNUMAResource final : public PreFilterPlugin,
                               public FilterPlugin,
                               public ScorePlugin,
                               public ReservePlugin,
                               public PreBindPlugin,
                               public EnqueueExtensions,
                               public topology::NumaHintProvider {
 public:
  static constexpr const char* kName = "NodeNUMAResource";

  using HintProviders = std::vector<std::shared_ptr<const topology::NumaHintProvider>>;

  /// `providers`: the other NUMA hint providers of the profile (DeviceShare's
  /// adapter); this plugin always takes part itself.
  explicit NodeNUMAResource(NodeNumaResourceArgs args, HintProviders providers = {});
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);
  /// make() with other hint providers.
  static Result<std::shared_ptr<const Plugin>> make_with_hint_providers(const YAML::Node& args,
                                                                        HintProviders providers);

  std::string_view name() const override { return kName; }
  const NodeNumaResourceArgs& args() const { return args_; }
  /// The NUMA affinity Reserve chose for the pod (the merged hint), for the
  /// other providers' Reserve; nullopt when it chose none (no NUMA policy,
  /// not reserved yet, or unreserved).
  std::optional<topology::NumaMask> reserved_affinity(const CycleState& state) const;

  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  PluginStatus reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const override;
  void unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const override;
  PluginStatus pre_bind(CycleState& state, const PodInfo& pod, const std::string& node_name,
                        BindingChanges& changes) const override;
  std::vector<ClusterEvent> events_to_register() const override;

  /// Filter and Reserve on the node as given, without the designation and
  /// reservation hooks (which call them on their trial copies).
  PluginStatus filter_node(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const;
  PluginStatus reserve_node(CycleState& state, const PodInfo& pod, NodeInfo& node) const;

  PluginStatus numa_hints(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                          topology::NumaHints& out) const override;
  PluginStatus try_allocate(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            const topology::NumaHint& affinity) const override;

  const NumaState* read_state(const CycleState& state) const { return state.read<NumaState>(state_slot()); }
  /// Filter's per-node decision; exposed for tests and diagnostics.
  PluginStatus decide(const NumaState& state, const NodeInfo& node, NodeDecision& out) const;
  /// What allocate_on_node / generate_hints need for the pod on the node.
  static AllocateRequest allocate_request(const NumaState& state, const NodeInfo& node, const NodeDecision& decision);

 private:
  /// This plugin, then providers_.
  topology::NumaHintProviders all_providers() const;
  PluginStatus merged_affinity(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                               const NodeDecision& decision, topology::NumaMask& affinity) const;

  NodeNumaResourceArgs args_;
  HintProviders providers_;
  NodeLevelScorer node_scorer_;
  /// What orders the NUMA hints: numaScoringStrategy's type over
  /// scoringStrategy's resources (Koordinator builds every scorer from
  /// scoringStrategy.resources).
  NumaScoringStrategy hint_scoring_;
};

}  // namespace troupe::plugins::numa
