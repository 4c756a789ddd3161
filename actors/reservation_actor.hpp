#pragma once
// The RESERVATION actor (issue 6): Koordinator's reservation controller
// inside `troupe scheduler`.
//
//   shared reflectors (reservations, pods, nodes) --watch_event--> RESERVATION actor
//   a Pending, valid Reservation of one of our profiles -> its reserve pod
//       (make_reserve_pod) into the QUEUE; the ordinary cycle places it with
//       every plugin, and the API WRITER binds it by writing the
//       Reservation's status (actors/reservation_writes.hpp)
//   a reserve pod that preempted (ReservationArgs.enablePreemption) is
//       nominated in the SCHEDULING CYCLE's memory only; when the
//       reservation goes or leaves Pending, the cycle is told (dequeue) so
//       the held room is released
//   every tick: decide_lifecycle per reservation (expiry, node gone,
//       allocateOnce, owners and allocated from the pods whose
//       reservation-allocated names it, garbage collection) and write the
//       changes through /status on the I/O TaskPool, one write per
//       reservation in flight, only while this replica leads.
//
// Settings come from the first profile's ReservationArgs (pluginConfig of
// "Reservation"): gcDurationSeconds (retention of finished reservations),
// disableGarbageCollection. Metric: troupe_reservations{phase}.

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/cycle_actor.hpp"
#include "actors/metrics_registry.hpp"
#include "actors/queue_actor.hpp"
#include "actors/shared_reflectors.hpp"
#include "config/scheduler_config.hpp"
#include "model/result.hpp"
#include "watch/api_client.hpp"
#include "watch/task_pool.hpp"

namespace troupe::actors {

struct ReservationControllerDeps {
  caf::actor_system* system = nullptr;
  std::shared_ptr<watch::ApiClient> api;
  std::shared_ptr<watch::TaskPool> io;
  std::shared_ptr<MetricsRegistry> metrics;
  /// The scheduler leads (leader election): writes only then.
  std::shared_ptr<std::atomic<bool>> leading;
  queue_actor queue;
  /// Told when a reserve pod leaves the queue (the reservation went, or is
  /// no longer Pending): it drops the room a preemption held for it.
  cycle_actor cycle;
  /// schedulerName -> the framework of that profile: reserve pods of other
  /// schedulers are not ours.
  std::map<std::string, std::shared_ptr<const plugins::Framework>> frameworks;
  /// Where the actor subscribes to reservations, pods and nodes (started by
  /// the caller once everyone subscribed, stopped before stop()).
  SharedReflectors* reflectors = nullptr;
};

struct ReservationControllerSettings {
  std::chrono::seconds retention{86400};
  bool garbage_collection = true;
  /// How often the lifecycle pass runs (expiry resolution).
  std::chrono::milliseconds tick{1000};
};

/// The settings from the configuration's first profile that configures the
/// Reservation plugin; errors name the field.
Result<ReservationControllerSettings> reservation_controller_settings(const config::SchedulerConfiguration& cfg);

/// Declares troupe_reservations{phase} (idempotent).
void declare_reservation_metrics(MetricsRegistry& registry);

/// Owns the reservation actor.
class ReservationController {
 public:
  static Result<std::unique_ptr<ReservationController>> start(ReservationControllerDeps deps,
                                                              const config::SchedulerConfiguration& cfg);
  ~ReservationController();  // stop()
  /// Stops the actor. Idempotent; call before the actor system goes.
  void stop();

 private:
  ReservationController() = default;
  caf::actor actor_;
};

}  // namespace troupe::actors
