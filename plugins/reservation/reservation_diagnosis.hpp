#pragma once
// Why a pod that fit nowhere could not use the reservations it may own: the
// Reservation plugin's PostFilter reasons (Koordinator's
// makePostFilterReasons), appended to the FitError, e.g.
//   "0/3 nodes are available: 3 Insufficient cpu. 1 Reservation(s) didn't
//    match affinity rules, 1 Reservation(s) for node reason that Insufficient
//    cpu, 2 Reservation(s) matched owner total."
// Upstream the transformer counts per node before PreFilter
// (nodeReservationDiagnosis); the cycle counts the same over its
// ClusterReservations, only when no node fits, and adds the Filter reasons of
// the nodes holding reservations the pod could use
// (actors/reservation_diagnosis_step.hpp).

#include <map>
#include <string>
#include <vector>

#include "plugins/reservation/reservation_match.hpp"

namespace troupe::plugins::reservation {

/// What the cycle shares with the attempt (CycleState::share_input) for the
/// Reservation plugin's PostFilter.
struct ReservationDiagnosis {
  /// Per node holding Available reservations: the counts over them.
  std::map<std::string, MatchDiagnosis> nodes;
  /// The Filter reasons of the nodes that hold reservations and were rejected.
  std::map<std::string, std::vector<std::string>> node_reasons;
  /// The pod has a reservation-affinity: the owner total is reported even when zero.
  bool has_affinity = false;
};

/// The owner-matched reservations of a node that no check ruled out: the pod
/// could have used them, so its node's own Filter rejection is why it did not
/// (upstream's remainUnmatched before the node's reasons are read).
int usable_reservations(const MatchDiagnosis& node);

/// "N Reservation(s) exactly matches the requested reservation name", "... didn't
/// match the requested reservation name", "... didn't match affinity rules", "... is
/// unschedulable", "... is not exact matched", "... had untolerated taint {k: v}" (by
/// taint), "... for node reason that <reason>" (the reservations the pod could use,
/// counted once per reason their node was rejected for, reservation-level reasons
/// taking one each off first), then "N Reservation(s) matched owner total"; each only
/// when its count is not zero, and nothing at all when no reservation matched the
/// pod's owners and the pod has no reservation-affinity. Upstream walks Go maps;
/// troupe's taints and node reasons come sorted.
std::vector<std::string> post_filter_reasons(const ReservationDiagnosis& diagnosis);

}  // namespace troupe::plugins::reservation
