#include "actors/preemption_search.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace troupe::actors {

namespace {

namespace pre = plugins::preemption;

/// The nodes worth a victim search, copied, with their filter codes; the
/// others only counted by why they are not.
struct SearchInput {
  std::vector<plugins::NodeInfo> copies;
  plugins::NodeStatuses statuses;
  std::map<std::string, int64_t> ruled_out;
};

void consider(const plugins::NodeInfo& info, plugins::Code code, const PreemptionRequest& request,
              SearchInput& in) {
  const auto& search = request.search;
  const bool pending_here = info.name() == search.nominated_node && !search.pending_victims.empty();
  if (!pending_here && !pre::may_have_victims(info, *request.cycle->pod, search.nominated, search.options.victims)) {
    // A node the filters called unresolvable stays "not helpful", as upstream counts it.
    ++in.ruled_out[code == plugins::Code::unschedulable_and_unresolvable ? pre::kPreemptionNotHelpful
                                                                         : pre::kNoVictimsFound];
    return;
  }
  in.copies.push_back(info);
  // Only the code of a status matters to the search (unresolvable or not).
  in.statuses.emplace_back(info.name(), plugins::PluginStatus(code));
}

/// The partition's nodes, and those the filters did not call unresolvable:
/// the copies with a resolvable code and the nodes ruled out for want of a
/// victim (upstream's potential nodes count them too).
pre::PartitionSize size_of(const NodePartition& partition, const SearchInput& in) {
  pre::PartitionSize size;
  size.nodes = static_cast<int64_t>(partition.node_count());
  for (const auto& [name, status] : in.statuses)
    if (status.code != plugins::Code::unschedulable_and_unresolvable) ++size.potential;
  if (auto it = in.ruled_out.find(std::string(pre::kNoVictimsFound)); it != in.ruled_out.end())
    size.potential += it->second;
  return size;
}

}  // namespace

plugins::preemption::PartitionPreemption evaluate_preemption(const NodePartition& partition, uint64_t round_cycle,
                                                             const PreemptionRequest& request) {
  const auto& cycle = *request.cycle;
  if (round_cycle != cycle.cycle) {
    // The cycle asks right after its own round and starts no other round
    // before the answer, so this cannot happen; answer "nothing here" rather
    // than search with another pod's verdicts.
    spdlog::error("preemption search of cycle {} reached a partition whose last round was cycle {}", cycle.cycle,
                  round_cycle);
    return {};
  }
  SearchInput in;
  // Nodes that passed the filters are not candidates: the pod fits there already.
  // A node whose Node object went since the round is no candidate either.
  for (const auto& rejection : partition.last_rejections())
    if (rejection.node->node() != nullptr) consider(*rejection.node, rejection.code, request, in);
  for (const auto& [name, status] : *request.extender_statuses) {
    const plugins::NodeInfo* info = partition.find(name);
    if (info != nullptr && info->node() != nullptr) consider(*info, status.code, request, in);
  }
  // Node order within a partition is a hash order; sort for a repeatable search.
  std::sort(in.copies.begin(), in.copies.end(), [](const auto& a, const auto& b) { return a.name() < b.name(); });
  pre::FrameworkDryRun dry_run(*cycle.framework, *cycle.state);
  auto answer = pre::search_partition(*cycle.pod, std::move(in.copies), in.statuses, dry_run, *request.pdbs,
                                      request.search, size_of(partition, in));
  answer.ruled_out = std::move(in.ruled_out);
  return answer;
}

}  // namespace troupe::actors
