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

}  // namespace troupe::sim::trace
