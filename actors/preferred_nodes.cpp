#include "actors/preferred_nodes.hpp"

#include <algorithm>
#include <map>

#include "actors/partitioning.hpp"
#include "plugins/scheduling_hint/scheduling_hint.hpp"

namespace troupe::actors {

std::vector<std::string> nodes_to_try_first(const plugins::Framework& framework, const plugins::CycleState& state,
                                            const std::optional<std::string>& nominated_node) {
  const auto* hint = plugins::scheduling_hint::SchedulingHintPlugin::of(framework);
  std::vector<std::string> preferred = hint ? hint->preferred_nodes(state) : std::vector<std::string>{};
  if (preferred.empty()) return {};  // a nomination alone is taken from the usual round
  // A nomination outside PreFilter's nodes (the hint's nodeNames) is not tried,
  // as the usual round would not try it either.
  const auto& allowed = state.node_names;
  if (!nominated_node || (allowed && allowed->count(*nominated_node) == 0)) return preferred;
  std::vector<std::string> names{*nominated_node};
  for (auto& name : preferred)
    if (name != *nominated_node) names.push_back(std::move(name));
  return names;
}

std::vector<size_t> partitions_holding(const std::vector<std::string>& names, size_t partitions) {
  std::vector<size_t> out;
  for (const auto& name : names) out.push_back(partition_of(name, partitions));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

PreferredOutcome merge_preferred(const std::vector<std::string>& names, const std::vector<EvaluationPtr>& parts,
                                 bool scored) {
  PreferredOutcome out;
  std::map<std::string, plugins::NodeScore> found;
  for (const auto& part : parts) {
    if (!part) continue;
    if (!part->error.empty()) {
      out.error = part->error;
      return out;
    }
    if (scored) {
      for (const auto& s : part->scores) found[s.node_name] = s;
    } else {
      for (const auto& name : part->feasible) found[name].node_name = name;
    }
  }
  for (const auto& name : names) {
    auto it = found.find(name);
    if (it != found.end()) out.feasible.push_back(std::move(it->second));
  }
  return out;
}

}  // namespace troupe::actors
