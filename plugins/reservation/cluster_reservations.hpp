#pragma once
// ClusterReservations: the Available reservations as the scheduling cycle
// sees them, beside ClusterPods. Koordinator keeps an Available reservation
// in its node's NodeInfo as the reserve pod (template labels and terms), so
// InterPodAffinity and PodTopologySpread count it like a pod on that node;
// and before PreFilter it takes out of the NodeInfo the reserve pods of the
// reservations the pod may use (matched or ignored, transformer.go
// restoreMatchedReservation), so an owner pod is not kept off, or spread
// away from, the room held for it. The cycle puts each reserve pod into
// ClusterPods and asks here which ones a pod sets aside.

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/pod.hpp"
#include "model/reservation.hpp"
#include "plugins/framework/cluster_pods.hpp"
#include "plugins/framework/own_selectors.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/reservation/node_reservations.hpp"
#include "plugins/reservation/reservation_diagnosis.hpp"

namespace troupe::plugins::reservation {

/// One Available reservation, placed on `node`.
struct ClusterReservation {
  /// What matching reads: the reservation and its allocatable; `owners`
  /// lists status.currentOwners (an allocateOnce reservation with one is used up).
  ReservationEntry entry;
  std::string node;
  /// make_reserve_pod_info: what ClusterPods counts on `node`.
  std::shared_ptr<const PodInfo> reserve_pod;
};

/// For a pod with a reservation-affinity: the nodes holding a reservation it
/// may use (usable_by). Shared by the cycle with the pod's attempt, it lets
/// the Reservation plugin's PreFilter restrict the candidates to them, or
/// reject the pod at once when there are none (upstream's PreFilter).
struct ReservationAffinityNodes {
  std::set<std::string> nodes;
};

class ClusterReservations {
 public:
  /// The reservation's new version: held while Available with status.nodeName
  /// (the returned entry, for ClusterPods), dropped otherwise (nullptr).
  const ClusterReservation* upsert(std::shared_ptr<const Reservation> reservation);
  /// False when the reservation was not held.
  bool remove(std::string_view uid);

  const ClusterReservation* find(std::string_view uid) const;
  bool empty() const { return held_.empty(); }
  size_t size() const { return held_.size(); }

  /// The held reservations `pod` may use on their nodes (matched or ignored,
  /// reservation_match.hpp), in uid order, among those whose reserve pod
  /// `relevant` admits (all when null). None for a reserve pod, a pod whose
  /// reservation annotations do not decode (the Reservation plugin rejects
  /// it), or a reservation on a node ClusterPods does not know.
  std::vector<const ClusterReservation*> usable_by(const Pod& pod, const ClusterPods& cluster,
                                                   const OwnSelectors* relevant = nullptr) const;
  /// Why the held reservations on nodes ClusterPods knows are usable by `pod`
  /// or not, per node (the PostFilter reasons; the caller adds the nodes'
  /// Filter reasons); nullopt for a reserve pod or a pod whose reservation
  /// annotations do not decode.
  std::optional<ReservationDiagnosis> diagnose(const Pod& pod, const ClusterPods& cluster) const;

 private:
  std::map<std::string, ClusterReservation, std::less<>> held_;  // by uid
  /// The uids of the held reservations whose reserve pod has affinity terms
  /// (relevant to every pod that counts), and of the others by their reserve
  /// pod's labels: reservations of one workload share them, so usable_by asks
  /// a pod's selectors once per label set, not once per reservation.
  std::set<std::string, std::less<>> with_terms_;
  std::map<Labels, std::set<std::string, std::less<>>> by_labels_;

  void index(const ClusterReservation& held);
  void unindex(const ClusterReservation& held);
  /// The held reservations `relevant` admits, in uid order (all when null).
  std::vector<const ClusterReservation*> relevant_to(const OwnSelectors* relevant) const;
};

}  // namespace troupe::plugins::reservation
