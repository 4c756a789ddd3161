#pragma once
// AtomicHistogram: a duration histogram that many threads observe into with
// relaxed atomic increments (no lock, no allocation), drained now and then
// into the MetricsRegistry. Used where observations are too frequent for the
// registry's mutex: plugin calls on every node, every actor message.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

namespace troupe::actors {

/// What drain() hands over: per-bucket counts (not cumulative; the last entry
/// counts observations above every bound), their sum and count.
struct HistogramDelta {
  std::vector<uint64_t> bucket_counts;
  double sum = 0;
  uint64_t count = 0;
};

class AtomicHistogram {
 public:
  /// `bounds`: ascending upper bounds, shared by every histogram of a family.
  explicit AtomicHistogram(std::shared_ptr<const std::vector<double>> bounds)
      : bounds_(std::move(bounds)), counts_(new std::atomic<uint64_t>[bounds_->size() + 1]) {
    for (size_t i = 0; i <= bounds_->size(); ++i) counts_[i].store(0, std::memory_order_relaxed);
  }

  void observe(double seconds) {
    const auto& b = *bounds_;
    const size_t bucket = static_cast<size_t>(std::lower_bound(b.begin(), b.end(), seconds) - b.begin());
    counts_[bucket].fetch_add(1, std::memory_order_relaxed);
    // Nanoseconds keep the sum an integer, so a plain fetch_add suffices.
    const double nanos = std::max(0.0, seconds) * 1e9;
    sum_nanos_.fetch_add(static_cast<uint64_t>(std::llround(nanos)), std::memory_order_relaxed);
  }

  /// Takes everything observed since the last drain. The count is the sum of
  /// the bucket counts, so a concurrent observe() is never half-counted in
  /// the buckets (its share of the sum may land in the next drain).
  HistogramDelta drain() {
    HistogramDelta delta;
    delta.bucket_counts.resize(bounds_->size() + 1);
    for (size_t i = 0; i <= bounds_->size(); ++i) {
      delta.bucket_counts[i] = counts_[i].exchange(0, std::memory_order_relaxed);
      delta.count += delta.bucket_counts[i];
    }
    delta.sum = static_cast<double>(sum_nanos_.exchange(0, std::memory_order_relaxed)) / 1e9;
    return delta;
  }

  const std::vector<double>& bounds() const { return *bounds_; }

 private:
  std::shared_ptr<const std::vector<double>> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> counts_;
  std::atomic<uint64_t> sum_nanos_{0};
};

}  // namespace troupe::actors
