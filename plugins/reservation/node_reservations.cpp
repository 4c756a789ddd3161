#include "plugins/reservation/node_reservations.hpp"

#include "model/pod_requests.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/reservation/pod_annotations.hpp"
#include "plugins/reservation/reservation_status.hpp"
#include "plugins/reservation/reserve_pod.hpp"
#include "plugins/reservation/resource_list_ops.hpp"

namespace troupe::plugins::reservation {

void NodeReservations::recompute_allocated(ReservationEntry& entry) const {
  entry.owners.clear();
  entry.allocated.clear();
  auto it = allocations_.find(entry.uid());
  if (it != allocations_.end()) {
    entry.owners = it->second;
    for (const auto& [pod, requests] : entry.owners) entry.allocated += mask(requests, entry.resource_names);
  }
  entry.allocated_vector = ResourceVector::from(entry.allocated);
  entry.owners_share_vector = entry.allocatable_vector;
  entry.owners_share_vector.subtract(ResourceVector::from(subtract_non_negative(entry.allocatable, entry.allocated)));
}

ReservationEntry make_entry(std::shared_ptr<const Reservation> reservation) {
  ReservationEntry entry;
  entry.allocatable = reservation_requests(*reservation);
  entry.resource_names = resource_names(entry.allocatable);
  entry.allocatable_vector = ResourceVector::from(entry.allocatable);
  entry.reservation = std::move(reservation);
  return entry;
}

bool NodeReservations::apply_reservation(std::shared_ptr<const Reservation> reservation) {
  if (!reservation) return false;
  if (!is_available(*reservation)) {
    remove_reservation(reservation->meta.uid);
    return false;
  }
  ReservationEntry entry = make_entry(std::move(reservation));
  recompute_allocated(entry);
  const std::string uid = entry.uid();
  entries_[uid] = std::move(entry);
  return true;
}

bool NodeReservations::remove_reservation(std::string_view uid) {
  auto it = entries_.find(uid);
  if (it == entries_.end()) return false;
  entries_.erase(it);
  return true;
}

const ReservationEntry* NodeReservations::find(std::string_view uid) const {
  auto it = entries_.find(uid);
  return it == entries_.end() ? nullptr : &it->second;
}

std::string_view NodeReservations::reservation_of(std::string_view pod_key) const {
  auto it = pod_to_reservation_.find(pod_key);
  return it == pod_to_reservation_.end() ? std::string_view() : std::string_view(it->second);
}

bool NodeReservations::assume_pod(std::string_view reservation_uid, std::string_view pod_key,
                                  const ResourceList& requests) {
  if (pod_to_reservation_.count(pod_key) != 0) return false;
  pod_to_reservation_.emplace(std::string(pod_key), std::string(reservation_uid));
  auto& owners = allocations_[std::string(reservation_uid)];
  owners.emplace(std::string(pod_key), requests);
  auto entry = entries_.find(reservation_uid);
  if (entry != entries_.end()) recompute_allocated(entry->second);
  return true;
}

bool NodeReservations::forget_pod(std::string_view pod_key) {
  auto link = pod_to_reservation_.find(pod_key);
  if (link == pod_to_reservation_.end()) return false;
  const std::string uid = link->second;
  pod_to_reservation_.erase(link);
  auto owners = allocations_.find(uid);
  if (owners != allocations_.end()) {
    owners->second.erase(std::string(pod_key));
    if (owners->second.empty()) allocations_.erase(owners);
  }
  auto entry = entries_.find(uid);
  if (entry != entries_.end()) recompute_allocated(entry->second);
  return true;
}

void NodeReservations::on_pod_added(const PodInfo& pod) {
  if (is_reserve_pod(pod.meta())) return;  // reservations arrive as objects
  auto allocated = reservation_allocated_of(pod.meta());
  if (!allocated || (*allocated && (*allocated)->uid.empty())) {
    ++malformed_;
    return;
  }
  if (!*allocated) return;
  assume_pod((*allocated)->uid, pod_identity(pod), pod_requests(pod.spec()));
}

void NodeReservations::on_pod_removed(const PodInfo& pod) { forget_pod(pod_identity(pod)); }

}  // namespace troupe::plugins::reservation
