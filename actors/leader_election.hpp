#pragma once
// Leader election over a coordination.k8s.io Lease, as client-go does it
// (tools/leaderelection): try to acquire every retry period; renew while
// leading; give up leadership if a renewal has not succeeded within the renew
// deadline; on the way out, release it. Remote timestamps are never trusted:
// a lease held by someone else expires `lease_duration` after *we* last saw
// it change.
//
// The algorithm is a pure step function (`step(now)`) over a LeaseBackend, so
// tests drive it with a fake clock and an in-memory lease.

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "model/result.hpp"

namespace troupe::actors {

using ElectionClock = std::chrono::steady_clock;

/// The lease as the election sees it (spec fields + resourceVersion).
struct LeaseRecord {
  std::string holder_identity;
  int lease_duration_seconds = 0;
  std::string acquire_time;  // RFC 3339 micro, written by us
  std::string renew_time;
  int lease_transitions = 0;
  std::string resource_version;
};

/// Reads and writes the Lease object. `get` returns nullopt for 404;
/// `update` fails on a resourceVersion conflict (someone else wrote).
class LeaseBackend {
 public:
  virtual ~LeaseBackend() = default;
  virtual Result<std::optional<LeaseRecord>> get() = 0;
  virtual Result<LeaseRecord> create(const LeaseRecord& record) = 0;
  virtual Result<LeaseRecord> update(const LeaseRecord& record) = 0;
};

struct ElectionSettings {
  std::string identity;  // "<hostname>_<uuid>"
  std::chrono::milliseconds lease_duration{15000};
  std::chrono::milliseconds renew_deadline{10000};
  std::chrono::milliseconds retry_period{2000};
};

/// client-go's constraints: lease_duration > renew_deadline > 1.2 × retry_period.
Status validate(const ElectionSettings& settings);

class LeaderElector {
 public:
  /// `wall_clock_now` gives the MicroTime string written into the lease.
  LeaderElector(ElectionSettings settings, LeaseBackend& backend, std::function<std::string()> wall_clock_now);

  /// One attempt to acquire or renew. Returns whether we lead afterwards.
  bool step(ElectionClock::time_point now);

  /// client-go's ReleaseOnCancel (kube-scheduler sets it): a leader that
  /// stops writes the lease free (no holder, 1 s) so that a standby takes
  /// over at its next retry instead of after lease_duration. Returns whether
  /// the lease is free of us afterwards.
  bool release();

  bool leading() const { return leading_; }
  /// Holder seen in the last successful read ("" if none).
  const std::string& observed_holder() const { return observed_.holder_identity; }
  /// False when we lead but have not renewed within lease_duration (for /healthz).
  bool healthy(ElectionClock::time_point now) const;
  /// Why the last step could not read or write the lease, in client-go's words
  /// ("" when it could): a candidate that never leads must be able to say why
  /// (a missing namespace, RBAC).
  const std::string& last_error() const { return last_error_; }

 private:
  bool try_acquire_or_renew(ElectionClock::time_point now);

  ElectionSettings settings_;
  LeaseBackend& backend_;
  std::function<std::string()> wall_clock_now_;
  LeaseRecord observed_;
  std::string last_error_;
  ElectionClock::time_point observed_time_{};
  ElectionClock::time_point last_renew_{};
  bool leading_ = false;
};

}  // namespace troupe::actors
