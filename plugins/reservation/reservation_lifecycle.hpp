#pragma once
// The reservation controller's decisions (Koordinator's
// pkg/scheduler/plugins/reservation/controller and the plugin's Bind), as
// pure functions: a reservation, the pods that allocated it, whether its node
// exists and the clock in; what to do, and the status to write, out.
//
//   Pending, invalid           -> Failed   (Scheduled=False, reason Invalid)
//   not terminal, expired      -> Failed   (Ready=False, reason Expired)
//   Available, node gone       -> Failed   (Ready=False, reason Expired, "node ... not found")
//   Available, allocateOnce
//     and an owner             -> Succeeded (Ready=False, reason Succeeded)
//   Available                  -> currentOwners / allocated recomputed
//   Pending, valid             -> schedule (the actor queues its reserve pod)
//   Succeeded / Failed, older
//     than the retention       -> delete (garbage collection)
//
// Each status function changes only the fields it owns and keeps the
// lastTransitionTime of a condition whose status does not change, so
// re-running a decision on a fresher copy of the object is idempotent.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "model/pod.hpp"
#include "model/reservation.hpp"
#include "model/resources.hpp"
#include "model/timestamp.hpp"

namespace troupe::plugins::reservation {

/// Reason of a reservation failed by validate_reservation (troupe's own:
/// Koordinator leaves an invalid reservation Pending and reports it per cycle).
inline constexpr const char* kReasonInvalid = "Invalid";
inline constexpr const char* kReasonScheduled = "Scheduled";
inline constexpr const char* kReasonUnschedulable = "Unschedulable";

/// What the controller knows besides the reservation itself.
struct LifecycleContext {
  Timestamp now;
  /// The pods that may own it (the actor passes those whose
  /// reservation-allocated annotation names this reservation's uid).
  std::vector<const Pod*> owner_pods;
  /// status.nodeName is a node the watch knows. Only read once the node list is synced.
  bool node_exists = true;
  /// Finished reservations are deleted this long after they finished (gcDurationSeconds).
  std::chrono::seconds retention{86400};
  bool garbage_collection = true;
};

enum class LifecycleAction {
  none,
  schedule,       // Pending and valid: queue its reserve pod
  write_status,   // `status` holds the new status
  delete_object,  // finished longer ago than the retention
};

struct LifecycleDecision {
  LifecycleAction action = LifecycleAction::none;
  std::optional<ReservationStatus> status;
  /// For people: why (the log line).
  std::string why;
};

LifecycleDecision decide_lifecycle(const Reservation& r, const LifecycleContext& context);

// ---- status transitions (each returns the new status) ----------------------

/// The plugin's Bind: nodeName, allocatable, phase Available, Scheduled=True
/// (Scheduled) and Ready=True (Available).
ReservationStatus bound_status(const Reservation& r, const std::string& node, const ResourceList& allocatable,
                               Timestamp now);
/// A failed scheduling attempt: Scheduled=False (Unschedulable) with the fit
/// error; the phase stays Pending.
ReservationStatus unschedulable_status(const Reservation& r, const std::string& message, Timestamp now);
/// Failed with Ready=False and the given reason and message.
ReservationStatus failed_status(const Reservation& r, const std::string& reason, const std::string& message,
                                Timestamp now);
/// Succeeded with Ready=False (Succeeded).
ReservationStatus succeeded_status(const Reservation& r, Timestamp now);

// ---- what a status write does to the freshly read object --------------------
// The writers read the Reservation again before each write (and again on a
// conflict); these decide on that fresh copy.

/// The outcome of one decision: the status to write, nothing (`status` empty,
/// `refusal` empty), or a refusal that fails the write.
struct StatusUpdate {
  std::optional<ReservationStatus> status;
  std::string refusal;
};

/// Binding the reserve pod of reservation `uid` to `node`: refused when the
/// object was replaced (another uid) or has left Pending for anything but
/// Available on that node (then there is nothing to write).
StatusUpdate bind_update(const Reservation& fresh, const std::string& uid, const std::string& node, Timestamp now);

/// Scheduled=False with `message`, while the same reservation is still
/// Pending and does not already say exactly that.
std::optional<ReservationStatus> unschedulable_update(const Reservation& fresh, const std::string& uid,
                                                      const std::string& message, Timestamp now);

/// A lifecycle decision made from `decided_from`, written only if the object
/// has not changed since (same uid and resourceVersion).
std::optional<ReservationStatus> decided_update(const Reservation& fresh, const Reservation& decided_from,
                                                const ReservationStatus& status);

/// Sets (or adds) the condition of that type; lastTransitionTime only moves
/// when the status changes.
void set_condition(std::vector<Condition>& conditions, const std::string& type, const std::string& status,
                   const std::string& reason, const std::string& message, Timestamp now);

/// When a finished reservation finished: the latest lastTransitionTime or
/// lastProbeTime of its Ready and Scheduled conditions (the write that
/// finished it stamps the probe time even when a condition was already False,
/// as an Unschedulable one marked Invalid), else its creation time.
std::optional<Timestamp> finished_at(const Reservation& r);

/// A reservation that finished at `finished` is due for deletion: garbage
/// collection is on and more than the retention has passed (never without a time).
bool due_for_collection(std::optional<Timestamp> finished, const LifecycleContext& context);

}  // namespace troupe::plugins::reservation
