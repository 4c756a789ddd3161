#include "actors/preemption_search.hpp"

#include <algorithm>

namespace troupe::actors {

plugins::preemption::PartitionPreemption evaluate_preemption(const NodePartition& partition,
                                                             const PreemptionRequest& request) {
  const plugins::PodInfo& pod = *request.cycle->pod;
  std::vector<plugins::NodeInfo> copies;
  plugins::NodeStatuses statuses;
  std::vector<std::string> no_victims;  // not copied (most nodes when priorities are equal)
  for (const auto& [name, info] : partition.nodes()) {
    if (info.node() == nullptr) continue;  // a Device or NRT without its Node: not a node yet
    auto status = request.statuses->find(name);
    // Nodes that passed the filters are not in the statuses: the pod fits
    // there already (a node that appeared since Filter); not a candidate.
    if (status == request.statuses->end()) continue;
    if (!plugins::preemption::may_have_victims(info, pod, request.search.nominated, request.search.options.victims) &&
        !(name == request.search.nominated_node && !request.search.pending_victims.empty())) {
      no_victims.emplace_back(name);
      continue;
    }
    copies.push_back(info);
    statuses.emplace_back(name, status->second);
  }
  // Node order within a partition is a hash order; sort for a repeatable search.
  std::sort(copies.begin(), copies.end(), [](const auto& a, const auto& b) { return a.name() < b.name(); });
  const auto& cycle = *request.cycle;
  auto filter = [&cycle](const plugins::PodInfo& pod, const plugins::NodeInfo& node) {
    return cycle.framework->run_filter(*cycle.state, pod, node);
  };
  auto answer = plugins::preemption::search_partition(pod, std::move(copies), statuses, filter, *request.pdbs,
                                                      request.search);
  for (const auto& name : no_victims) {
    // A node the filters called unresolvable stays "not helpful", as upstream counts it.
    const auto& status = request.statuses->at(name);
    answer.node_statuses[name] = plugins::PluginStatus::unresolvable(
        status.code == plugins::Code::unschedulable_and_unresolvable ? plugins::preemption::kPreemptionNotHelpful
                                                                     : plugins::preemption::kNoVictimsFound);
  }
  return answer;
}

}  // namespace troupe::actors
