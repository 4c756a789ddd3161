#pragma once
// Go time.Duration text ("24h", "1h30m", "1.5s", "300ms"), the form of
// metav1.Duration fields such as Reservation.spec.ttl and PodMigrationJob.spec.ttl.

#include <chrono>
#include <string>
#include <string_view>

#include "model/result.hpp"

namespace troupe {

/// time.ParseDuration: an optional sign, then one or more decimal numbers
/// with a unit (ns, us, µs, ms, s, m, h); "0" alone is allowed. Errors quote
/// the input as Go does: `time: unknown unit "d" in duration "3d"`.
Result<std::chrono::nanoseconds> parse_go_duration(std::string_view text);

/// time.Duration.String(): "24h0m0s", "1m30s", "1.5s", "300ms", "0s".
std::string format_go_duration(std::chrono::nanoseconds d);

}  // namespace troupe
