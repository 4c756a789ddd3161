#pragma once
// NumaHintProvider: a plugin that can say which NUMA node sets can hold the
// pod's resources on a node, and check (Filter) or claim (Reserve) them
// within a chosen affinity (Koordinator's NUMATopologyHintProvider:
// GetPodTopologyHints + Allocate). NodeNUMAResource is one; DeviceShare is
// adapted by the lead (its deviceshare::NumaHints convert field by field).
//
// Filter runs concurrently on const state, so the Filter-time "allocate" is a
// trial (try_allocate) that changes nothing; the real claim happens in each
// plugin's Reserve with the affinity NodeNUMAResource recorded.

#include <string>
#include <vector>

#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/framework/status.hpp"
#include "plugins/topology_manager/numa_hint.hpp"
#include "plugins/topology_manager/policy.hpp"

namespace troupe::plugins::topology {

class NumaHintProvider {
 public:
  virtual ~NumaHintProvider() = default;
  /// The provider's hints for the pod on the node. An empty map = no
  /// preference (e.g. the pod asks nothing of this provider). A rejection
  /// status becomes a reason the pod cannot be admitted.
  virtual PluginStatus numa_hints(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                  NumaHints& out) const = 0;
  /// Whether the pod's resources fit on the node within `affinity`
  /// (affinity.numa_nodes 0 = anywhere). Must not change anything.
  virtual PluginStatus try_allocate(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                    const NumaHint& affinity) const = 0;
};

using NumaHintProviders = std::vector<const NumaHintProvider*>;

/// Koordinator's topologyManager.Admit without its per-node store: gathers
/// every provider's hints (a failing provider's message is a reason), merges
/// them under `policy`, rejects (Unschedulable) when the policy does not
/// admit, then asks every provider to try the chosen affinity. On success
/// `best` holds the affinity.
PluginStatus admit(const NumaHintProviders& providers, const CycleState& state, const PodInfo& pod,
                   const NodeInfo& node, NumaPolicy policy, const std::vector<int>& numa_nodes,
                   NumaExclusive exclusive, const std::vector<NumaNodeStatus>& statuses, NumaHint& best);

}  // namespace troupe::plugins::topology
