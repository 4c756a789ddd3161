#pragma once
// The reservation scene of `troupe demo`: a Reservation is scheduled by troupe
// like a pod (it becomes Available on a node, with the GPU it holds), then its
// owner pod lands on it (reservation-allocated), and the allocateOnce
// reservation is Succeeded.

#include "sim/api_server.hpp"

namespace troupe::cmd {

/// Runs after the main act (its own scheduler against the same API server);
/// prints what happened. Returns 0 when the scene went as described.
int run_reservation_scene(sim::ApiServer& server);

}  // namespace troupe::cmd
