#pragma once
// DeviceShare's scoring strategy (scoring.go resourceAllocationScorer): the
// configured LeastAllocated (spread) or MostAllocated (binpack) over weighted
// device resources. The same formula ranks one device (to order devices
// during allocation) and a whole node (its candidate devices summed):
//   requested   = total − free + request   (total when free > total)
//   LeastAllocated  (cap − req) × 100 / cap, 0 when req > cap
//   MostAllocated   min(req, cap) × 100 / cap
//   score = Σ score × weight / Σ weight over the weighted names with total > 0
// Amounts enter as resource.Quantity.Value() (whole units, rounded up).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "plugins/deviceshare/device_amounts.hpp"

namespace troupe::plugins::deviceshare {

/// fragmentation: troupe's fragmentation-aware strategy (fragmentation_scoring.hpp)
/// scores nodes and picks shared cards itself; where DeviceScorer still ranks
/// devices under it (RDMA, FPGA, cards it leaves to the allocator) it packs
/// as MostAllocated does.
enum class ScoringStrategy { least_allocated, most_allocated, fragmentation };

struct WeightedResource {
  std::string name;
  int64_t weight = 1;
};

class DeviceScorer {
 public:
  DeviceScorer() = default;
  /// Names that are not device resources never have capacity and never score.
  DeviceScorer(ScoringStrategy strategy, const std::vector<WeightedResource>& resources);

  ScoringStrategy strategy() const { return strategy_; }

  /// scoreDevice(request, total, free).
  int64_t score(const DeviceAmounts& request, const DeviceAmounts& total, const DeviceAmounts& free) const;

 private:
  ScoringStrategy strategy_ = ScoringStrategy::least_allocated;
  std::vector<std::pair<DeviceResource, int64_t>> weights_;  // last weight of a name wins
};

}  // namespace troupe::plugins::deviceshare
