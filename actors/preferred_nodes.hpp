#pragma once
// The nodes a pod asks to be tried first (SchedulingHint's preferredNodeNames),
// and what their evaluation found. Koordinator's PreferNodes step: the cycle
// filters (and scores) these nodes before the rest of the cluster; when any of
// them passes every filter, the pod goes to the best of those, and the rest of
// the cluster is not searched. Otherwise the usual round runs, as if there
// were no preference (the preferred nodes' verdicts are dropped and found
// again). A nomination (after preemption) comes first, as upstream evaluates
// the nominated node before anything else.

#include <optional>
#include <string>
#include <vector>

#include "actors/cycle_messages.hpp"
#include "actors/node_partition.hpp"
#include "plugins/framework/framework.hpp"

namespace troupe::actors {

/// The nodes to evaluate first: the pod's nominated node, if any, then its
/// preferred nodes (SchedulingHint, when the profile enables it). Empty when
/// the pod prefers none: no preferred pass then.
std::vector<std::string> nodes_to_try_first(const plugins::Framework& framework, const plugins::CycleState& state,
                                            const std::optional<std::string>& nominated_node);

/// The partitions holding at least one of `names` (indexes into the NODE actors).
std::vector<size_t> partitions_holding(const std::vector<std::string>& names, size_t partitions);

/// What the partitions' evaluations of the preferred nodes found.
struct PreferredOutcome {
  std::vector<plugins::NodeScore> feasible;  // in the order of the names tried
  std::string error;                         // a plugin's internal error, if any
};

/// Merges the partitions' answers; `scored`: the partitions scored the feasible nodes.
PreferredOutcome merge_preferred(const std::vector<std::string>& names, const std::vector<EvaluationPtr>& parts,
                                 bool scored);

}  // namespace troupe::actors
