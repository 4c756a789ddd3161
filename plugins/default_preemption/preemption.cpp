#include "plugins/default_preemption/preemption.hpp"

#include <algorithm>

#include "plugins/framework/fit_error.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::plugins::preemption {

namespace {

const PluginStatus* status_of(const NodeStatuses& statuses, const std::string& node) {
  for (const auto& [name, status] : statuses)
    if (name == node) return &status;
  return nullptr;
}

/// podTerminatingByPreemption: being deleted after the scheduler marked it
/// DisruptionTarget / PreemptionByScheduler.
bool terminating_by_preemption(const Pod& pod) {
  if (!pod.meta.deletion_timestamp) return false;
  for (const auto& c : pod.status.conditions)
    if (c.type == "DisruptionTarget" && c.is_true() && c.reason == "PreemptionByScheduler") return true;
  return false;
}

PreemptionResult failure(int64_t total_nodes, std::map<std::string, PluginStatus> node_statuses) {
  std::map<std::string, int64_t> counts;
  for (const auto& [node, status] : node_statuses)
    for (const auto& reason : status.reasons) ++counts[reason];
  PreemptionResult out;
  out.message = "preemption: " + fit_error_message(total_nodes, counts);
  out.status = PluginStatus::unschedulable(out.message);
  out.node_statuses = std::move(node_statuses);
  return out;
}

}  // namespace

std::optional<std::string> ineligibility_reason(const PodInfo& preemptor, const std::vector<NodeInfo>& nodes,
                                                const NodeStatuses& statuses, bool reserve_pods_preempt) {
  if (preemptor.spec().preemption_policy == PreemptionPolicy::never) return std::string(kNotEligiblePolicyNever);
  // Koordinator preempts for a Reservation only through the Reservation
  // plugin's PostFilter, which exists only with enablePreemption.
  if (!reserve_pods_preempt && reservation::is_reserve_pod(preemptor.meta()))
    return std::string(kNotEligibleReservation);
  const std::string& nominated = preemptor.pod->status.nominated_node_name;
  if (nominated.empty()) return std::nullopt;
  // A nominated node the filters call unresolvable is worth preempting elsewhere.
  const PluginStatus* status = status_of(statuses, nominated);
  if (status != nullptr && status->code == Code::unschedulable_and_unresolvable) return std::nullopt;
  for (const auto& node : nodes) {
    if (node.name() != nominated) continue;
    for (const auto& pod : node.pods())
      if (pod->priority < preemptor.priority && terminating_by_preemption(*pod->pod))
        return std::string(kNotEligibleTerminating);
  }
  return std::nullopt;
}

int64_t num_candidates(int64_t nodes, const PreemptionOptions& options) {
  int64_t n = nodes * options.min_candidate_nodes_percentage / 100;
  n = std::max<int64_t>(n, options.min_candidate_nodes_absolute);
  return std::min(n, nodes);
}

PreemptionResult preempt(const PodInfo& preemptor, std::vector<NodeInfo> nodes, const NodeStatuses& statuses,
                         DryRun& dry_run, const std::vector<PodDisruptionBudget>& pdbs,
                         const PreemptionOptions& options) {
  if (auto reason = ineligibility_reason(preemptor, nodes, statuses, options.reserve_pods_preempt)) {
    PreemptionResult out;
    out.message = "preemption: " + *reason;
    out.status = PluginStatus::unschedulable(out.message);
    return out;
  }
  const int64_t total_nodes = static_cast<int64_t>(std::max(statuses.size(), nodes.size()));
  std::map<std::string, PluginStatus> node_statuses;
  std::vector<NodeInfo*> potential;
  for (auto& node : nodes) {
    const PluginStatus* status = status_of(statuses, node.name());
    if (status != nullptr && status->code == Code::unschedulable_and_unresolvable)
      node_statuses[node.name()] = PluginStatus::unresolvable(kPreemptionNotHelpful);
    else
      potential.push_back(&node);
  }
  if (potential.empty()) return failure(total_nodes, std::move(node_statuses));

  const int64_t wanted = options.candidates_wanted > 0 ? options.candidates_wanted
                                                      : num_candidates(static_cast<int64_t>(potential.size()), options);
  std::vector<Candidate> non_violating, violating;
  for (size_t i = 0; i < potential.size(); ++i) {
    NodeInfo& node = *potential[(options.offset + i) % potential.size()];
    VictimSelection selection = select_victims_on_node(preemptor, node, dry_run, pdbs, options.victims);
    if (selection.status.ok() && !selection.victims.pods.empty()) {
      auto& bucket = selection.victims.num_pdb_violations == 0 ? non_violating : violating;
      bucket.push_back(Candidate{node.name(), std::move(selection.victims)});
      const int64_t found = static_cast<int64_t>(non_violating.size() + violating.size());
      if (!non_violating.empty() && found >= wanted) break;
      continue;
    }
    if (selection.status.ok())
      selection.status = PluginStatus::internal_error("expected at least one victim pod on node \"" + node.name() + "\"");
    node_statuses[node.name()] = std::move(selection.status);
  }
  std::vector<Candidate> candidates = std::move(non_violating);
  for (auto& c : violating) candidates.push_back(std::move(c));
  const auto chosen = pick_one_node_for_preemption(candidates, options.victims.now);
  if (!chosen) return failure(total_nodes, std::move(node_statuses));
  PreemptionResult out;
  if (options.keep_candidates) {
    out.chosen = candidates[*chosen];
    out.candidates = std::move(candidates);
  } else {
    out.chosen = std::move(candidates[*chosen]);
  }
  out.node_statuses = std::move(node_statuses);
  return out;
}

}  // namespace troupe::plugins::preemption
