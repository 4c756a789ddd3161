#include "actors/leader_election.hpp"

namespace troupe::actors {

Status validate(const ElectionSettings& s) {
  if (s.identity.empty()) return Error{"leaderElection: identity must not be empty"};
  if (s.lease_duration <= s.renew_deadline)
    return Error{"leaderElection.leaseDuration must be greater than leaderElection.renewDeadline"};
  if (s.renew_deadline.count() * 10 <= s.retry_period.count() * 12)
    return Error{"leaderElection.renewDeadline must be greater than 1.2 x leaderElection.retryPeriod"};
  if (s.retry_period.count() <= 0) return Error{"leaderElection.retryPeriod must be positive"};
  return {};
}

LeaderElector::LeaderElector(ElectionSettings settings, LeaseBackend& backend,
                             std::function<std::string()> wall_clock_now)
    : settings_(std::move(settings)), backend_(backend), wall_clock_now_(std::move(wall_clock_now)) {}

bool LeaderElector::step(ElectionClock::time_point now) {
  bool renewed = try_acquire_or_renew(now);
  if (renewed) {
    last_renew_ = now;
    leading_ = true;
  } else if (leading_ && now - last_renew_ >= settings_.renew_deadline) {
    leading_ = false;  // could not renew in time: stop leading
  }
  return leading_;
}

bool LeaderElector::release() {
  if (!leading_) return true;
  leading_ = false;
  const std::string stamp = wall_clock_now_();
  LeaseRecord freed{"", 1, stamp, stamp, observed_.lease_transitions, observed_.resource_version};
  auto updated = backend_.update(freed);
  if (!updated) return false;
  observed_ = *updated;
  return true;
}

bool LeaderElector::healthy(ElectionClock::time_point now) const {
  return !leading_ || now - last_renew_ <= settings_.lease_duration;
}

bool LeaderElector::try_acquire_or_renew(ElectionClock::time_point now) {
  last_error_.clear();
  auto current = backend_.get();
  if (!current) {
    last_error_ = "error retrieving resource lock: " + current.message();
    return false;
  }
  auto duration_s = static_cast<int>(
      std::chrono::duration_cast<std::chrono::seconds>(settings_.lease_duration).count());
  std::string stamp = wall_clock_now_();

  if (!current->has_value()) {
    LeaseRecord fresh{settings_.identity, duration_s, stamp, stamp, 0, ""};
    auto created = backend_.create(fresh);
    if (!created) {
      last_error_ = "error initially creating leader election record: " + created.message();
      return false;
    }
    observed_ = *created;
    observed_time_ = now;
    return true;
  }

  const LeaseRecord& seen = **current;
  // A changed record restarts the expiry clock, measured locally.
  if (seen.holder_identity != observed_.holder_identity || seen.renew_time != observed_.renew_time ||
      seen.resource_version != observed_.resource_version) {
    observed_ = seen;
    observed_time_ = now;
  }
  bool held_by_other = !seen.holder_identity.empty() && seen.holder_identity != settings_.identity;
  auto other_duration = std::chrono::seconds(seen.lease_duration_seconds > 0 ? seen.lease_duration_seconds : duration_s);
  if (held_by_other && observed_time_ + other_duration > now) return false;

  LeaseRecord next = seen;
  next.holder_identity = settings_.identity;
  next.lease_duration_seconds = duration_s;
  next.renew_time = stamp;
  if (seen.holder_identity != settings_.identity) {
    next.acquire_time = stamp;
    next.lease_transitions = seen.lease_transitions + 1;
  }
  auto updated = backend_.update(next);
  if (!updated) {
    last_error_ = "failed to update lock: " + updated.message();
    return false;
  }
  observed_ = *updated;
  observed_time_ = now;
  return true;
}

}  // namespace troupe::actors
