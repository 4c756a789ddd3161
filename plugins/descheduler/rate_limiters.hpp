#pragma once
// The two clocks-in-hand limiters of the MigrationController:
//  - TokenBucket: evictQPS / evictBurst, as golang.org/x/time/rate (starts
//    full; a non-positive rate means unlimited);
//  - WorkloadWindow: objectLimiters.workload, at most `max` migrations of
//    one workload in any sliding window of `duration`, and at most `burst`
//    within duration / max (the spacing Koordinator's per-workload token
//    bucket of rate max/duration enforces).
// Both take `now` from the caller.

#include <chrono>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>

#include "model/timestamp.hpp"

namespace troupe::plugins::descheduler {

class TokenBucket {
 public:
  TokenBucket(double qps, int32_t burst) : qps_(qps), burst_(burst < 1 ? 1 : burst), tokens_(burst_) {}

  /// Takes one token if one is there at `now`.
  bool try_take(Timestamp now);
  /// Would try_take succeed (no token taken)?
  bool available(Timestamp now);

 private:
  void refill(Timestamp now);

  double qps_;
  int32_t burst_;
  double tokens_;
  bool started_ = false;
  Timestamp last_{};
};

class WorkloadWindow {
 public:
  /// Why `workload` may not migrate one more now, or an empty string.
  std::string refusal(const std::string& workload, int32_t max, int32_t burst, std::chrono::nanoseconds duration,
                      Timestamp now) const;
  void record(const std::string& workload, Timestamp now);
  /// Forgets migrations older than `duration` (keeps memory bounded).
  void prune(Timestamp now, std::chrono::nanoseconds duration);
  size_t tracked() const { return starts_.size(); }

 private:
  std::unordered_map<std::string, std::deque<Timestamp>> starts_;
};

}  // namespace troupe::plugins::descheduler
