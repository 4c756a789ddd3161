#pragma once
// Backoff: the exponential backoff client-go's reflector uses between failed
// list/watch attempts (NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)):
// the base delay doubles from `initial` up to `max`, each delay gets up to
// `jitter` × base of random extra so many clients do not retry in step, and the
// sequence starts over once `reset_after` passes without a failure.

#include <chrono>
#include <functional>

namespace troupe::watch {

struct BackoffOptions {
  std::chrono::milliseconds initial{800};
  std::chrono::milliseconds max{30'000};
  std::chrono::milliseconds reset_after{120'000};
  double factor = 2.0;
  double jitter = 1.0;
};

class Backoff {
 public:
  using Clock = std::chrono::steady_clock;
  using NowFn = std::function<Clock::time_point()>;
  /// Returns a number in [0, 1).
  using RandomFn = std::function<double()>;

  /// Clock and randomness are injectable so tests can check exact delays.
  explicit Backoff(BackoffOptions options = {}, NowFn now = &Clock::now, RandomFn random = {});

  /// The delay to wait before the next attempt, after a failure.
  std::chrono::milliseconds next();
  /// Forget earlier failures (e.g. after a long healthy stretch).
  void reset();

  const BackoffOptions& options() const { return options_; }

 private:
  BackoffOptions options_;
  NowFn now_;
  RandomFn random_;
  std::chrono::duration<double, std::milli> base_;
  Clock::time_point last_failure_{};
  bool failed_before_ = false;
};

/// A uniform number in [0, 1) from a per-thread generator.
double uniform_random();

}  // namespace troupe::watch
