#include "plugins/descheduler/gpu_defrag_round.hpp"

#include <algorithm>

namespace troupe::plugins::descheduler {

namespace {

std::optional<int32_t> tighter(std::optional<int32_t> a, std::optional<uint32_t> b) {
  if (!b) return a;
  const int32_t bound = static_cast<int32_t>(std::min<uint32_t>(*b, INT32_MAX));
  return a ? std::min(*a, bound) : bound;
}

/// Why the cycle's limits refuse the group, or nullopt; checked on a copy
/// so a refused group charges nothing.
std::optional<std::string> limits_refusal(const FreedCards& group, const EvictionLimits& limits) {
  EvictionLimits trial = limits;
  for (const GpuMove& move : group.moves) {
    if (auto refusal = trial.refusal(move.from_node, move.pod->meta.namespace_name)) return refusal;
    trial.record(move.from_node, move.pod->meta.namespace_name);
  }
  return std::nullopt;
}

}  // namespace

GpuDefragPlan plan_gpu_defrag_round(const std::vector<GpuNode>& nodes, const std::vector<PendingGpuPod>& pending,
                                    const GpuDefragPluginArgs& args,
                                    std::function<std::optional<std::string>(const Pod&)> refusal,
                                    EvictionLimits& limits) {
  GpuDefragArgs planner_args;
  planner_args.max_migrations_total = tighter(args.max_migrations_per_cycle, limits.total_left());
  planner_args.max_migrations_per_node = args.max_migrations_per_node;
  planner_args.migration_refusal = std::move(refusal);
  GpuDefragPlan planned = plan_gpu_defrag(nodes, pending, planner_args);

  GpuDefragPlan kept;
  kept.already_fit = std::move(planned.already_fit);
  kept.unserved = std::move(planned.unserved);
  for (FreedCards& group : planned.freed) {
    if (auto refused = limits_refusal(group, limits)) {
      kept.unserved.emplace_back(group.for_pod, "freeing cards on " + group.node + " would break a limit: " + *refused);
      continue;
    }
    for (const GpuMove& move : group.moves) limits.record(move.from_node, move.pod->meta.namespace_name);
    kept.migrations.insert(kept.migrations.end(), group.moves.begin(), group.moves.end());
    kept.freed.push_back(std::move(group));
  }
  return kept;
}

}  // namespace troupe::plugins::descheduler
