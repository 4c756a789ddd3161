#pragma once
// Kubernetes timestamps: metav1.Time ("2026-11-21T23:37:31Z", whole seconds on
// the wire) and metav1.MicroTime ("2026-11-21T23:37:31.123456Z", exactly six
// fractional digits). Both are RFC 3339; parsing accepts any offset and any
// number of fractional digits, as Go's time.Parse(time.RFC3339) does.

#include <chrono>
#include <string>
#include <string_view>

#include "model/result.hpp"

namespace troupe {

/// A UTC instant with microsecond resolution (MicroTime's precision).
using Timestamp = std::chrono::time_point<std::chrono::system_clock, std::chrono::microseconds>;

/// Errors quote the text: `invalid RFC 3339 time "2026-13-01T00:00:00Z": month out of range`.
/// Fractional digits beyond microseconds are truncated.
Result<Timestamp> parse_timestamp(std::string_view text);

/// metav1.Time's form: UTC, whole seconds (fraction dropped, as Go does).
std::string format_timestamp(Timestamp t);

/// metav1.MicroTime's form: UTC with six fractional digits.
std::string format_micro_timestamp(Timestamp t);

/// Now, truncated to microseconds.
Timestamp timestamp_now();

}  // namespace troupe
