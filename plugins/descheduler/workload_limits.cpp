#include "plugins/descheduler/workload_limits.hpp"

#include <algorithm>

namespace troupe::plugins::descheduler {

namespace {

IntOrString default_limit(int32_t replicas) {
  if (replicas > 10) return IntOrString::from_string("10%");
  if (replicas >= 4) return IntOrString::from_int(2);
  return IntOrString::from_int(1);
}

}  // namespace

Result<int32_t> max_unavailable(int32_t replicas, const std::optional<IntOrString>& limit) {
  int64_t value = 0;
  if (limit) {
    auto scaled = scaled_value(*limit, replicas, false);
    if (!scaled) return Error{scaled.message()};
    value = *scaled;
  }
  if (value == 0) {
    auto scaled = scaled_value(default_limit(replicas), replicas, false);
    if (!scaled) return Error{scaled.message()};
    value = *scaled;
  }
  return static_cast<int32_t>(std::min<int64_t>(value, replicas));
}

}  // namespace troupe::plugins::descheduler
