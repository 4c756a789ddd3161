#pragma once
// The PodMigrationJob state machine (Koordinator controllers/migration
// controller.go) as pure transitions: from the job and what was observed
// of its pod, its reservation and the replacement pod, the next status
// and the actions the lead's migration actor must carry out.
//
// Phases: "" -> Pending -> Running -> Succeeded | Failed (| Aborted, set by
// users). Pending waits until arbitration admits the job. Timeouts: a job
// older than spec.ttl (else defaultJobTTL; 0 = none) fails with reason
// Timeout. ReservationFirst: create the reservation (ReservationCreated),
// wait until it is scheduled (ReservationScheduled; Unschedulable or Failed
// fail the job), evict the pod (Eviction: Evicting, then EvictComplete once
// it is gone or terminating), wait for the replacement to bind the
// reservation (PodBoundReservation) and become ready (BoundPodReady), then
// Succeeded. EvictDirectly: evict, then Succeeded once the pod is gone.
// A job that ends Failed/Aborted while its reservation is unbound deletes it.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/pod.hpp"
#include "model/pod_migration_job.hpp"
#include "model/reservation.hpp"
#include "model/timestamp.hpp"
#include "plugins/descheduler/migration_controller_args.hpp"

namespace troupe::plugins::descheduler {

inline constexpr const char* kPhasePending = "Pending";
inline constexpr const char* kPhaseRunning = "Running";
inline constexpr const char* kPhaseSucceeded = "Succeeded";
inline constexpr const char* kPhaseFailed = "Failed";
inline constexpr const char* kPhaseAborted = "Aborted";

struct JobObservation {
  Timestamp now{};
  /// The pod spec.podRef names; nullptr when it no longer exists.
  std::shared_ptr<const Pod> pod;
  /// The job's reservation (named after the job's UID); nullptr when absent.
  std::shared_ptr<const Reservation> reservation;
  /// The pod that took the reservation is Ready.
  bool bound_pod_ready = false;
  /// The arbiter admitted this job (annotation passed-arbitration).
  bool passed_arbitration = false;
};

enum class JobActionKind { create_reservation, evict_pod, delete_reservation };
const char* to_string(JobActionKind kind);

struct JobAction {
  JobActionKind kind;
  /// create_reservation: the object to create; delete_reservation: its name in meta.
  std::shared_ptr<const Reservation> reservation;
  /// evict_pod: the pod ("ns/name") and how (evictionPolicy).
  std::string pod_key;
  std::string eviction_policy;
};

struct JobStep {
  PodMigrationJobStatus status;
  std::vector<JobAction> actions;
  bool changed = false;  // status differs from the job's
};

/// One reconcile of `job`.
JobStep step_migration_job(const PodMigrationJob& job, const JobObservation& observed,
                           const MigrationControllerArgs& args);

/// The gracePeriodSeconds an eviction or delete of the job's pod asks for:
/// the job's spec.deleteOptions, else the controller's defaultDeleteOptions
/// (Koordinator's order), else none (the pod's own). Other DeleteOptions
/// fields are not passed on.
std::optional<int64_t> delete_grace_period(const PodMigrationJob& job, const MigrationControllerArgs& args);

/// The Reservation ReservationFirst creates for `pod`: named after the job
/// UID, the pod's template with nodeName cleared, owned by the pod's
/// controller (by the pod itself when it has none),
/// allocateOnce, the job's TTL, labels app.kubernetes.io/created-by:
/// koord-descheduler and scheduling.koordinator.sh/reservation-order (unix
/// ms), and node anti-affinity keeping it off the pod's node.
Reservation reservation_for(const PodMigrationJob& job, const Pod& pod, std::chrono::nanoseconds ttl, Timestamp now);

}  // namespace troupe::plugins::descheduler
