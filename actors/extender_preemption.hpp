#pragma once
// Extenders with a preemptVerb (kube-scheduler's Evaluator.callExtenders):
// once the partitions have found the preemption candidates, each interested
// extender in turn gets the map node -> victims and answers the nodes it
// accepts with the victims it wants there (by uid); the next extender gets
// that answer, and the scheduler then picks among what is left
// (pickOneNodeForPreemption).
//
//   an extender's error    skipped when it is ignorable; otherwise the
//                          preemption fails with it (the pod keeps any
//                          earlier nomination)
//   a node without victims dropped when the extender is ignorable; otherwise
//                          "expected at least one victim pod on node "n""
//   a uid not on the node  an error of that extender (upstream's
//                          convertPodUIDToPod): "extender: URL claims to
//                          preempt pod (UID: u) on node: n, but the pod is
//                          not found on that node"
//   a node not asked about an error of that extender. Upstream accepts any
//                          node of the cluster; the protocol's contract is "a
//                          subset of the given nodes", and only those were
//                          dry-run.
//
// Blocking (HTTP): run call_preemption_extenders on an I/O thread.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "actors/extenders.hpp"
#include "plugins/default_preemption/candidate_selection.hpp"
#include "plugins/framework/cluster_pods.hpp"

namespace troupe::actors {

/// The pods an extender may name as victims, by candidate node: a snapshot
/// taken on the cycle actor before the call (pods only, no nomination
/// placeholders or reservations).
using CandidateNodePods = std::map<std::string, std::vector<std::shared_ptr<const plugins::PodInfo>>>;
/// The victims map as it goes from one extender to the next.
using VictimsByNode = std::map<std::string, plugins::preemption::Victims>;

/// What an extender may name as victims on each candidate's node: the
/// cluster's pods there (not nomination placeholders, not reservations'
/// reserve pods: neither is a pod to delete), and the candidate's own
/// victims, should the cycle's view of the node lag the partition's.
CandidateNodePods pods_on_candidates(const plugins::ClusterPods& cluster,
                                     const std::vector<plugins::preemption::Candidate>& candidates);

/// One extender's answer as victims: each node one of `asked` (the map it
/// was sent), the uids resolved against `pods`. Errors as above;
/// `extender_url` names the extender in them.
Result<VictimsByNode> victims_from_answer(const std::map<std::string, watch::MetaVictims>& answer,
                                          const VictimsByNode& asked, const CandidateNodePods& pods,
                                          const std::string& extender_url);

/// Drops (ignorable) or rejects (otherwise) the nodes answered without victims.
Status check_victims_present(VictimsByNode& victims, bool ignorable);

/// The candidates after every interested extender with a preemptVerb; the
/// input order when none answered, else by node name. An error: the
/// preemption fails with it.
Result<std::vector<plugins::preemption::Candidate>> call_preemption_extenders(
    const Extenders& extenders, const Pod& pod, std::vector<plugins::preemption::Candidate> candidates,
    const CandidateNodePods& pods);

}  // namespace troupe::actors
