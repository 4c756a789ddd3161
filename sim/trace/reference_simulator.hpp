#pragma once
// The reference simulator: the FGD paper's trace experiment (fgd-method.md
// §8) on plain per-card free vectors, with no scheduler in the loop. Pods
// arrive one at a time in the seeded, inflated order (arrival.hpp); each is
// placed on the best-scoring feasible node of the policy (ties to the
// smallest node rank) or fails, and is never removed. It is the yardstick
// `troupe replay` compares the real scheduler against.

#include <cstdint>
#include <vector>

#include "model/result.hpp"
#include "sim/trace/arrival.hpp"
#include "sim/trace/openb_trace.hpp"
#include "sim/trace/replay_metrics.hpp"
#include "sim/trace/replay_policy.hpp"

namespace troupe::sim::trace {

struct ReplayOptions {
  ReplayPolicy policy = ReplayPolicy::fgd;
  uint64_t seed = 42;
  double tune_ratio = kDefaultTuneRatio;
  int64_t max_pods_per_node = 1001;
};

struct ReplayResult {
  std::vector<ReplayEvent> events;  // one per arriving pod
  size_t failed = 0;
  int64_t cluster_gpu_milli = 0;
  ReplayCurves curves;

  /// The headline metric: allocated share (%) at 100% arrived GPU request.
  std::optional<double> allocation_at(int arrived_percent) const;
};

/// Runs one replay. `trace` is the original pod list (the FGD target
/// distribution and the inflation pool come from it); `nodes` the cluster
/// (GPU nodes only, for the method). Errors: empty inputs, a node without
/// GPUs, bad options.
Result<ReplayResult> run_reference_replay(const std::vector<TraceNode>& nodes, const std::vector<TracePod>& trace,
                                          const ReplayOptions& options);

}  // namespace troupe::sim::trace
