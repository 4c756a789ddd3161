#include "plugins/deviceshare/device_scorer.hpp"

#include <algorithm>

namespace troupe::plugins::deviceshare {

namespace {

constexpr int64_t kMaxScore = 100;

int64_t ceil_units(int64_t milli) { return milli / 1000 + (milli % 1000 > 0 ? 1 : 0); }

int64_t least_requested(int64_t requested, int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return (capacity - requested) * kMaxScore / capacity;
}

int64_t most_requested(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  return std::min(requested, capacity) * kMaxScore / capacity;
}

}  // namespace

DeviceScorer::DeviceScorer(ScoringStrategy strategy, const std::vector<WeightedResource>& resources)
    : strategy_(strategy) {
  for (const auto& wr : resources) {
    auto r = device_resource_of(wr.name);
    if (!r) continue;
    auto it = std::find_if(weights_.begin(), weights_.end(), [&](const auto& p) { return p.first == *r; });
    if (it != weights_.end()) it->second = wr.weight;
    else weights_.emplace_back(*r, wr.weight);
  }
}

int64_t DeviceScorer::score(const DeviceAmounts& request, const DeviceAmounts& total,
                            const DeviceAmounts& free) const {
  int64_t node_score = 0;
  int64_t weight_sum = 0;
  for (const auto& [r, weight] : weights_) {
    const int64_t total_milli = total.milli(r);
    if (total_milli == 0) continue;
    const int64_t free_milli = free.milli(r);
    int64_t requested_milli = total_milli;
    if (total_milli >= free_milli) requested_milli = total_milli - free_milli + request.milli(r);
    const int64_t capacity = ceil_units(total_milli);
    const int64_t requested = ceil_units(requested_milli);
    const int64_t s = strategy_ == ScoringStrategy::least_allocated ? least_requested(requested, capacity)
                                                                      : most_requested(requested, capacity);
    node_score += s * weight;
    weight_sum += weight;
  }
  return weight_sum == 0 ? 0 : node_score / weight_sum;
}

}  // namespace troupe::plugins::deviceshare
