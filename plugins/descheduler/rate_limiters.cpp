#include "plugins/descheduler/rate_limiters.hpp"

#include <algorithm>

namespace troupe::plugins::descheduler {

void TokenBucket::refill(Timestamp now) {
  if (!started_) {
    started_ = true;
    last_ = now;
    return;
  }
  if (now <= last_) return;
  const double seconds = std::chrono::duration<double>(now - last_).count();
  tokens_ = std::min<double>(burst_, tokens_ + seconds * qps_);
  last_ = now;
}

bool TokenBucket::available(Timestamp now) {
  if (qps_ <= 0) return true;
  refill(now);
  return tokens_ >= 1;
}

bool TokenBucket::try_take(Timestamp now) {
  if (!available(now)) return false;
  if (qps_ > 0) tokens_ -= 1;
  return true;
}

namespace {

int64_t count_since(const std::deque<Timestamp>& starts, Timestamp since) {
  return std::count_if(starts.begin(), starts.end(), [&](Timestamp t) { return t > since; });
}

}  // namespace

std::string WorkloadWindow::refusal(const std::string& workload, int32_t max, int32_t burst,
                                    std::chrono::nanoseconds duration, Timestamp now) const {
  if (max <= 0 || duration.count() <= 0) return {};
  auto it = starts_.find(workload);
  if (it == starts_.end()) return {};
  const auto window = std::chrono::duration_cast<std::chrono::microseconds>(duration);
  if (count_since(it->second, now - window) >= max) {
    return "workload " + workload + " already migrated " + std::to_string(max) + " pod(s) within the objectLimiters window";
  }
  const auto spacing = window / max;
  if (count_since(it->second, now - spacing) >= std::max(burst, 1)) {
    return "workload " + workload + " migrates too often (objectLimiters burst " + std::to_string(std::max(burst, 1)) + ")";
  }
  return {};
}

void WorkloadWindow::record(const std::string& workload, Timestamp now) { starts_[workload].push_back(now); }

void WorkloadWindow::prune(Timestamp now, std::chrono::nanoseconds duration) {
  const auto cutoff = now - std::chrono::duration_cast<std::chrono::microseconds>(duration);
  for (auto it = starts_.begin(); it != starts_.end();) {
    auto& starts = it->second;
    while (!starts.empty() && starts.front() <= cutoff) starts.pop_front();
    it = starts.empty() ? starts_.erase(it) : std::next(it);
  }
}

}  // namespace troupe::plugins::descheduler
