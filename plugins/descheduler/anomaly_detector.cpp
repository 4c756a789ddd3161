#include "plugins/descheduler/anomaly_detector.hpp"

namespace troupe::plugins::descheduler {

namespace {

/// BasicDetector falls back to 60s when the timeout is not positive.
std::chrono::nanoseconds effective_timeout(const AnomalyCondition& condition) {
  return condition.timeout.count() > 0 ? condition.timeout : std::chrono::nanoseconds(std::chrono::seconds(60));
}

void clear_counters(AnomalyDetectors::Detector& d) {
  d.consecutive_abnormalities = 0;
  d.consecutive_normalities = 0;
}

}  // namespace

void AnomalyDetectors::settle(Detector& detector, Timestamp now) {
  if (detector.anomalous && detector.anomaly_expires < now) {
    detector.anomalous = false;
    clear_counters(detector);
  }
}

bool AnomalyDetectors::mark_abnormal(const std::string& node, const AnomalyCondition& condition, Timestamp now) {
  Detector& d = detectors_[node];
  d.last_set = now;
  settle(d, now);
  if (d.anomalous) return true;
  ++d.consecutive_abnormalities;
  d.consecutive_normalities = 0;
  if (d.consecutive_abnormalities > condition.consecutive_abnormalities) {
    d.anomalous = true;
    clear_counters(d);
    d.anomaly_expires = now + std::chrono::duration_cast<std::chrono::microseconds>(effective_timeout(condition));
  }
  return d.anomalous;
}

void AnomalyDetectors::mark_normal(const std::string& node, Timestamp now) {
  auto it = detectors_.find(node);
  if (it == detectors_.end()) return;
  Detector& d = it->second;
  settle(d, now);
  if (d.anomalous) {
    // Leaving the anomaly starts a new generation: counters from zero.
    d.anomalous = false;
    clear_counters(d);
    return;
  }
  ++d.consecutive_normalities;
  d.consecutive_abnormalities = 0;
}

void AnomalyDetectors::reset(const std::string& node) {
  auto it = detectors_.find(node);
  if (it == detectors_.end()) return;
  it->second.anomalous = false;
  clear_counters(it->second);
}

void AnomalyDetectors::expire(Timestamp now, std::chrono::nanoseconds cache_timeout) {
  const auto timeout = std::chrono::duration_cast<std::chrono::microseconds>(cache_timeout);
  for (auto it = detectors_.begin(); it != detectors_.end();) {
    it = now - it->second.last_set > timeout ? detectors_.erase(it) : std::next(it);
  }
}

const AnomalyDetectors::Detector* AnomalyDetectors::find(const std::string& node) const {
  auto it = detectors_.find(node);
  return it == detectors_.end() ? nullptr : &it->second;
}

}  // namespace troupe::plugins::descheduler
