#pragma once
// The arrival sequence of one replay (fgd-method.md §3, §8), as a pure
// function of (trace, nodes, seed, ratio):
//  1. the pods sorted by name, one draw discarded, then shuffled;
//  2. inflated ("tuned") until the GPU request reaches ratio x the cluster's
//     GPU capacity: clones of pods sampled with replacement from the
//     name-sorted trace, named <name>-tuned-<i>, appended in sampling order;
//     sampling stops at the first GPU clone whose per-GPU milli would cross
//     the target. A trace already above the target is thinned instead, by
//     removing randomly chosen pods until it is at or below it;
//  3. ten draws discarded (the simulator's informers consume them), then a
//     random permutation of the nodes in name order: each node's rank is its
//     tie-break prefix (smaller rank wins equal scores).
// troupe's stream (TraceRng) is not Go's math/rand, so orders differ from the
// published runs while following the same procedure.

#include <cstdint>
#include <vector>

#include "model/result.hpp"
#include "sim/trace/openb_trace.hpp"

namespace troupe::sim::trace {

/// The method's inflation target: 130% of the cluster's GPU capacity.
inline constexpr double kDefaultTuneRatio = 1.3;

struct Arrival {
  std::vector<TracePod> pods;        // in arrival order
  size_t original_count = 0;         // pods of the trace kept (the rest are clones)
  int64_t total_gpu_milli = 0;       // sum of the arrivals' GPU requests
  int64_t target_gpu_milli = 0;      // ratio x cluster GPU capacity
  std::vector<uint32_t> node_rank;   // per node, in the order `nodes` were given
};

/// Errors: no pods, no nodes, a ratio that is not > 0, repeated pod names.
/// A trace without GPU pods is never inflated (no clone could reach the target).
Result<Arrival> build_arrival(const std::vector<TracePod>& trace, const std::vector<TraceNode>& nodes, uint64_t seed,
                              double tune_ratio = kDefaultTuneRatio);

}  // namespace troupe::sim::trace
