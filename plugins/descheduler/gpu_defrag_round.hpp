#pragma once
// One GPUDefragmentation round inside a descheduling cycle: plan_gpu_defrag
// bounded by the plugin's args and by what the cycle's shared eviction
// limits (maxNoOfPodsToEvict*) leave after the plugins before it. A group of
// migrations that frees cards for one pending pod is all or nothing: when
// any of its evictions would break a per-node or per-namespace limit, the
// whole group is dropped (moving only part of it would free no card) and
// its pod reported unserved.

#include "plugins/descheduler/eviction_limits.hpp"
#include "plugins/descheduler/gpu_defrag.hpp"
#include "plugins/descheduler/gpu_defrag_args.hpp"

namespace troupe::plugins::descheduler {

/// `refusal` is the evictor/PDB/in-flight check of one pod; `limits` are
/// charged for every migration kept.
GpuDefragPlan plan_gpu_defrag_round(const std::vector<GpuNode>& nodes, const std::vector<PendingGpuPod>& pending,
                                    const GpuDefragPluginArgs& args,
                                    std::function<std::optional<std::string>(const Pod&)> refusal,
                                    EvictionLimits& limits);

}  // namespace troupe::plugins::descheduler
