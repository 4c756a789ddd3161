#pragma once
// Ages as kubectl prints them (k8s.io/apimachinery/pkg/util/duration
// HumanDuration): two significant units at most, coarser as ages grow, so an
// AGE column stays narrow: "45s", "3m20s", "12m", "5h30m", "20h", "3d4h",
// "30d", "2y10d".

#include <chrono>
#include <optional>
#include <string>

#include "model/timestamp.hpp"

namespace troupe::sim {

/// HumanDuration; below −1 s "<invalid>" (a clock ahead of ours by more than a second).
std::string human_duration(std::chrono::microseconds age);

/// translateTimestampSince: the age of `t` at `now`; "<unknown>" for an unset time.
std::string human_age(std::optional<Timestamp> t, Timestamp now);

}  // namespace troupe::sim
