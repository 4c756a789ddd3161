#include "plugins/elastic_quota/runtime_quota.hpp"

#include <algorithm>
#include <numeric>

namespace troupe::plugins::elastic_quota {

namespace {

/// total split by weight: floor(w × total / Σw) each, then the residual one
/// unit at a time to the largest remainders (ties by name).
std::vector<int64_t> hamilton_deltas(int64_t total, __int128 total_weight, const std::vector<QuotaShare*>& shares) {
  std::vector<int64_t> deltas(shares.size(), 0);
  if (total_weight <= 0 || total <= 0 || shares.empty()) return deltas;
  struct Remainder {
    size_t index;
    __int128 remainder;
  };
  std::vector<Remainder> remainders;
  int64_t distributed = 0;
  for (size_t i = 0; i < shares.size(); ++i) {
    if (shares[i]->shared_weight <= 0) continue;
    const __int128 product = static_cast<__int128>(shares[i]->shared_weight) * total;
    deltas[i] = static_cast<int64_t>(product / total_weight);  // <= total: the weight is part of the sum
    distributed += deltas[i];
    remainders.push_back({i, product % total_weight});
  }
  std::stable_sort(remainders.begin(), remainders.end(), [&](const Remainder& a, const Remainder& b) {
    if (a.remainder != b.remainder) return a.remainder > b.remainder;
    return shares[a.index]->name < shares[b.index]->name;
  });
  int64_t residual = total - distributed;
  for (size_t i = 0; i < remainders.size() && residual > 0; ++i, --residual) ++deltas[remainders[i].index];
  return deltas;
}

/// Weights are summed in 128 bits: a weight defaults to the max, and two maxes
/// near the int64 limit (Koordinator's MaxInt64/5 cores, in millicores) would overflow.
void iterate(int64_t total, __int128 total_weight, std::vector<QuotaShare*> shares) {
  while (total_weight > 0 && total > 0 && !shares.empty()) {
    const auto deltas = hamilton_deltas(total, total_weight, shares);
    std::vector<QuotaShare*> still_asking;
    int64_t left = 0;
    __int128 weight_left = 0;
    for (size_t i = 0; i < shares.size(); ++i) {
      QuotaShare& share = *shares[i];
      share.runtime += deltas[i];
      if (share.runtime < share.request) {
        still_asking.push_back(&share);
        weight_left += share.shared_weight;
      } else {
        left += share.runtime - share.request;  // more than it asks for goes back
        share.runtime = share.request;
      }
    }
    if (still_asking.empty()) return;
    total = left;
    total_weight = weight_left;
    shares = std::move(still_asking);
  }
}

}  // namespace

void redistribute(int64_t total, std::vector<QuotaShare>& shares) {
  __int128 left = total, weight = 0;
  std::vector<QuotaShare*> asking_more;
  for (auto& share : shares) {
    if (share.request > share.min) {
      asking_more.push_back(&share);
      weight += share.shared_weight;
      share.runtime = share.min;
    } else {
      // Asking for no more than its min: it keeps the rest of its min only if it may not lend it.
      share.runtime = share.allow_lent_resource ? share.request : share.min;
    }
    left -= share.runtime;
  }
  if (left > 0) iterate(static_cast<int64_t>(left), weight, std::move(asking_more));  // left <= total
}

std::vector<int64_t> scaled_mins(int64_t total, const std::vector<int64_t>& mins) {
  const __int128 sum = std::accumulate(mins.begin(), mins.end(), static_cast<__int128>(0));
  if (sum <= total) return mins;
  std::vector<int64_t> out;
  out.reserve(mins.size());
  for (int64_t min : mins)
    out.push_back(total <= 0 ? 0 : static_cast<int64_t>(static_cast<__int128>(total) * min / sum));
  return out;
}

}  // namespace troupe::plugins::elastic_quota
