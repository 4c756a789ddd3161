#pragma once
// The migration actor (issue 8): descheduling and PodMigrationJob execution
// inside `troupe scheduler`, only while it leads.
//
//   shared reflectors (nodes, pods, nodemetrics, podmigrationjobs,
//   reservations, poddisruptionbudgets, devices; actors/shared_reflectors.hpp)
//   --watch_event--> MIGRATION actor (MigrationView)
//   every deschedulingInterval: LowNodeLoad plan -> PodMigrationJobs
//                               (dryRun: logged and counted only)
//   every arbitration interval: arbiter admits Pending jobs; each job is
//                               stepped (plugins/descheduler/migration_job)
//                               and its actions + /status write run on the
//                               I/O TaskPool, one job step in flight at a time.
//
// Metrics: troupe_descheduler_evictions_total{plugin,result},
// troupe_migration_jobs{phase}, troupe_descheduler_cycle_duration_seconds.

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/api_writer.hpp"
#include "actors/metrics_registry.hpp"
#include "actors/shared_reflectors.hpp"
#include "config/descheduler_config.hpp"
#include "model/pod_migration_job.hpp"
#include "model/result.hpp"
#include "watch/api_client.hpp"
#include "watch/task_pool.hpp"

namespace troupe::actors {

struct MigrationDeps {
  caf::actor_system* system = nullptr;
  std::shared_ptr<watch::ApiClient> api;
  std::shared_ptr<watch::TaskPool> io;
  std::shared_ptr<MetricsRegistry> metrics;
  /// The scheduler leads (leader election); the actor idles otherwise.
  std::shared_ptr<std::atomic<bool>> leading;
  /// nullptr: MigrationController only (no balancing).
  std::shared_ptr<const config::DeschedulerConfiguration> configuration;
  /// troupe's own profiles: added to MigrationController's schedulerNames,
  /// so ReservationFirst accepts the pods troupe schedules.
  std::vector<std::string> scheduler_names;
  /// Where the actor subscribes to its collections (started by the caller
  /// once everyone subscribed, stopped before stop()).
  SharedReflectors* reflectors = nullptr;
  /// Records the Warning events about PodMigrationJobs that do not decode
  /// (none without it).
  api_writer_actor writer;
};

/// What an I/O task reports back about one job step.
struct JobStepOutcome {
  std::string job;
  /// The job as the /status write returned it; nullptr when the write failed.
  std::shared_ptr<const PodMigrationJob> updated;
  std::string error;
  /// The write failed the job with ForbiddenMigratePod (arbitration said never): its Warning event is due.
  bool forbidden = false;
};
using JobStepOutcomePtr = std::shared_ptr<const JobStepOutcome>;

/// Declares the three descheduler metric families (idempotent).
void declare_migration_metrics(MetricsRegistry& registry);

/// Owns the migration actor.
class MigrationController {
 public:
  /// Spawns the actor and subscribes it to its collections; errors name the bad setting.
  static Result<std::unique_ptr<MigrationController>> start(MigrationDeps deps);
  ~MigrationController();  // stop()
  /// Stops the actor. Idempotent; call before the actor system goes.
  void stop();

 private:
  MigrationController() = default;
  caf::actor actor_;
};

}  // namespace troupe::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::JobStepOutcomePtr)
