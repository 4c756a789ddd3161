#pragma once
// RestoreReservation for NodeNUMAResource (Koordinator's
// pkg/scheduler/plugins/nodenumaresource reservation restore): a pod that may
// use a reservation holding a cpuset on the node sees those CPUs (and the
// reservation's NUMA resources) free again — what its other owners took
// stays allocated under their own keys — and takes its CPUs from them first;
// with allocatePolicy Restricted only from them, otherwise from the rest of
// the node when they are not enough. The reservation's CPUs are those its
// reserve pod holds (the Reservation's resource-status annotation).
//
// The plugin calls these first in Filter and Reserve; nullopt means no
// reservation with CPUs applies and the plugin goes on as usual. They run the
// plugin's core (filter_node, reserve_node: no hooks) on a trial copy of the
// node, which keeps its reservations for the other NUMA hint providers.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "plugins/node_numa_resource/node_numa_resource_plugin.hpp"

namespace troupe::plugins::numa {

std::optional<PluginStatus> filter_reserved_cpus(const NodeNUMAResource& plugin, const CycleState& state,
                                                 const PodInfo& pod, const NodeInfo& node);

std::optional<PluginStatus> reserve_reserved_cpus(const NodeNUMAResource& plugin, CycleState& state,
                                                  const PodInfo& pod, NodeInfo& node);

/// Filter's trial node for the pod: the CPUs of the reservations it may use
/// given back (only theirs if one is Restricted); nullopt when none holds CPUs.
std::optional<NodeInfo> reserved_filter_trial(const PodInfo& pod, const NodeInfo& node);

/// Reserve's trial node: the CPUs of the reservation the pod allocated given
/// back (`only_reserved`: nothing else available); nullopt when it holds none.
std::optional<NodeInfo> reserved_reserve_trial(const PodInfo& pod, const NodeInfo& node, bool only_reserved);

/// How a caller narrows each trial node before Reserve runs on it (a designation).
using NarrowTrial = std::function<NodeInfo(NodeInfo)>;

/// Reserve on the trials of the reservation the pod allocated: its CPUs
/// first, then (unless it is Restricted) the whole node with them given back,
/// each trial passed through `narrow`; the result is held on the node itself.
/// nullopt when the pod allocated no reservation holding CPUs here.
std::optional<PluginStatus> reserve_on_reserved_trials(const NodeNUMAResource& plugin, CycleState& state,
                                                       const PodInfo& pod, NodeInfo& node, const NarrowTrial& narrow);

/// A trial's Reserve succeeded: holds the allocation it wrote into the state
/// on the node itself.
void hold_on_node(const NodeNUMAResource& plugin, const CycleState& state, const PodInfo& pod, NodeInfo& node);

/// Gives the holds of the reservations (by uid) back on `cpus`;
/// `only_reserved`: every other available CPU is blocked.
void restore_cpus(NodeCpus& cpus, const std::vector<std::string>& reservation_uids, bool only_reserved);

}  // namespace troupe::plugins::numa
