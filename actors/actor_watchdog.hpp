#pragma once
// The WATCHDOG: monitors the scheduler's core actors. One that ends for any
// reason but the shutdown (an exception a handler did not catch, memory
// exhausted) leaves the scheduler unable to place pods while its HTTP
// endpoints still answer, so the watchdog records which actor and why: the
// runtime's /healthz then fails and `troupe scheduler` exits, for its
// Deployment to restart it with its state rebuilt from the API server.

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <caf/all.hpp>

namespace troupe::actors {

/// What the watchdog saw; shared with whoever reports health.
class ActorFailure {
 public:
  void record(std::string what);
  /// "" while every watched actor runs; else the first failure, e.g.
  /// "node partition 1 stopped: runtime_error(...)".
  std::string what() const;

 private:
  mutable std::mutex mutex_;
  std::string what_;
};

using WatchedActors = std::vector<std::pair<std::string, caf::actor>>;

/// Spawns the watchdog over `watched` (name, actor). Send it an exit
/// (user_shutdown) when shutting down, after or with the watched actors.
caf::actor spawn_actor_watchdog(caf::actor_system& system, WatchedActors watched,
                                std::shared_ptr<ActorFailure> failure);

}  // namespace troupe::actors
