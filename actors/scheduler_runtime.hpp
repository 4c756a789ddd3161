#pragma once
// SchedulerRuntime: assembles `troupe scheduler` — the CAF actor system, the
// NODE actors (one partition each), QUEUE, SCHEDULING CYCLE, API WRITER and
// INFORMER, the reflectors feeding the informer, leader election, and the
// HTTP endpoint for /metrics, /healthz and /readyz. `troupe demo` and the
// benchmarks start the same runtime.

#include <atomic>
#include <memory>
#include <string>

#include "actors/metrics_registry.hpp"
#include "config/descheduler_config.hpp"
#include "config/scheduler_config.hpp"
#include "model/result.hpp"
#include "watch/kube_config.hpp"

namespace troupe::actors {

struct SchedulerOptions {
  config::SchedulerConfiguration config;
  watch::ClusterConfig cluster;
  /// /metrics, /healthz, /readyz; "" serves nothing (tests, embedded use).
  std::string metrics_address = "0.0.0.0:10259";
  /// The scheduler-extender verbs (actors/extender_service.hpp); "" = off.
  std::string extender_address;
  /// "<hostname>_<random>" when empty.
  std::string identity;
  /// --descheduler-config; nullptr runs only the MigrationController (actors/migration_actor.hpp).
  std::shared_ptr<const config::DeschedulerConfiguration> descheduler;
};

class SchedulerRuntime {
 public:
  /// Starts everything; returns once the actors run and the reflectors started.
  static Result<std::unique_ptr<SchedulerRuntime>> start(SchedulerOptions options);
  ~SchedulerRuntime();  // stop()

  /// Stops the reflectors, the actors and the endpoint. Idempotent.
  void stop();

  /// Every reflector synced (what /readyz reports).
  bool ready() const;
  /// We hold the lease (always true without leader election).
  bool leading() const;
  /// False once leadership was lost or a core actor stopped (actor_watchdog.hpp):
  /// kube-scheduler exits then, and so should the caller.
  bool healthy() const;
  /// Why not healthy ("" when healthy): "lost leadership", "queue stopped: ...".
  std::string health_problem() const;
  unsigned short metrics_port() const;
  /// 0 when the extender endpoint is off.
  unsigned short extender_port() const;
  MetricsRegistry& metrics();

  struct Impl;

 private:
  explicit SchedulerRuntime(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace troupe::actors
