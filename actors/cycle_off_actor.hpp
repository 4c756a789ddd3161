#pragma once
// Blocking work of the SCHEDULING CYCLE (the extenders' HTTP calls) runs on
// an I/O thread of its TaskPool, never in the actor; the continuation comes
// back to the actor as a message, so the cycle's state is only touched there.

#include <functional>
#include <memory>
#include <utility>

#include "actors/cycle_actor.hpp"
#include "watch/task_pool.hpp"

namespace troupe::actors {

/// Runs `call` on an I/O thread, then `resume(result)` back on the cycle actor.
/// False when there is no pool or it is shutting down (nothing will run).
template <class Result, class Call, class Resume>
bool off_actor(cycle_actor::stateful_pointer<cycle_actor_state> self, Call call, Resume resume) {
  if (!self->state.deps.io) return false;
  auto me = caf::actor_cast<cycle_actor>(self);
  return self->state.deps.io->post([me, call = std::move(call), resume = std::move(resume)]() mutable {
    auto result = std::make_shared<Result>(call());
    auto then = std::make_shared<const std::function<void()>>([resume, result] { resume(*result); });
    caf::anon_send(me, atom::next_v, CycleResumePtr(std::move(then)));
  });
}

}  // namespace troupe::actors
