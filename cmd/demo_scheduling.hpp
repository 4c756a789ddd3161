#pragma once
// The scheduling half of `troupe demo`: starts the scheduler against the
// demo's API server (over HTTP, as in production), submits the demo workload,
// waits for every pod to be placed or reported, and prints where each went and why.

#include "sim/api_server.hpp"

namespace troupe::cmd {

/// Returns 0 when every demo pod ended as expected (bound, or reported with a reason).
int run_scheduling_demo(sim::ApiServer& server);

}  // namespace troupe::cmd
