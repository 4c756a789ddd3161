#pragma once
// The migration scene of `troupe demo`: a user creates a PodMigrationJob
// (mode EvictDirectly) for one pod of a three-replica workload; troupe
// scheduler's MigrationController, running with its defaults (nothing to
// enable), arbitrates it, evicts the pod through the Eviction API and marks
// the job Succeeded; the replacement (created by the scene, as the
// workload's ReplicaSet controller would) is placed by troupe.

#include "sim/api_server.hpp"

namespace troupe::cmd {

/// Runs after the main act (its own scheduler against the same API server);
/// prints the job's phases and where the pod went. Returns 0 when the scene
/// went as described.
int run_migration_scene(sim::ApiServer& server);

}  // namespace troupe::cmd
