#pragma once
// A Reservation's lifecycle as Koordinator's pkg/util/reservation and the
// reservation controller read it: which phase it is in, whether it is usable,
// when it expires (given a clock), the PreFilter validation, and the owner
// bookkeeping the controller recomputes from the pods that allocated it.

#include <string>
#include <vector>

#include "model/pod.hpp"
#include "model/reservation.hpp"
#include "model/result.hpp"
#include "model/timestamp.hpp"

namespace troupe::plugins::reservation {

/// status.phase, with "" read as Pending (the CRD default).
std::string reservation_phase(const Reservation& r);
/// Scheduled (status.nodeName set) and Available.
bool is_available(const Reservation& r);
/// Scheduled and Available or Waiting (pre-allocation): usable by owners.
bool is_active(const Reservation& r);
bool is_succeeded(const Reservation& r);
bool is_failed(const Reservation& r);
/// Failed with condition Ready=False reason Expired (IsReservationExpired).
bool is_expired(const Reservation& r);
/// spec.allocateOnce, true when absent.
bool allocate_once(const Reservation& r);

/// The controller's expiry test at `now`: never when spec.ttl is explicitly
/// 0; else `now` after spec.expires, or more than ttl (24h when absent, the
/// CRD default) since creation. An unknown creation time never expires by ttl.
bool needs_expiration(const Reservation& r, Timestamp now);

/// ValidateReservation: the template, at least one owner, and ttl or expires
/// must be present ("the reservation misses the template spec", ...).
Status validate_reservation(const Reservation& r);

/// What the controller derives from the pods that allocated a reservation.
struct OwnerStatus {
  /// namespace/name/uid of each owner pod, ordered by namespace then name.
  std::vector<ObjectReference> current_owners;
  /// Σ owner requests, restricted to the names status.allocatable has.
  ResourceList allocated;
  /// allocateOnce and at least one owner: the controller marks it Succeeded.
  bool succeeded = false;
};

/// Recomputes the owners from `pods`: those whose reservation-allocated
/// annotation names this reservation's uid and that have not terminated
/// (Succeeded/Failed pods hold nothing). Pods with a malformed annotation, and
/// pods not bound on the reservation's node, are not owners.
OwnerStatus recompute_owners(const Reservation& r, const std::vector<const Pod*>& pods);

}  // namespace troupe::plugins::reservation
