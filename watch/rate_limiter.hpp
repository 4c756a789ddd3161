#pragma once
// RateLimiter: the client-side token bucket that kube-scheduler configures with
// clientConnection.qps / burst (defaults 50 / 100). Every request the client
// sends takes one token, so a burst of bindings cannot flood the API server.
//
// Like golang.org/x/time/rate (which client-go uses), a token is *reserved*:
// the bucket may go negative and each caller sleeps for its own share, so
// waiting callers are served in arrival order without a queue.

#include <chrono>
#include <functional>
#include <mutex>

namespace troupe::watch {

class CancelToken;

struct RateLimits {
  double qps = 50;  // tokens added per second; <= 0 disables limiting
  int burst = 100;  // bucket size (and initial fill); values < 1 count as 1
};

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  using NowFn = std::function<Clock::time_point()>;

  /// `now` is injectable so tests can check the arithmetic without sleeping.
  explicit RateLimiter(RateLimits limits = {}, NowFn now = &Clock::now);

  /// Takes one token and returns how long the caller must wait before using
  /// it (zero when one was available). Never blocks.
  Clock::duration reserve();

  /// Takes a token only if one is available right now.
  bool try_acquire();

  /// reserve(), then sleeps for the wait unless `cancel` fires. Returns false
  /// when cancelled (the reserved token is given back).
  bool acquire(const CancelToken* cancel = nullptr);

  /// Tokens in the bucket at the current time (negative while callers wait).
  double available();

  const RateLimits& limits() const { return limits_; }

 private:
  bool unlimited() const;
  void refill(Clock::time_point now);

  RateLimits limits_;
  NowFn now_;
  std::mutex mutex_;
  double tokens_;
  Clock::time_point last_;
};

}  // namespace troupe::watch
