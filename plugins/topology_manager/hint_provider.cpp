#include "plugins/topology_manager/hint_provider.hpp"

namespace troupe::plugins::topology {

PluginStatus admit(const NumaHintProviders& providers, const CycleState& state, const PodInfo& pod,
                   const NodeInfo& node, NumaPolicy policy, const std::vector<int>& numa_nodes,
                   NumaExclusive exclusive, const std::vector<NumaNodeStatus>& statuses, NumaHint& best) {
  if (policy != NumaPolicy::none && numa_nodes.size() > kMaxAlignedNumaNodes)
    return PluginStatus::unresolvable(kErrTooManyNumaNodes);
  std::vector<NumaHints> all;
  std::vector<std::string> reasons;
  for (const NumaHintProvider* provider : providers) {
    if (provider == nullptr) continue;
    NumaHints hints;
    PluginStatus status = provider->numa_hints(state, pod, node, hints);
    if (!status.ok()) {
      reasons.push_back(status.message());
      continue;
    }
    all.push_back(std::move(hints));
  }
  if (!reasons.empty()) return PluginStatus(Code::unschedulable, std::move(reasons));
  MergeResult merged = merge_hints(policy, numa_nodes, all, exclusive, statuses);
  if (!merged.admit && !merged.reasons.empty()) return PluginStatus(Code::unschedulable, std::move(merged.reasons));
  for (const NumaHintProvider* provider : providers) {
    if (provider == nullptr) continue;
    PluginStatus status = provider->try_allocate(state, pod, node, merged.hint);
    if (!status.ok()) return status;
  }
  best = merged.hint;
  return {};
}

}  // namespace troupe::plugins::topology
