#include "plugins/reservation/reservation_restore.hpp"

#include "plugins/reservation/reservation_match.hpp"
#include "plugins/reservation/reservation_names.hpp"

namespace troupe::plugins::reservation {

namespace {

const NodeReservations* held_on(const NodeInfo& node) {
  const auto* held = node.extension<NodeReservations>(NodeExtensionSlot::kReservations);
  return held == nullptr || held->empty() ? nullptr : held;
}

}  // namespace

std::vector<const ReservationEntry*> usable_reservations(const PodInfo& pod, const NodeInfo& node) {
  const NodeReservations* held = held_on(node);
  if (held == nullptr || node.node() == nullptr) return {};
  auto request = read_pod_match_request(*pod.pod);
  if (!request || request->reserve_pod) return {};
  return match_node(*request, *pod.pod, *node.node(), *held).matched;
}

const ReservationEntry* allocated_reservation(const PodInfo& pod, const NodeInfo& node) {
  const NodeReservations* held = held_on(node);
  if (held == nullptr) return nullptr;
  const std::string_view uid = held->reservation_of(pod_identity(pod));
  return uid.empty() ? nullptr : held->find(uid);
}

bool restricted(const ReservationEntry& entry) { return entry.allocate_policy() == kAllocatePolicyRestricted; }

bool allocated_reservation_restricted(const PodInfo& pod, const NodeInfo& node) {
  const ReservationEntry* entry = allocated_reservation(pod, node);
  return entry != nullptr && restricted(*entry);
}

NodeInfo trial_copy(const NodeInfo& node) {
  NodeInfo copy(node);
  copy.set_extension(NodeExtensionSlot::kReservations, nullptr);
  return copy;
}

}  // namespace troupe::plugins::reservation
