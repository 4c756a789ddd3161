#pragma once
// The SCHEDULING CYCLE's preemption step (kube-scheduler's PostFilter call in
// schedulePod and its nominatingInfo handling), run only when a pod fits
// nowhere and the profile has a PostFilter plugin that preempts
// (DefaultPreemption, or Reservation with enablePreemption: the first of its
// PostFilter order, plugins/default_preemption/preemption_post_filter.hpp):
//   search   fan out a PreemptionRequest to every NODE actor, merge nothing
//            here: the answers go into that plugin's CycleState slot and
//            the Framework's PostFilter picks the node; when an extender with
//            a preemptVerb is interested in the pod, the partitions answer
//            with every candidate and the extenders narrow them first
//            (extender_preemption.hpp, on an I/O thread)
//   act      success: override the node's lower-priority nominations, hold
//            the preemptor's placeholder on the node, and hand the plan to the
//            API WRITER; no candidate: clear an earlier nomination; not
//            eligible, nothing left by the extenders, or an extender's
//            error: keep it; the preemptor deleted meanwhile: nothing
// Nominations live in cycle_actor_state::nominations (NominationBook); a
// pod's placeholder is released at the start of its next attempt. While a pod
// is tried, the nominations of lower-priority pods are set aside (their
// placeholders leave their nodes and the topology domains), as upstream's
// filters add only the nominated pods of at least the pod's priority; they
// come back when the attempt ends, unless its preemption overrode them.

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "actors/cycle_actor.hpp"
#include "plugins/default_preemption/preemption_post_filter.hpp"

namespace troupe::actors {

using CycleSelf = cycle_actor::stateful_pointer<cycle_actor_state>;

/// The first PostFilter plugin of the profile that preempts, or nullptr.
const plugins::preemption::PreemptionPostFilter* preemption_plugin(const plugins::Framework& framework);

/// Before the pod's attempt: its nomination placeholder leaves its node (kept
/// in state.released until the attempt decides).
void release_nomination(CycleSelf self, const plugins::PodInfo& pod);

/// Before an attempt: the nominations of pods of lower priority than `pod`
/// leave their nodes (kept in state.set_aside) so they do not keep it out.
void set_aside_lower_nominations(CycleSelf self, const plugins::PodInfo& pod);

/// When the attempt ends (placed at Reserve, or failed): the set-aside
/// nominations take their nodes again. One whose node the pod took is held
/// there all the same, as upstream keeps it nominated: pods of its priority
/// or lower then see the node full, and the nominated pod itself finds out at
/// its next attempt whether it still fits.
void restore_set_aside(CycleSelf self);

/// A pending pod that already carries status.nominatedNodeName (the
/// scheduler restarted, or another replica led when it preempted) is held on
/// that node as upstream's nominator holds it (no victims to wait for): pods
/// of lower priority do not take the room its victims freed, and its attempt
/// tries that node first. Nothing changes for a pod already nominated here or
/// under attempt.
void adopt_nomination(CycleSelf self, const PodInfoPtr& pod);

/// An attempt failed without a preemption search deciding on its nomination
/// (handleSchedulingFailure's nominatingInfo): one that ended in an error or
/// after a node was chosen (Reserve, Permit, PreBind, Bind) clears it, in
/// memory and in status.nominatedNodeName (clearNominatedNode); an
/// Unschedulable verdict without a search keeps it (ModeNoop).
void settle_nomination_after_failure(CycleSelf self, const CycleRequest& request, bool clears);

/// The pod was bound to `node` (by this scheduler or another replica) while
/// nominated: the nomination ends, its placeholder left where the bound pod
/// has not replaced it.
void nominated_pod_bound(CycleSelf self, const std::string& uid, const std::string& node);

/// The pod is gone (deleted, or finished unassigned): its placeholder leaves its node.
void forget_nomination(CycleSelf self, const std::string& uid);

/// No node fits the pod: from here until act_on_preemption, its deletion is
/// noted (state.preemptor_gone), so that nothing is nominated or evicted for
/// a pod that is gone, whatever runs before the search (the reservation
/// diagnosis asks the partitions too).
void begin_post_filter(CycleSelf self, const plugins::PodInfo& pod);

/// Searches every partition (each over the nodes its round of this cycle
/// rejected, plus those of `extender_statuses`, the extenders' rejections),
/// lets the preempting extenders narrow the candidates, then runs the
/// Framework's PostFilter; calls `done(result)` on the cycle actor.
void search_preemption(CycleSelf self, const CycleRequestPtr& request, const plugins::NodeStatuses& extender_statuses,
                       int64_t total_nodes, const plugins::preemption::PreemptionPostFilter& plugin,
                       std::function<void(const plugins::PostFilterResult&)> done);

/// PostFilter after a PreFilter rejection. troupe's PreFilters reject as
/// UnschedulableAndUnresolvable, which upstream gives every node, so no
/// partition is asked: preemption is not helpful on any of the
/// `total_nodes` (or the pod may not preempt at all). Runs the Framework's
/// PostFilter and returns its result, for act_on_preemption.
plugins::PostFilterResult post_filter_after_pre_filter(CycleSelf self, const CycleRequest& request,
                                                      int64_t total_nodes,
                                                      const plugins::preemption::PreemptionPostFilter& plugin);

/// The cluster has no node (kube-scheduler's ErrNoNodesAvailable clears the
/// nominated node): the pod's earlier nomination, if any, is void.
void clear_nomination(CycleSelf self, const CycleRequest& request);

/// Rejects the victims (uids) that wait at Permit, for the preempting plugin
/// (upstream's waitingPod.Reject(plugin, "preempted")), and returns them; the
/// others are deleted.
using RejectWaitingVictims =
    std::function<std::set<std::string>(const std::vector<std::string>& uids, const std::string& plugin)>;

/// Acts on PostFilter's verdict (see above).
void act_on_preemption(CycleSelf self, const CycleRequest& request,
                       const plugins::preemption::PreemptionPostFilter& plugin, const plugins::PostFilterResult& post,
                       const RejectWaitingVictims& reject_waiting = {});

}  // namespace troupe::actors
