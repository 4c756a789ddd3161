#include "actors/actor_watchdog.hpp"

#include <map>

#include <spdlog/spdlog.h>

namespace troupe::actors {

void ActorFailure::record(std::string what) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (what_.empty()) what_ = std::move(what);
}

std::string ActorFailure::what() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return what_;
}

namespace {

caf::behavior watchdog(caf::event_based_actor* self, const WatchedActors& watched,
                       const std::shared_ptr<ActorFailure>& failure) {
  std::map<caf::actor_addr, std::string> names;
  for (const auto& [name, actor] : watched) {
    self->monitor(actor);
    names[actor.address()] = name;
  }
  self->set_down_handler([names, failure](caf::down_msg& down) {
    // A normal end or the runtime's shutdown is no failure.
    if (!down.reason || down.reason == caf::exit_reason::user_shutdown) return;
    auto it = names.find(down.source);
    std::string what = (it != names.end() ? it->second : std::string("an actor")) + " stopped: " +
                       caf::to_string(down.reason);
    spdlog::critical("{}; the scheduler cannot go on", what);
    failure->record(std::move(what));
  });
  // Monitoring needs no messages; the behavior only keeps the actor alive.
  return {[](caf::ok_atom) {}};
}

}  // namespace

caf::actor spawn_actor_watchdog(caf::actor_system& system, WatchedActors watched,
                                std::shared_ptr<ActorFailure> failure) {
  return system.spawn(watchdog, std::move(watched), std::move(failure));
}

}  // namespace troupe::actors
