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
  if (gone_.count(pod.meta.uid) > 0) return {false, std::nullopt};
  auto it = reported_.find(pod.meta.uid);
  if (it == reported_.end()) {
    Timestamp since = now;
    if (auto was = carried(pod, now, since)) {
      // Carried by the object: written when it was read, as far as we know.
      it = reported_.emplace(pod.meta.uid, Reported{was->first, was->second, since, now}).first;
    } else {
      reported_.emplace(pod.meta.uid, Reported{reason, message, now, now});
      return {};
    }
  }
  Reported& last = it->second;
  const bool unchanged = last.reason == reason && last.message == message;
  if (unchanged && now - last.written < kRewriteAfter) return {false, last.since};
  last.reason = reason;
  last.message = message;
  last.written = now;
  return {true, last.since};
}

void ReportedConditions::gone(const std::string& uid) {
  reported_.erase(uid);
  if (!gone_.insert(uid).second) return;
  gone_order_.push_back(uid);
  if (gone_order_.size() <= kGoneRemembered) return;
  gone_.erase(gone_order_.front());
  gone_order_.pop_front();
}

}  // namespace troupe::actors
