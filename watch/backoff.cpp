#include "watch/backoff.hpp"

#include <algorithm>
#include <random>

namespace troupe::watch {

double uniform_random() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(engine);
}

Backoff::Backoff(BackoffOptions options, NowFn now, RandomFn random)
    : options_(options),
      now_(std::move(now)),
      random_(random ? std::move(random) : RandomFn(&uniform_random)),
      base_(options.initial) {}

std::chrono::milliseconds Backoff::next() {
  const Clock::time_point now = now_();
  if (failed_before_ && now - last_failure_ > options_.reset_after) reset();
  failed_before_ = true;
  last_failure_ = now;

  const auto delay = base_ * (1.0 + options_.jitter * random_());
  base_ = std::min<std::chrono::duration<double, std::milli>>(base_ * options_.factor, options_.max);
  return std::chrono::duration_cast<std::chrono::milliseconds>(delay);
}

void Backoff::reset() { base_ = options_.initial; }

}  // namespace troupe::watch
