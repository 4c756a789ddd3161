#pragma once
// NodeReservations: the reservations held on one node and what their owner
// pods allocated of them (Koordinator's reservationCache for one node plus
// frameworkext.ReservationInfo). NodeInfo's extension in slot kReservations.
//
// Two sources feed it, in either order:
//  - Reservation objects (apply_reservation / remove_reservation): only an
//    Available reservation is held; an update to any other phase drops it;
//  - the owner pods, through their reservation-allocated annotation
//    (on_pod_added / on_pod_removed) and through Reserve (assume_pod /
//    forget_pod). An allocation naming a reservation not (yet) held is kept
//    and counts as soon as the reservation arrives, so a restart rebuilds
//    everything from the API server alone.
// A pod allocates at most one reservation, under its identity (uid, else
// namespace/name); removal undoes exactly what was added.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/reservation.hpp"
#include "plugins/framework/node_extension.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/framework/resource_vector.hpp"

namespace troupe::plugins::reservation {

/// One held reservation, ready for matching and fit.
struct ReservationEntry {
  std::shared_ptr<const Reservation> reservation;
  /// reservation_requests(): status.allocatable of the Available reservation.
  ResourceList allocatable;
  /// The names of `allocatable`, sorted.
  std::vector<std::string> resource_names;
  /// Σ owner requests masked to resource_names.
  ResourceList allocated;
  /// `allocatable` and `allocated` as ResourceVectors, kept in step by
  /// NodeReservations: the fit checks read them per node and per pod.
  ResourceVector allocatable_vector;
  ResourceVector allocated_vector;
  /// allocatable − max(allocatable − allocated, 0): the part of the hold its
  /// owners already use (what an unmatched reservation stops holding).
  ResourceVector owners_share_vector;
  /// Owner pods: identity -> their full requests.
  std::map<std::string, ResourceList, std::less<>> owners;

  const std::string& name() const { return reservation->meta.name; }
  const std::string& uid() const { return reservation->meta.uid; }
  const std::string& allocate_policy() const { return reservation->spec.allocate_policy; }
  size_t allocated_pods() const { return owners.size(); }
  /// allocateOnce and already allocated: no further owner may use it.
  bool used_up() const { return reservation->spec.allocate_once && !owners.empty(); }
};

/// The entry of an Available reservation, without owners: its allocatable
/// (reservation_requests), their names and vector.
ReservationEntry make_entry(std::shared_ptr<const Reservation> reservation);

class NodeReservations final : public NodeExtension {
 public:
  /// Holds (or updates) the reservation when it is Available, drops it
  /// otherwise; true when held afterwards. The caller routes by status.nodeName.
  bool apply_reservation(std::shared_ptr<const Reservation> reservation);
  /// Drops the reservation (its owners' allocations stay remembered).
  bool remove_reservation(std::string_view uid);

  /// Accounts the pod's reservation-allocated annotation, if any.
  void on_pod_added(const PodInfo& pod) override;
  /// Forgets whatever the pod allocated.
  void on_pod_removed(const PodInfo& pod) override;
  std::unique_ptr<NodeExtension> clone() const override { return std::make_unique<NodeReservations>(*this); }
  /// A held reservation keeps the node's entry alive without its Node object.
  bool holds_object() const override { return !entries_.empty(); }
  /// Owners are matched by name, uid, controller and labels.
  bool results_depend_on_pod_identity() const override { return !entries_.empty(); }

  /// Reserve: the pod allocates `reservation_uid` with `requests`; false (no
  /// change) when the pod already allocated a reservation.
  bool assume_pod(std::string_view reservation_uid, std::string_view pod_key, const ResourceList& requests);
  /// Undoes assume_pod / on_pod_added; false when the pod allocated nothing here.
  bool forget_pod(std::string_view pod_key);

  /// Held reservations by uid.
  const std::map<std::string, ReservationEntry, std::less<>>& entries() const { return entries_; }
  const ReservationEntry* find(std::string_view uid) const;
  bool empty() const { return entries_.empty(); }
  /// The reservation uid the pod allocated ("" when none).
  std::string_view reservation_of(std::string_view pod_key) const;
  /// Pods whose reservation-allocated annotation did not decode or named no uid.
  size_t malformed_annotations() const { return malformed_; }

 private:
  void recompute_allocated(ReservationEntry& entry) const;

  std::map<std::string, ReservationEntry, std::less<>> entries_;
  /// reservation uid -> owner identity -> requests, for held and unknown reservations.
  std::map<std::string, std::map<std::string, ResourceList, std::less<>>, std::less<>> allocations_;
  std::map<std::string, std::string, std::less<>> pod_to_reservation_;
  size_t malformed_ = 0;
};

}  // namespace troupe::plugins::reservation
