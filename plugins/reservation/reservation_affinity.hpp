#pragma once
// The pod's scheduling.koordinator.sh/reservation-affinity annotation
// (extension.ReservationAffinity, util/reservation RequiredReservationAffinity):
//
//   {"name": "r1",                                   only this reservation
//    "reservationSelector": {"k": "v"},              labels it must carry
//    "requiredDuringSchedulingIgnoredDuringExecution":
//        {"reservationSelectorTerms": [NodeSelectorTerm, ...]},   ORed terms
//    "tolerations": [Toleration, ...]}               of the reservation's taints
//
// Its presence alone (even "" or "{}") makes reservations required for the pod.
// Selector and terms are evaluated against a fake node named after the
// reservation whose labels are the node's overlaid with the reservation's.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/node.hpp"
#include "model/object_meta.hpp"
#include "model/result.hpp"
#include "model/scheduling_types.hpp"

namespace troupe::plugins::reservation {

struct ReservationAffinity {
  std::string name;
  std::map<std::string, std::string> selector;
  /// requiredDuringSchedulingIgnoredDuringExecution; nullopt when absent.
  std::optional<NodeSelector> required;
  std::vector<Toleration> tolerations;

  /// A name is given and equals `reservation_name`.
  bool match_name(const std::string& reservation_name) const {
    return !name.empty() && name == reservation_name;
  }
  /// The selector and the required terms hold for the reservation on `node`.
  bool match_affinity(const Node& node, const ObjectMeta& reservation_meta) const;
  /// The first NoSchedule/NoExecute taint no toleration covers; nullptr when all are tolerated.
  const Taint* first_untolerated_taint(const std::vector<Taint>& taints) const;
  /// A toleration covers node.kubernetes.io/unschedulable:NoSchedule, which
  /// lets the pod use a reservation with spec.unschedulable.
  bool tolerates_unschedulable() const;
};

/// Decodes the annotation; nullopt when absent. A malformed value is an
/// error naming the annotation (and the field, for a type error).
Result<std::optional<ReservationAffinity>> reservation_affinity_of(const ObjectMeta& pod_meta);
Result<ReservationAffinity> decode_reservation_affinity(std::string_view text);

}  // namespace troupe::plugins::reservation
