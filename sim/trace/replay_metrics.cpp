#include "sim/trace/replay_metrics.hpp"

#include <cmath>

namespace troupe::sim::trace {

namespace {

// Python's round(x, 2) on the scripts' floats, to the nearest hundredth.
double round2(double x) { return std::round(x * 100.0) / 100.0; }

// Python's round(x, 0): ties to even, which is nearbyint under the default
// rounding mode (nothing in troupe changes it).
int64_t round_half_even(double x) { return static_cast<int64_t>(std::nearbyint(x)); }

struct Bin {
  double allocation = 0, fragmentation_ratio = 0, fragmentation_amount = 0;
  size_t count = 0;
  void add(const Bin& other) {
    allocation += other.allocation;
    fragmentation_ratio += other.fragmentation_ratio;
    fragmentation_amount += other.fragmentation_amount;
    count += other.count;
  }
};

}  // namespace

ReplayCurves replay_curves(const std::vector<ReplayEvent>& events, int64_t cluster_gpu_milli) {
  const double capacity = static_cast<double>(cluster_gpu_milli);
  // Bins -1..131 so that the neighbour fallback never reads out of range.
  std::vector<Bin> bins(kCurvePoints + 2);
  for (const auto& e : events) {
    const int64_t k = round_half_even(static_cast<double>(e.arrived_gpu_milli) / capacity * 100.0);
    if (k < -1 || k > kCurvePoints) continue;
    Bin& bin = bins[static_cast<size_t>(k + 1)];
    bin.allocation += round2(static_cast<double>(e.allocated_gpu_milli) / capacity * 100.0);
    bin.fragmentation_ratio += e.idle_gpu_milli > 0 ? 100.0 * e.fragmentation_milli / static_cast<double>(e.idle_gpu_milli) : 0.0;
    bin.fragmentation_amount += e.fragmentation_milli;
    ++bin.count;
  }
  ReplayCurves curves;
  for (int k = 0; k < kCurvePoints; ++k) {
    Bin v = bins[static_cast<size_t>(k + 1)];
    if (v.count == 0) {
      for (int j = k - 1; j <= k + 1; ++j) v.add(bins[static_cast<size_t>(j + 1)]);
    }
    if (v.count == 0) {
      curves.allocation.emplace_back();
      curves.fragmentation_ratio.emplace_back();
      curves.fragmentation_amount.emplace_back();
      continue;
    }
    const double n = static_cast<double>(v.count);
    curves.allocation.emplace_back(round2(v.allocation / n));
    curves.fragmentation_ratio.emplace_back(v.fragmentation_ratio / n);
    curves.fragmentation_amount.emplace_back(round2(100.0 * (v.fragmentation_amount / n) / capacity));
  }
  return curves;
}

}  // namespace troupe::sim::trace
