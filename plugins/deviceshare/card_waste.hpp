#pragma once
// Expected waste of one card (troupe's Fragmentation strategy; the term that
// makes the card choice pairing-aware). FGD's measure asks "which of the
// typical tasks cannot use this card *now*?" and so counts a card with 530
// milli left as mostly fragment (810- and 1000-milli tasks cannot use it),
// although the next 470-milli share fits there and leaves only 60. The
// expected waste looks further: fill the card with tasks drawn from the
// distribution's single-card classes, each draw among the classes that still
// fit (in proportion to their weights), until none fits; V(r) is the expected
// milli left over from a card with r free:
//   V(r) = r                                   if no single-card class fits in r
//   V(r) = sum_m w_m V(r - milli_m) / sum_m w_m  over the classes with milli_m <= r
// It depends on the task distribution only (nothing trace- or size-specific:
// the 810-milli shares of the openb traces make V(190) large because nearly
// no class fits in 190, and V(530) small because 470 does).
// Multi-card classes are left out: they need whole free cards, which a
// single-card draw never leaves partly used (experiment: including them
// changed nothing on the default trace and lost 0.03 on multigpu30).

#include <cstdint>
#include <vector>

namespace troupe::plugins::deviceshare {

/// V(r) for r = 0..milli_per_card (index = free milli), from the classes'
/// (per-card milli, card count, weight) triples given as parallel vectors.
/// Classes with card count != 1, milli <= 0 or weight <= 0 are ignored.
inline std::vector<double> expected_card_waste(const std::vector<int32_t>& milli, const std::vector<int32_t>& count,
                                               const std::vector<double>& weight, int32_t milli_per_card) {
  std::vector<double> waste(static_cast<size_t>(milli_per_card) + 1, 0.0);
  for (int32_t r = 0; r <= milli_per_card; ++r) {
    double weighted = 0, total = 0;
    for (size_t m = 0; m < milli.size(); ++m) {
      if (count[m] != 1 || milli[m] <= 0 || milli[m] > r || !(weight[m] > 0)) continue;
      total += weight[m];
      weighted += weight[m] * waste[static_cast<size_t>(r - milli[m])];
    }
    waste[static_cast<size_t>(r)] = total > 0 ? weighted / total : static_cast<double>(r);
  }
  return waste;
}

}  // namespace troupe::plugins::deviceshare
