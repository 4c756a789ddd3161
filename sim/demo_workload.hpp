#pragma once
// The demo's workload: pods that each show one thing the scheduler does
// (annotation `troupe.dev/demo`), for `troupe demo` on the sample cluster.

#include <string>

namespace troupe::sim {

/// Multi-document YAML of the demo pods.
const std::string& demo_workload_yaml();

/// The scheduler configuration the demo runs: two profiles, no leader election.
const std::string& demo_scheduler_config_yaml();

}  // namespace troupe::sim
