#include "actors/reported_conditions.hpp"

namespace troupe::actors {

namespace {

/// The PodScheduled=False condition `pod` carries, as a report.
std::optional<std::pair<std::string, std::string>> carried(const Pod& pod, Timestamp now, Timestamp& since) {
  for (const auto& c : pod.status.conditions) {
    if (c.type != "PodScheduled" || c.status != "False") continue;
    since = c.last_transition_time.value_or(now);
    return std::make_pair(c.reason, c.message);
  }
  return std::nullopt;
}

}  // namespace

ReportedConditions::Decision ReportedConditions::report(const Pod& pod, const std::string& reason,
                                                        const std::string& message, Timestamp now) {
  auto it = reported_.find(pod.meta.uid);
  if (it == reported_.end()) {
    Timestamp since = now;
    if (auto was = carried(pod, now, since)) {
      it = reported_.emplace(pod.meta.uid, Reported{was->first, was->second, since}).first;
    } else {
      reported_.emplace(pod.meta.uid, Reported{reason, message, now});
      return {};
    }
  }
  Reported& last = it->second;
  if (last.reason == reason && last.message == message) return {false, last.since};
  last.reason = reason;
  last.message = message;
  return {true, last.since};
}

}  // namespace troupe::actors
