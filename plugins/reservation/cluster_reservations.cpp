#include "plugins/reservation/cluster_reservations.hpp"

#include <algorithm>
#include <optional>

#include "plugins/reservation/reservation_match.hpp"
#include "plugins/reservation/reservation_status.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::plugins::reservation {

namespace {

/// The owner's key in ReservationEntry::owners: its uid, else namespace/name.
std::string owner_key(const ObjectReference& owner) {
  return owner.uid.empty() ? owner.namespace_name + "/" + owner.name : owner.uid;
}

ClusterReservation make_held(std::shared_ptr<const Reservation> reservation) {
  ClusterReservation held;
  held.node = reservation->status.node_name;
  held.reserve_pod = make_reserve_pod_info(*reservation);
  held.entry = make_entry(std::move(reservation));
  for (const auto& owner : held.entry.reservation->status.current_owners) held.entry.owners[owner_key(owner)] = {};
  return held;
}

}  // namespace

const ClusterReservation* ClusterReservations::upsert(std::shared_ptr<const Reservation> reservation) {
  if (!reservation) return nullptr;
  const std::string uid = reservation->meta.uid;
  remove(uid);
  if (!is_available(*reservation) || reservation->status.node_name.empty()) return nullptr;
  auto& held = held_[uid] = make_held(std::move(reservation));
  index(held);
  return &held;
}

bool ClusterReservations::remove(std::string_view uid) {
  auto it = held_.find(uid);
  if (it == held_.end()) return false;
  unindex(it->second);
  held_.erase(it);
  return true;
}

void ClusterReservations::index(const ClusterReservation& held) {
  const Pod& pod = *held.reserve_pod->pod;
  if (has_pod_affinity_terms(pod))
    with_terms_.insert(held.entry.uid());
  else
    by_labels_[pod.meta.labels].insert(held.entry.uid());
}

void ClusterReservations::unindex(const ClusterReservation& held) {
  const Pod& pod = *held.reserve_pod->pod;
  with_terms_.erase(held.entry.uid());
  auto group = by_labels_.find(pod.meta.labels);
  if (group == by_labels_.end()) return;
  group->second.erase(held.entry.uid());
  if (group->second.empty()) by_labels_.erase(group);
}

std::vector<const ClusterReservation*> ClusterReservations::relevant_to(const OwnSelectors* relevant) const {
  std::vector<const ClusterReservation*> out;
  if (relevant == nullptr) {
    for (const auto& [uid, held] : held_) out.push_back(&held);
    return out;
  }
  auto add = [&](const std::set<std::string, std::less<>>& uids) {
    for (const auto& uid : uids) out.push_back(&held_.find(uid)->second);
  };
  add(with_terms_);
  for (const auto& [labels, uids] : by_labels_)
    if (relevant->selects(labels)) add(uids);
  std::sort(out.begin(), out.end(), [](const ClusterReservation* a, const ClusterReservation* b) {
    return a->entry.uid() < b->entry.uid();
  });
  return out;
}

const ClusterReservation* ClusterReservations::find(std::string_view uid) const {
  auto it = held_.find(uid);
  return it == held_.end() ? nullptr : &it->second;
}

std::vector<const ClusterReservation*> ClusterReservations::usable_by(const Pod& pod, const ClusterPods& cluster,
                                                                      const OwnSelectors* relevant) const {
  std::vector<const ClusterReservation*> out;
  std::optional<Result<PodReservationRequest>> request;  // decoded at the first candidate
  for (const ClusterReservation* held : relevant_to(relevant)) {
    // Not Succeeded yet but already used up: the controller is just late (match_node).
    if (held->entry.used_up()) continue;
    auto node = cluster.nodes().find(held->node);
    if (node == cluster.nodes().end() || !node->second.node) continue;
    if (!request) request = read_pod_match_request(pod);
    if (!*request || (*request)->reserve_pod) return {};
    if (match_reservation(**request, pod, *node->second.node, held->entry).usable()) out.push_back(held);
  }
  return out;
}

std::optional<ReservationDiagnosis> ClusterReservations::diagnose(const Pod& pod, const ClusterPods& cluster) const {
  auto request = read_pod_match_request(pod);
  if (!request || request->reserve_pod) return std::nullopt;
  ReservationDiagnosis out;
  out.has_affinity = request->has_affinity();
  for (const auto& [uid, held] : held_) {
    if (held.entry.used_up()) continue;  // as match_node
    auto node = cluster.nodes().find(held.node);
    if (node == cluster.nodes().end() || !node->second.node) continue;
    tally(out.nodes[held.node], *request, match_reservation(*request, pod, *node->second.node, held.entry));
  }
  return out;
}

}  // namespace troupe::plugins::reservation
