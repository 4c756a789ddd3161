#pragma once
// The migration scene of `troupe demo`: three replicas of a workload run on
// the batch node cpu-2 and use 1.5x their requests (annotation
// sim.troupe.dev/usage-ratio); the API server's fake koordlet publishes that
// as NodeMetrics; troupe scheduler's LowNodeLoad (the descheduler
// configuration of the scene) finds the node above its high threshold and
// creates a PodMigrationJob (EvictDirectly) for one replica, which the
// MigrationController executes through the Eviction API; the koordlet's next
// rounds report the node relieved, and the replacement (created by the
// scene, as the workload's ReplicaSet controller would) is placed by troupe.

#include "sim/api_server.hpp"

namespace troupe::cmd {

/// Runs after the main act (its own scheduler against the same API server);
/// prints the job's phases and where the pod went. Returns 0 when the scene
/// went as described.
int run_migration_scene(sim::ApiServer& server);

}  // namespace troupe::cmd
