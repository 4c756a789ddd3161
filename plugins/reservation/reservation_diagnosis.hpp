#pragma once
// Why a pod that fit nowhere could not use the reservations it may own: the
// Reservation plugin's PostFilter reasons (Koordinator's
// makePostFilterReasons), appended to the FitError, e.g.
//   "0/3 nodes are available: 3 Insufficient cpu. 1 Reservation(s) didn't
//    match affinity rules, 1 Reservation(s) matched owner total."
// Upstream the transformer counts per node before PreFilter
// (nodeReservationDiagnosis); the cycle counts the same over its
// ClusterReservations, only when no node fits.

#include <string>
#include <vector>

#include "plugins/reservation/reservation_match.hpp"

namespace troupe::plugins::reservation {

/// The counts over every Available reservation, shared with the attempt by the
/// cycle (CycleState::share_input) for the Reservation plugin's PostFilter.
struct ReservationDiagnosis {
  MatchDiagnosis counts;
  /// The pod has a reservation-affinity: the owner total is reported even when zero.
  bool has_affinity = false;
};

/// "N Reservation(s) exactly matches the requested reservation name", "... didn't
/// match the requested reservation name", "... didn't match affinity rules", "... is
/// unschedulable", "... is not exact matched", "... had untolerated taint {k: v}" (by
/// taint), then "N Reservation(s) matched owner total"; each only when its count is not
/// zero, and nothing at all when no reservation matched the pod's owners and the pod
/// has no reservation-affinity.
std::vector<std::string> post_filter_reasons(const ReservationDiagnosis& diagnosis);

}  // namespace troupe::plugins::reservation
