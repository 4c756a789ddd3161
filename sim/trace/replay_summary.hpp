#pragma once
// Many seeds of the reference replay summarised as the method reports them
// (fgd-method.md §10): per seed the allocation at 100% and 130% arrived, and
// their medians over the seeds (42..51 in the published tables).

#include <cstdint>
#include <optional>
#include <vector>

#include "model/result.hpp"
#include "sim/trace/reference_simulator.hpp"

namespace troupe::sim::trace {

/// The published seeds, 42..51.
std::vector<uint64_t> published_seeds();

/// Median of values (mean of the middle two for an even count); nullopt when empty.
std::optional<double> median(std::vector<double> values);

struct ReplaySummary {
  ReplayPolicy policy = ReplayPolicy::fgd;
  std::vector<uint64_t> seeds;
  std::vector<double> allocation_at_100;  // per seed, same order
  std::vector<double> allocation_at_130;
  std::vector<size_t> failed;             // pods that found no node, per seed
  double median_at_100 = 0;
  double median_at_130 = 0;
};

/// Runs one replay per seed. Errors: no seeds, a replay error, or a run whose
/// curve has no value at 100% or 130% (the arrivals never got there).
Result<ReplaySummary> summarize_reference_replays(const std::vector<TraceNode>& nodes,
                                                  const std::vector<TracePod>& trace, ReplayPolicy policy,
                                                  const std::vector<uint64_t>& seeds);

}  // namespace troupe::sim::trace
