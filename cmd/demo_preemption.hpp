#pragma once
// The preemption scene of `troupe demo`: a small node full of low-priority
// pods, a high-priority pod that fits nowhere else; troupe evicts the fewest,
// least important pods (DefaultPreemption) and binds the newcomer there.

#include "sim/api_server.hpp"

namespace troupe::cmd {

/// Runs after the main act (its own scheduler against the same API server);
/// prints what happened. Returns 0 when the scene went as described.
int run_preemption_scene(sim::ApiServer& server);

}  // namespace troupe::cmd
