#include "watch/rate_limiter.hpp"

#include <algorithm>

#include "watch/cancel_token.hpp"

namespace troupe::watch {

namespace {

RateLimits sanitize(RateLimits limits) {
  limits.burst = std::max(limits.burst, 1);
  return limits;
}

}  // namespace

RateLimiter::RateLimiter(RateLimits limits, NowFn now)
    : limits_(sanitize(limits)), now_(std::move(now)), tokens_(limits_.burst), last_(now_()) {}

bool RateLimiter::unlimited() const { return limits_.qps <= 0; }

void RateLimiter::refill(Clock::time_point now) {
  // An injected clock may step backwards; never refill for negative time.
  if (now <= last_) return;
  const double elapsed = std::chrono::duration<double>(now - last_).count();
  tokens_ = std::min<double>(limits_.burst, tokens_ + elapsed * limits_.qps);
  last_ = now;
}

RateLimiter::Clock::duration RateLimiter::reserve() {
  if (unlimited()) return Clock::duration::zero();
  std::lock_guard<std::mutex> lock(mutex_);
  refill(now_());
  tokens_ -= 1;
  if (tokens_ >= 0) return Clock::duration::zero();
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(-tokens_ / limits_.qps));
}

bool RateLimiter::try_acquire() {
  if (unlimited()) return true;
  std::lock_guard<std::mutex> lock(mutex_);
  refill(now_());
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

bool RateLimiter::acquire(const CancelToken* cancel) {
  const Clock::duration wait = reserve();
  if (wait == Clock::duration::zero()) return cancel == nullptr || !cancel->cancelled();
  if (sleep_unless_cancelled(cancel, wait)) return true;
  std::lock_guard<std::mutex> lock(mutex_);
  tokens_ = std::min<double>(limits_.burst, tokens_ + 1);
  return false;
}

double RateLimiter::available() {
  if (unlimited()) return limits_.burst;
  std::lock_guard<std::mutex> lock(mutex_);
  refill(now_());
  return tokens_;
}

}  // namespace troupe::watch
