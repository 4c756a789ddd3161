#include "sim/trace/replay_summary.hpp"

#include <algorithm>
#include <string>

namespace troupe::sim::trace {

std::vector<uint64_t> published_seeds() {
  std::vector<uint64_t> seeds;
  for (uint64_t s = 42; s <= 51; ++s) seeds.push_back(s);
  return seeds;
}

std::optional<double> median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Result<ReplaySummary> summarize_reference_replays(const std::vector<TraceNode>& nodes,
                                                  const std::vector<TracePod>& trace, ReplayPolicy policy,
                                                  const std::vector<uint64_t>& seeds) {
  if (seeds.empty()) return Error{"replay summary: no seeds"};
  ReplaySummary summary;
  summary.policy = policy;
  summary.seeds = seeds;
  for (uint64_t seed : seeds) {
    ReplayOptions options;
    options.policy = policy;
    options.seed = seed;
    auto result = run_reference_replay(nodes, trace, options);
    if (!result) return Error{"seed " + std::to_string(seed) + ": " + result.message()};
    auto at100 = result->allocation_at(100), at130 = result->allocation_at(130);
    if (!at100 || !at130)
      return Error{"seed " + std::to_string(seed) + ": the arrivals never reached 100% and 130% of GPU capacity"};
    summary.allocation_at_100.push_back(*at100);
    summary.allocation_at_130.push_back(*at130);
    summary.failed.push_back(result->failed);
  }
  summary.median_at_100 = *median(summary.allocation_at_100);
  summary.median_at_130 = *median(summary.allocation_at_130);
  return summary;
}

}  // namespace troupe::sim::trace
