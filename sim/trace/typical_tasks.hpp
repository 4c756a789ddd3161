#pragma once
// FGD's target workload ("typical pods", fgd-method.md §6.1): the trace's
// pods counted per resource key (cpu_milli, per-GPU milli, GPU count, GPU
// spec), keys sorted by count (ties: key descending), the most popular prefix
// covering at least `popularity` of the pods, weights = counts. Computed from
// the original trace, before inflation.

#include <vector>

#include "model/result.hpp"
#include "plugins/deviceshare/fragmentation.hpp"
#include "sim/trace/openb_trace.hpp"

namespace troupe::sim::trace {

/// The method's threshold: the top 95% of pods.
inline constexpr double kTypicalPopularity = 0.95;

/// Errors: no pods, popularity outside (0, 1].
Result<plugins::deviceshare::TaskDistribution> typical_tasks(const std::vector<TracePod>& trace,
                                                             double popularity = kTypicalPopularity);

/// How much of its frequency a multi-GPU class outside the popular prefix
/// keeps in fragmentation_tasks (experiments: 0.25-1 all help, 0.5 best).
inline constexpr double kRareMultiGpuShare = 0.5;

/// The task distribution of troupe's Fragmentation strategy, built from the
/// same original trace as typical_tasks (nothing from the replay's future):
///  - the typical classes, each with the median memory of its pods (MiB), so
///    a node whose memory is used up counts its idle GPUs as fragment;
///  - plus every multi-GPU class (2+ cards) the popular prefix left out, at
///    kRareMultiGpuShare of its frequency: rare but large tasks (8 whole GPUs
///    and 64-120 cores) otherwise find no node with all cards free;
///  - with the expected card waste at kDefaultCardWasteWeight
///    (plugins/deviceshare/card_waste.hpp), derived from these classes.
/// Errors as typical_tasks.
Result<plugins::deviceshare::TaskDistribution> fragmentation_tasks(const std::vector<TracePod>& trace);

}  // namespace troupe::sim::trace
