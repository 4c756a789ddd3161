#pragma once
// The PreFilterExtensions (AddPod/RemovePod) of plugins that counted
// ClusterPods at PreFilter into CycleState data (InterPodAffinity,
// PodTopologySpread): apply a counting change for one pod on one node to a
// dry run's CycleState copy.
//
// - A pod PreFilter did not count on that node (the node partition saw it
//   before the cycle's ClusterPods did) changes nothing: uncounting it would
//   cancel another pod's count.
// - The first change copies the counts; the slot then belongs to this copy
//   alone (CycleState::sole_owner), so later changes for the same node edit
//   that copy in place instead of copying the counts again per pod.

#include <memory>

#include "plugins/framework/cluster_pods.hpp"
#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/framework/status.hpp"

namespace troupe::plugins {

/// `State` is the plugin's slot data, with `counts` its member holding what
/// PreFilter counted and a `bool dry_run_copy` set on copies made here.
/// `change(Counts&)` applies the pod's +1 or −1.
template <class State, class Counts, class Change>
PluginStatus update_counted_pods(CycleState& state, size_t slot, std::shared_ptr<const Counts> State::*counts,
                                 const PodInfo& pod, const NodeInfo& node, Change change) {
  const State* data = state.read<State>(slot);
  if (data == nullptr || !(data->*counts) || node.node() == nullptr) return {};
  const auto* cluster = state.input<ClusterPods>();
  if (cluster != nullptr && !cluster->has_pod_on(pod_identity(pod), node.name())) return {};
  if (data->dry_run_copy && state.sole_owner(slot)) {
    // Made below by make_shared<Counts> (not const) and held by no one else.
    change(const_cast<Counts&>(*(data->*counts)));
    return {};
  }
  auto copy = std::make_shared<Counts>(*(data->*counts));
  change(*copy);
  State updated = *data;
  updated.*counts = std::move(copy);
  updated.dry_run_copy = true;
  state.write(slot, std::move(updated));
  return {};
}

}  // namespace troupe::plugins
