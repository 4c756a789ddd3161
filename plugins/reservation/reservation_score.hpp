#pragma once
// Choosing and ranking reservations (scoring.go, nominator.go):
//   score_reservation   MostAllocated over the reservation's non-zero
//                       allocatable: Σ 100·(allocated+request)/capacity over
//                       the resources not overcommitted, divided by their count
//   most_preferred      the reservation with the smallest non-zero
//                       reservation-order label
//   nominate            the one reservation per node a pod will allocate:
//                       the single match when the pod has an affinity, else
//                       among those that fit, the preferred order, else the
//                       best score (first on ties)
// The node score: a node holding the cluster's most preferred order gets
// 1000, the others their nominated reservation's score, then
// DefaultNormalizeScore to 0..100. Score sees one node at a time, so the raw
// score carries both (order·1000 + reservation score) and normalize_node_scores
// picks the preferred node across all of them.

#include <cstdint>
#include <optional>
#include <vector>

#include "plugins/reservation/reservation_fit.hpp"

namespace troupe::plugins::reservation {

inline constexpr int64_t kMostPreferredScore = 1000;

int64_t score_reservation(const ResourceList& pod_requests, const ReservationEntry& entry);

struct PreferredReservation {
  const ReservationEntry* entry = nullptr;
  int64_t order = 0;  // 0 when none has an order
};
PreferredReservation most_preferred(const std::vector<const ReservationEntry*>& entries);

const ReservationEntry* nominate(const PodReservationRequest& request, const ResourceVector& pod_request,
                                 const NodeInfo& node, const NodeMatch& match, const RestoredNode& restored);

/// Orders larger than this compare as equal (the raw score must not overflow).
inline constexpr int64_t kMaxEncodedOrder = 1'000'000'000'000'000;
/// The raw node score: order (0 = none) and the nominated reservation's score (0..100).
int64_t encode_node_score(int64_t order, int64_t reservation_score);
/// Raw scores of all feasible nodes (in order) -> 0..100: the first node with
/// the smallest non-zero order counts 1000, the others their reservation
/// score, then max-normalised to 100.
void normalize_node_scores(std::vector<int64_t>& scores);

}  // namespace troupe::plugins::reservation
