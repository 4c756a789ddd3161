#pragma once
// How a parent's resources are shared among its child quotas, one resource
// at a time (Koordinator's quotaTree.redistribution): each child first gets
// its min (or, when it asks for less and may lend, what it asks for); what is
// left goes to the children still asking for more, in proportion to their
// shared weights, round after round, none getting more than it asks for. The
// integer split is Koordinator's largest-remainder one, so nothing is lost to
// rounding. A child's "request" here is already capped at its max.

#include <cstdint>
#include <string>
#include <vector>

namespace troupe::plugins::elastic_quota {

struct QuotaShare {
  std::string name;  // breaks ties between equal remainders
  int64_t request = 0;
  int64_t min = 0;
  int64_t shared_weight = 0;
  bool allow_lent_resource = true;
  int64_t runtime = 0;  // the result
};

/// Sets every share's runtime from the parent's `total`.
void redistribute(int64_t total, std::vector<QuotaShare>& shares);

/// The children's mins, scaled down when together they exceed `total`
/// (Koordinator's enableMinQuotaScale): each gets total × min / Σmin, floored.
/// Unchanged when they fit.
std::vector<int64_t> scaled_mins(int64_t total, const std::vector<int64_t>& mins);

}  // namespace troupe::plugins::elastic_quota
