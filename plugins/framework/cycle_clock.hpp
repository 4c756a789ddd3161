#pragma once
// CycleClock: the time of a scheduling cycle, shared as a CycleState input
// with the plugins whose verdicts depend on it (LoadAwareScheduling: a
// NodeMetric expires). Its version is the whole second, so the evaluation
// cache (actors/evaluation_cache.hpp), which keys pod classes on the inputs'
// versions, reuses such a verdict within the second it was made in and never
// after: a node's metric that expires is seen expired within a second.

#include <chrono>
#include <cstdint>

#include "model/timestamp.hpp"

namespace troupe::plugins {

struct CycleClock {
  Timestamp now;

  /// The input's version: the second `now` falls in (never 0, "no input").
  uint64_t version() const {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count()) + 1;
  }
};

}  // namespace troupe::plugins
