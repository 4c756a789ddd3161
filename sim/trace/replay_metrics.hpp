#pragma once
// The method's metrics (fgd-method.md §7): one event per pod attempt with the
// cumulative arrived GPU request, the allocated GPU milli and the cluster's
// fragmentation; curves over arrived percent k = 0..130 as the analysis
// scripts discretise them.

#include <cstdint>
#include <optional>
#include <vector>

namespace troupe::sim::trace {

struct ReplayEvent {
  int64_t arrived_gpu_milli = 0;    // requests of every pod attempted so far, this one and failed ones included
  int64_t allocated_gpu_milli = 0;  // milli allocated in the cluster after this attempt
  double fragmentation_milli = 0;   // sum of the nodes' F (FGD measure)
  int64_t idle_gpu_milli = 0;       // unallocated milli in the cluster
  bool placed = false;
};

inline constexpr int kCurvePoints = 131;  // arrived percent 0..130

struct ReplayCurves {
  /// Allocated share of GPU capacity (%), rounded to 0.01 as the scripts do.
  std::vector<std::optional<double>> allocation;
  /// Fragmentation as % of the idle GPU milli (unrounded mean).
  std::vector<std::optional<double>> fragmentation_ratio;
  /// Fragmentation as % of GPU capacity, rounded to 0.01.
  std::vector<std::optional<double>> fragmentation_amount;
};

/// Events are binned by round-half-even(arrived / capacity * 100); bin k takes
/// the events of bin k, or if none those of bins k-1..k+1; a bin still empty
/// has no value. `cluster_gpu_milli` must be > 0.
ReplayCurves replay_curves(const std::vector<ReplayEvent>& events, int64_t cluster_gpu_milli);

}  // namespace troupe::sim::trace
