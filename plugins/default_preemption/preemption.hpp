#pragma once
// The preemption evaluator of kube-scheduler (framework/preemption Evaluator.Preempt
// and DefaultPreemption), pure: given the preemptor, copies of the candidate
// nodes, the filter statuses that rejected them, the dry run (filters and
// PreFilterExtensions, dry_run.hpp) and the PDBs, it says which node to
// nominate and which pods to evict there. It does not evict, nominate or talk
// to the API server.
//
//   eligibility   preemptionPolicy Never -> "not eligible due to
//                 preemptionPolicy=Never."; a nominated node (not rejected as
//                 unresolvable) with a lower-priority pod terminating by
//                 preemption -> "not eligible due to a terminating pod on the
//                 nominated node."; a Reservation's reserve pod unless
//                 ReservationArgs.enablePreemption -> "not eligible: a
//                 Reservation does not preempt."
//   candidates    nodes whose status is not UnschedulableAndUnresolvable
//                 ("Preemption is not helpful for scheduling"), tried in
//                 order from `offset`, until enough are found
//                 (max(numNodes·percentage/100, absolute), at most numNodes;
//                 at least one without PDB violations)
//   choice        pick_one_node_for_preemption over non-violating then
//                 violating candidates
// Failure messages are FitErrors prefixed "preemption: ", e.g.
// "preemption: 0/3 nodes are available: 1 No preemption victims found for
// incoming pod, 2 Preemption is not helpful for scheduling."

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plugins/default_preemption/candidate_selection.hpp"
#include "plugins/framework/plugin.hpp"

namespace troupe::plugins::preemption {

inline constexpr const char* kNotEligiblePolicyNever = "not eligible due to preemptionPolicy=Never.";
inline constexpr const char* kNotEligibleTerminating = "not eligible due to a terminating pod on the nominated node.";
inline constexpr const char* kNotEligibleReservation = "not eligible: a Reservation does not preempt.";
inline constexpr const char* kPreemptionNotHelpful = "Preemption is not helpful for scheduling";

struct PreemptionOptions {
  int32_t min_candidate_nodes_percentage = 10;
  int32_t min_candidate_nodes_absolute = 100;
  /// Where the round-robin over candidate nodes starts (upstream: random).
  size_t offset = 0;
  VictimOptions victims;
  /// ReservationArgs.enablePreemption of the profile: reserve pods may preempt.
  bool reserve_pods_preempt = false;
  /// Return every candidate found, not only the chosen one: extenders with a
  /// preemptVerb narrow the whole list before the choice (callExtenders).
  bool keep_candidates = false;
  /// How many candidates to find before choosing; 0: computed from the nodes
  /// given (num_candidates). A partition sets its share of the cluster's.
  int64_t candidates_wanted = 0;
};

struct PreemptionResult {
  /// Success with a nominated node, or Unschedulable with `message`.
  PluginStatus status;
  std::optional<Candidate> chosen;
  /// "preemption: ..." for the FitError; empty on success.
  std::string message;
  /// Why each node could not be a candidate.
  std::map<std::string, PluginStatus> node_statuses;
  /// With PreemptionOptions::keep_candidates: every candidate found,
  /// non-violating ones first (the chosen one among them).
  std::vector<Candidate> candidates;
};

/// The reason the preemptor may not preempt; nullopt when it may.
/// `reserve_pods_preempt`: PreemptionOptions::reserve_pods_preempt.
std::optional<std::string> ineligibility_reason(const PodInfo& preemptor, const std::vector<NodeInfo>& nodes,
                                                const NodeStatuses& statuses, bool reserve_pods_preempt = false);

/// calculateNumCandidates.
int64_t num_candidates(int64_t nodes, const PreemptionOptions& options);

/// `nodes` are copies the caller may discard (victims are removed from
/// them); `statuses` holds the filter status of every node that failed.
PreemptionResult preempt(const PodInfo& preemptor, std::vector<NodeInfo> nodes, const NodeStatuses& statuses,
                         DryRun& dry_run, const std::vector<PodDisruptionBudget>& pdbs,
                         const PreemptionOptions& options);

}  // namespace troupe::plugins::preemption
