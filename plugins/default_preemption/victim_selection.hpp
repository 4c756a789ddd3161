#pragma once
// SelectVictimsOnNode (kube-scheduler defaultpreemption, with Koordinator's
// non-preemptible rule): the fewest pods to evict from one node so that the
// preemptor fits.
//   1. remove every pod of lower priority (Koordinator: except pods labelled
//      scheduling.koordinator.sh/disable-preemptible: "true"; troupe: except
//      the reserve pods of Available reservations, which are no pods); none ->
//      UnschedulableAndUnresolvable "No preemption victims found for incoming pod";
//   2. the filters must pass on the node without them, else their status;
//   3. order the removed pods most important first, split PDB-violating /
//      non-violating, and add them back one at a time (violating first): a
//      pod stays when the filters still pass, else it is a victim (violating
//      victims counted).
// Each removal and reprieve is told to the dry run (dry_run.hpp), so that
// PreFilter data about other pods follows the node copy.

#include <vector>

#include "model/pod_disruption_budget.hpp"
#include "plugins/default_preemption/dry_run.hpp"
#include "plugins/default_preemption/pdb_violation.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/status.hpp"

namespace troupe::plugins::preemption {

inline constexpr const char* kNoVictimsFound = "No preemption victims found for incoming pod";

struct Victims {
  /// In the order they were chosen (most important first within each group).
  PodList pods;
  int64_t num_pdb_violations = 0;
};

struct VictimOptions {
  /// Koordinator's rule: pods labelled disable-preemptible are never victims.
  bool respect_disable_preemptible = true;
  Timestamp now{};
};

/// Whether `pod` may be evicted for `preemptor` (step 1 above).
bool may_be_victim(const PodInfo& pod, const PodInfo& preemptor, const VictimOptions& options);

struct VictimSelection {
  PluginStatus status;
  Victims victims;
};

/// `node` is the caller's copy and is left without the victims.
VictimSelection select_victims_on_node(const PodInfo& preemptor, NodeInfo& node, DryRun& dry_run,
                                       const std::vector<PodDisruptionBudget>& pdbs, const VictimOptions& options);

}  // namespace troupe::plugins::preemption
