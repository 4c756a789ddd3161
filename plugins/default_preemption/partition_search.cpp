#include "plugins/default_preemption/partition_search.hpp"

#include <algorithm>

#include "plugins/framework/fit_error.hpp"
#include "plugins/reservation/pod_annotations.hpp"

namespace troupe::plugins::preemption {

int32_t absolute_share(int32_t absolute, int64_t partition_nodes, int64_t total_nodes) {
  if (total_nodes <= 0 || partition_nodes >= total_nodes) return absolute;
  const int64_t share = (static_cast<int64_t>(absolute) * partition_nodes + total_nodes - 1) / total_nodes;
  return static_cast<int32_t>(share);
}

size_t drop_lower_priority_nominations(NodeInfo& node, int32_t priority,
                                       const std::map<std::string, int32_t>& nominated) {
  if (nominated.empty()) return 0;
  std::vector<std::string> lower;
  for (const auto& pod : node.pods()) {
    auto it = nominated.find(std::string(pod_identity(*pod)));
    if (it != nominated.end() && it->second < priority) lower.push_back(it->first);
  }
  for (const auto& uid : lower) node.remove_pod(uid);
  return lower.size();
}

bool may_have_victims(const NodeInfo& node, const PodInfo& preemptor, const std::map<std::string, int32_t>& nominated,
                      const VictimOptions& options) {
  // Every victim has a lower priority than the preemptor: most nodes are
  // ruled out here, without a look at each pod.
  if (node.lowest_pod_priority() >= preemptor.priority) return false;
  for (const auto& pod : node.pods()) {
    if (!may_be_victim(*pod, preemptor, options)) continue;
    if (!nominated.empty() && nominated.count(std::string(pod_identity(*pod))) > 0) continue;
    return true;
  }
  return false;
}

std::set<std::string> terminating_victims(const ClusterPods& pods, const std::string& node,
                                          const std::set<std::string>& victims) {
  std::set<std::string> out;
  if (victims.empty()) return out;
  auto entry = pods.nodes().find(node);
  if (entry == pods.nodes().end()) return out;
  for (const auto& pod : entry->second.pods) {
    const std::string uid(pod_identity(*pod));
    if (victims.count(uid) > 0 && pod->meta().is_terminating()) out.insert(uid);
  }
  return out;
}

bool victims_remain(const NodeInfo& node, const std::set<std::string>& victims) {
  if (victims.empty()) return false;
  for (const auto& pod : node.pods())
    if (victims.count(std::string(pod_identity(*pod))) > 0) return true;
  return false;
}

PartitionPreemption search_partition(const PodInfo& preemptor, std::vector<NodeInfo> nodes,
                                     const NodeStatuses& statuses, DryRun& dry_run,
                                     const std::vector<PodDisruptionBudget>& pdbs, const PartitionSearch& search,
                                     const PartitionSize& size) {
  PartitionPreemption out;
  if (auto reason = ineligibility_reason(preemptor, nodes, statuses, search.options.reserve_pods_preempt)) {
    out.ineligible = std::move(reason);
    return out;
  }
  for (auto& node : nodes) {
    if (!search.nominated_node.empty() && node.name() == search.nominated_node &&
        victims_remain(node, search.pending_victims)) {
      out.ineligible = std::string(kNotEligibleTerminating);
      return out;
    }
    drop_lower_priority_nominations(node, preemptor.priority, search.nominated);
  }
  if (nodes.empty()) return out;
  const auto copies = static_cast<int64_t>(nodes.size());
  const int64_t partition_nodes = size.nodes > 0 ? size.nodes : copies;
  const int64_t potential = size.nodes > 0 ? size.potential : copies;
  PreemptionOptions options = search.options;
  options.candidates_wanted =
      std::max<int64_t>({1, potential * options.min_candidate_nodes_percentage / 100,
                         absolute_share(options.min_candidate_nodes_absolute, partition_nodes, search.total_nodes)});
  PreemptionResult result = preempt(preemptor, std::move(nodes), statuses, dry_run, pdbs, options);
  out.best = std::move(result.chosen);
  out.node_statuses = std::move(result.node_statuses);
  out.candidates = std::move(result.candidates);
  return out;
}

std::vector<Candidate> gather_candidates(const std::vector<PartitionPreemption>& parts) {
  std::vector<Candidate> all;
  for (int violating = 0; violating < 2; ++violating)
    for (const auto& part : parts)
      for (const auto& candidate : part.candidates)
        if ((candidate.victims.num_pdb_violations > 0) == (violating == 1)) all.push_back(candidate);
  return all;
}

MergedPreemption merge_partition_preemptions(const std::vector<PartitionPreemption>& parts, int64_t total_nodes,
                                             Timestamp now, const std::optional<std::vector<Candidate>>& after_extenders) {
  MergedPreemption out;
  for (const auto& part : parts) {
    if (!part.ineligible) continue;
    out.keep_nomination = true;
    out.message = "preemption: " + *part.ineligible;
    return out;
  }
  std::vector<Candidate> candidates;
  for (int violating = 0; violating < 2; ++violating)
    for (const auto& part : parts)
      if (part.best && (part.best->victims.num_pdb_violations > 0) == (violating == 1))
        candidates.push_back(*part.best);
  if (!candidates.empty() && after_extenders) {
    if (auto chosen = pick_one_node_for_preemption(*after_extenders, now)) {
      out.chosen = (*after_extenders)[*chosen];
      return out;
    }
    out.keep_nomination = true;
    out.message = kNoCandidateAfterExtenders;
    return out;
  }
  if (auto chosen = pick_one_node_for_preemption(candidates, now)) {
    out.chosen = std::move(candidates[*chosen]);
    return out;
  }
  std::map<std::string, int64_t> counts;
  for (const auto& part : parts) {
    for (const auto& [node, status] : part.node_statuses)
      for (const auto& reason : status.reasons) ++counts[reason];
    for (const auto& [reason, count] : part.ruled_out) counts[reason] += count;
  }
  out.message = "preemption: " + fit_error_message(total_nodes, counts);
  return out;
}

}  // namespace troupe::plugins::preemption
