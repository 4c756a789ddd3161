#pragma once
// Which reservations on a node a pod may use (transformer.go
// checkReservationMatchedOrIgnored and the per-node classification of
// BeforePreFilter). Checks run in upstream's order:
//   reserve pod                 never matches (no nested reservations)
//   reservation-ignored label   every reservation is "ignored": usable, no owner
//   owners                      must match, then either
//     affinity names one:       the name, then exact-match
//     otherwise:                spec.unschedulable, untolerated NoSchedule/NoExecute
//                               taints (only checked when the pod has an affinity),
//                               affinity selector/terms, exact-match
// Reservations with allocateOnce that already have an owner are skipped.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/node.hpp"
#include "model/pod.hpp"
#include "plugins/reservation/node_reservations.hpp"
#include "plugins/reservation/pod_annotations.hpp"
#include "plugins/reservation/reservation_affinity.hpp"

namespace troupe::plugins::reservation {

/// What the reservation code reads of the pod, decoded once per cycle.
struct PodReservationRequest {
  bool reserve_pod = false;
  bool ignored = false;
  std::optional<ReservationAffinity> affinity;
  std::optional<ExactMatchSpec> exact_match;
  ResourceList requests;  // PodRequests

  bool has_affinity() const { return affinity.has_value(); }
  const std::string& affinity_name() const;
};

/// Decodes the pod's annotations; an error names the malformed annotation.
Result<PodReservationRequest> read_pod_reservation_request(const Pod& pod);
/// The same for matching only (match_node): `requests` is filled only when an
/// exact-match-reservation annotation needs it. Cheaper: callers without the
/// plugin's CycleState decode it per node.
Result<PodReservationRequest> read_pod_match_request(const Pod& pod);

enum class MatchOutcome {
  matched,
  ignored,
  reserve_pod,
  owner_unmatched,
  name_unmatched,
  unschedulable,
  taint_untolerated,
  affinity_unmatched,
  not_exact_matched,
};

struct MatchResult {
  MatchOutcome outcome = MatchOutcome::owner_unmatched;
  /// The untolerated taint, for taint_untolerated.
  const Taint* taint = nullptr;
  bool usable() const { return outcome == MatchOutcome::matched || outcome == MatchOutcome::ignored; }
};

MatchResult match_reservation(const PodReservationRequest& request, const Pod& pod, const Node& node,
                              const ReservationEntry& entry);

/// Counts of why owner-matched reservations were not usable
/// (nodeDiagnosisState), for the PostFilter message (reservation_diagnosis.hpp).
struct MatchDiagnosis {
  int ignored = 0;
  int owner_matched = 0;
  int name_matched = 0;
  int name_unmatched = 0;
  int unschedulable = 0;
  int affinity_unmatched = 0;
  int not_exact_matched = 0;
  int taints_unmatched = 0;
  /// "{key: value}" -> count.
  std::map<std::string, int> taint_reasons;
};

/// Counts one reservation's match result (the transformer's
/// checkReservationMatchedOrIgnored): owner-matched ones by why they are not
/// usable, or as name-matched when the pod's affinity names them.
void tally(MatchDiagnosis& d, const PodReservationRequest& request, const MatchResult& result);

/// The reservations of one node split as the transformer needs them.
struct NodeMatch {
  /// Usable by the pod (matched or ignored), in uid order.
  std::vector<const ReservationEntry*> matched;
  /// Not usable and with at least one owner (their owners' usage is inside the hold).
  std::vector<const ReservationEntry*> unmatched;
  MatchDiagnosis diagnosis;
};

NodeMatch match_node(const PodReservationRequest& request, const Pod& pod, const Node& node,
                     const NodeReservations& reservations);

}  // namespace troupe::plugins::reservation
