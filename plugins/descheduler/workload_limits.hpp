#pragma once
// How many of a workload's replicas may migrate or be unavailable at once
// (Koordinator controllers/migration/util GetMaxUnavailable / GetMaxMigrating).

#include <cstdint>
#include <optional>

#include "model/int_or_string.hpp"
#include "model/result.hpp"

namespace troupe::plugins::descheduler {

/// `limit` scaled against `replicas` (percentages round down); when that is
/// unset or 0: 10% (rounded down) for more than 10 replicas, 2 for 4..10,
/// else 1; never more than `replicas`. A string that is not a percentage is
/// an error naming it.
Result<int32_t> max_unavailable(int32_t replicas, const std::optional<IntOrString>& limit);

/// Same rule (Koordinator uses one function for both).
inline Result<int32_t> max_migrating(int32_t replicas, const std::optional<IntOrString>& limit) {
  return max_unavailable(replicas, limit);
}

}  // namespace troupe::plugins::descheduler
