#pragma once
// The task distributions of a trace, counted from its original pods (before
// inflation: nothing from the replay's future). Pods are counted per resource
// key (cpu_milli, per-GPU milli, GPU count, GPU spec) with their memory; the
// rule that turns the counts into a distribution is
// plugins/deviceshare/distribution_rule.hpp, the one the scheduler's online
// learner uses too.

#include <vector>

#include "model/result.hpp"
#include "plugins/deviceshare/distribution_rule.hpp"
#include "plugins/deviceshare/fragmentation.hpp"
#include "plugins/deviceshare/task_learner.hpp"
#include "sim/trace/openb_trace.hpp"

namespace troupe::sim::trace {

/// The method's threshold: the top 95% of pods.
inline constexpr double kTypicalPopularity = plugins::deviceshare::kTypicalPopularity;

/// FGD's target workload ("typical pods", fgd-method.md §6.1): the keys
/// covering `popularity` of the pods, weights = counts.
/// Errors: no pods, popularity outside (0, 1].
Result<plugins::deviceshare::TaskDistribution> typical_tasks(const std::vector<TracePod>& trace,
                                                             double popularity = kTypicalPopularity);

/// The task distribution of troupe's Fragmentation strategy
/// (distribution_rule.hpp: fragmentation_distribution): the typical classes
/// with the median memory of their pods, the rare multi-GPU classes at half
/// their frequency, the rare classes bound to card models at their full
/// frequency, and the expected card waste at kDefaultCardWasteWeight.
/// Errors as typical_tasks.
Result<plugins::deviceshare::TaskDistribution> fragmentation_tasks(const std::vector<TracePod>& trace);

/// The pod as the online learner counts it (task_learner.hpp), the same as
/// the scheduler counts the Pod trace_objects.hpp builds from it.
plugins::deviceshare::ObservedTask observed_task(const TracePod& pod);

/// The pods counted per key, each class with the lower median of its pods'
/// memory (MiB), in key order.
std::vector<plugins::deviceshare::ClassTally> count_trace_classes(const std::vector<TracePod>& trace);

}  // namespace troupe::sim::trace
