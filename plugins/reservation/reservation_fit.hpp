#pragma once
// Fitting a pod into the reservations of a node (plugin.go fitsNode,
// fitsReservation, filterWithReservations) and the transformer that returns
// reserved resources to it (transformer.go restoreMatchedReservation,
// restoreUnmatchedReservations).
//
// NodeInfo::requested() holds, per Available reservation, its reserve pod
// (the whole allocatable) plus its owner pods. For one pod:
//  - a matched (or ignored) reservation's hold is released whole: the pod may
//    use its unallocated part, and its owners are still counted as pods;
//  - an unmatched reservation with owners keeps only its unallocated part
//    (allocatable − allocated, never negative), so hold and owners are not
//    counted twice.
// `RestoredNode::released` is what a NodeResourcesFit-style check must
// subtract from requested() (and `released_pods` from pod_count()).

#include <string>
#include <vector>

#include "plugins/framework/node_info.hpp"
#include "plugins/framework/status.hpp"
#include "plugins/reservation/reservation_match.hpp"

namespace troupe::plugins::reservation {

inline constexpr const char* kErrReasonReservationAffinity = "node(s) no reservations match reservation affinity";
inline constexpr const char* kErrReasonNodeNotMatchReservation =
    "node(s) didn't match the nodeName specified by reservation";
inline constexpr const char* kErrReasonAllocatePolicyConflict = "node(s) reservation allocate policy conflict";
inline constexpr const char* kErrReasonNoReservationsMeetRequirements =
    "node(s) no reservation(s) to meet the requirements";
/// Prefix of reservation-level reasons (NewReservationReason).
inline constexpr const char* kReservationReasonPrefix = "Reservation(s) ";

struct RestoredNode {
  ResourceVector released;
  int64_t released_pods = 0;
  /// podRequested: requested() with only the unmatched reservations trimmed.
  ResourceVector trimmed_requested;
  /// Σ allocated of the matched reservations.
  ResourceVector matched_allocated;
};

RestoredNode restore_node(const NodeMatch& match, const NodeInfo& node);

/// fitsNode: the resource names ("pods", "cpu", ...) the node lacks for
/// `request` when the pod uses `entry` (nullptr: no particular reservation).
std::vector<std::string> fits_node(const ResourceVector& request, const NodeInfo& node, const RestoredNode& restored,
                                   const ReservationEntry* entry);

/// fitsReservation for the Restricted policy: the reasons ("Reservation(s)
/// Insufficient cpu", with amounts when `detailed`) the reservation's
/// remaining capacity cannot take `requests`, including its reserved "pods".
std::vector<std::string> fits_reservation(const ResourceList& requests, const ReservationEntry& entry, bool detailed);

/// filterWithReservations: succeeds when `required` is false, or when one
/// matched reservation (the named one, if the affinity names one) fits
/// by node and, for Restricted, by reservation. Otherwise Unschedulable with
/// "Insufficient <r> by node" (sorted) then the reservation reasons, or
/// "node(s) no reservation(s) to meet the requirements".
PluginStatus filter_with_reservations(const PodReservationRequest& request, const ResourceVector& pod_request,
                                      const NodeInfo& node, const RestoredNode& restored,
                                      const std::vector<const ReservationEntry*>& candidates, bool required);

}  // namespace troupe::plugins::reservation
