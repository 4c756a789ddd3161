#pragma once
// The preemption search split across node partitions. Each partition runs
// kube-scheduler's candidate search (preempt()) on copies of its own nodes
// and answers with its best candidate; the cycle merges the answers with the
// same pickOneNodeForPreemption rules. The rules order candidates
// lexicographically, so the best of the partitions' bests is the best overall
// (ties: the earlier partition, non-violating before violating).
//
// Nominated pods: a pod nominated to a node after preempting is held there as
// a placeholder (its request stays taken while its victims terminate). As
// upstream's addNominatedPods, a preemptor only sees the placeholders of pods
// of priority >= its own; lower ones are taken out of the node copies, and
// never become victims.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "plugins/default_preemption/preemption.hpp"
#include "plugins/framework/cluster_pods.hpp"

namespace troupe::plugins::preemption {

/// One partition's answer.
struct PartitionPreemption {
  /// This partition's pick, if any of its nodes can host the preemptor after evictions.
  std::optional<Candidate> best;
  /// Why each of the nodes it searched could not be a candidate.
  std::map<std::string, PluginStatus> node_statuses;
  /// Set when the preemptor may not preempt at all (seen on this partition's nodes).
  std::optional<std::string> ineligible;
  /// Reason -> count of the nodes ruled out before the search (no pod there
  /// the preemptor may evict), counted rather than listed: usually most nodes.
  std::map<std::string, int64_t> ruled_out;
  /// Every candidate it found, when the search asked for them
  /// (PreemptionOptions::keep_candidates: extenders will narrow them).
  std::vector<Candidate> candidates;
};

/// What a partition needs besides its nodes.
struct PartitionSearch {
  PreemptionOptions options;
  /// Nodes in the whole cluster (to share minCandidateNodesAbsolute out).
  int64_t total_nodes = 0;
  /// uid -> priority of every pod held as a nomination placeholder.
  std::map<std::string, int32_t> nominated;
  /// The preemptor's own earlier nomination and the victims it chose there:
  /// while any of them is still on that node, it must not preempt again.
  std::string nominated_node;
  std::set<std::string> pending_victims;
};

/// The size of a partition, for its share of the candidates to find.
/// Upstream counts candidates against every node the filters did not call
/// unresolvable ("potential nodes"), whether it holds a victim or not; a
/// partition copies only the nodes with one. 0: the nodes given.
struct PartitionSize {
  int64_t nodes = 0;      // every node of the partition
  int64_t potential = 0;  // of those, the ones not unschedulable-and-unresolvable
};

/// This partition's share of minCandidateNodesAbsolute: proportional to its
/// size, rounded up (so the shares add up to at least the whole).
int32_t absolute_share(int32_t absolute, int64_t partition_nodes, int64_t total_nodes);

/// Takes out of `node` the placeholders of nominated pods of lower priority
/// than `priority`; returns how many.
size_t drop_lower_priority_nominations(NodeInfo& node, int32_t priority,
                                       const std::map<std::string, int32_t>& nominated);

/// Whether `node` holds any pod the preemptor may evict (lower priority, not
/// disable-preemptible when that is respected, not a nomination placeholder).
/// Nodes without one need no copy: select_victims_on_node would answer
/// kNoVictimsFound.
bool may_have_victims(const NodeInfo& node, const PodInfo& preemptor, const std::map<std::string, int32_t>& nominated,
                      const VictimOptions& options);

/// Of `victims` (uids) a preemption chose on `node`, those the cluster view
/// shows terminating. Upstream's podTerminatingByPreemption needs a
/// deletionTimestamp: a victim whose deletion failed (RBAC, a webhook, the
/// server) does not hold its preemptor back for good.
std::set<std::string> terminating_victims(const ClusterPods& pods, const std::string& node,
                                          const std::set<std::string>& victims);

/// Whether any of `victims` (uids) is still accounted on `node`.
bool victims_remain(const NodeInfo& node, const std::set<std::string>& victims);

/// The search on one partition: `nodes` are copies (changed freely),
/// `statuses` the Filter statuses of those nodes.
PartitionPreemption search_partition(const PodInfo& preemptor, std::vector<NodeInfo> nodes,
                                     const NodeStatuses& statuses, DryRun& dry_run,
                                     const std::vector<PodDisruptionBudget>& pdbs, const PartitionSearch& search,
                                     const PartitionSize& size = {});

/// The merged verdict of every partition.
struct MergedPreemption {
  /// The chosen node and its victims; nullopt when preemption cannot help.
  std::optional<Candidate> chosen;
  /// Nothing chosen, and the preemptor's earlier nomination (if any) stays:
  /// some partition found it not eligible, or the extenders left no
  /// candidate (upstream returns no PostFilterResult in both cases). Without
  /// it, a failure clears the nomination (no candidate anywhere).
  bool keep_nomination = false;
  /// "preemption: ..." when nothing was chosen; empty on success.
  std::string message;
};

inline constexpr const char* kNoCandidateAfterExtenders = "preemption: no candidate node for preemption";

/// Every partition's candidates (PartitionPreemption::candidates) in
/// upstream's order for the extenders: the non-violating ones, then the
/// violating ones, each in partition order.
std::vector<Candidate> gather_candidates(const std::vector<PartitionPreemption>& parts);

/// `after_extenders`: when extenders with a preemptVerb ran, the candidates
/// they left (callExtenders); the choice is made among those only.
MergedPreemption merge_partition_preemptions(const std::vector<PartitionPreemption>& parts, int64_t total_nodes,
                                             Timestamp now,
                                             const std::optional<std::vector<Candidate>>& after_extenders = {});

}  // namespace troupe::plugins::preemption
