#include "plugins/reservation/reservation_score.hpp"

#include <algorithm>
#include <limits>

#include "plugins/framework/plugin.hpp"

namespace troupe::plugins::reservation {

int64_t score_reservation(const ResourceList& pod_requests, const ReservationEntry& entry) {
  const ResourceList capacity = entry.allocatable.without_zeros();
  if (capacity.empty()) return 0;
  int64_t sum = 0;
  for (const auto& [name, cap] : capacity) {
    const Quantity used = pod_requests.get(name) + entry.allocated.get(name);
    // An overcommitted resource scores nothing but still counts in the divisor.
    if (used <= cap) sum += kMaxNodeScore * used.milli_value() / cap.milli_value();
  }
  return sum / static_cast<int64_t>(capacity.size());
}

PreferredReservation most_preferred(const std::vector<const ReservationEntry*>& entries) {
  PreferredReservation best;
  int64_t best_order = std::numeric_limits<int64_t>::max();
  for (const ReservationEntry* entry : entries) {
    const std::optional<int64_t> order = reservation_order(entry->reservation->meta);
    if (!order || *order == 0 || *order >= best_order) continue;
    best_order = *order;
    best.entry = entry;
    best.order = *order;
  }
  return best;
}

const ReservationEntry* nominate(const PodReservationRequest& request, const ResourceVector& pod_request,
                                 const NodeInfo& node, const NodeMatch& match, const RestoredNode& restored) {
  if (request.reserve_pod || match.matched.empty()) return nullptr;
  if (match.matched.size() == 1 && request.has_affinity()) return match.matched.front();
  std::vector<const ReservationEntry*> fitting;
  for (const ReservationEntry* entry : match.matched) {
    if (entry->used_up()) continue;
    if (filter_with_reservations(request, pod_request, node, restored, {entry}, true).ok()) fitting.push_back(entry);
  }
  if (fitting.size() <= 1) return fitting.empty() ? nullptr : fitting.front();
  if (const ReservationEntry* preferred = most_preferred(fitting).entry) return preferred;
  const ReservationEntry* best = fitting.front();
  int64_t best_score = score_reservation(request.requests, *best);
  for (size_t i = 1; i < fitting.size(); ++i) {
    const int64_t s = score_reservation(request.requests, *fitting[i]);
    if (s > best_score) {
      best_score = s;
      best = fitting[i];
    }
  }
  return best;
}

int64_t encode_node_score(int64_t order, int64_t reservation_score) {
  const int64_t clamped = std::clamp<int64_t>(order, 0, kMaxEncodedOrder);
  return clamped * kMostPreferredScore + std::clamp<int64_t>(reservation_score, 0, kMaxNodeScore);
}

void normalize_node_scores(std::vector<int64_t>& scores) {
  // Nodes without a reservation the pod may use score 0: usually all of them.
  if (std::all_of(scores.begin(), scores.end(), [](int64_t s) { return s == 0; })) return;
  size_t preferred = scores.size();
  int64_t best_order = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < scores.size(); ++i) {
    const int64_t order = scores[i] / kMostPreferredScore;
    if (order != 0 && order < best_order) {
      best_order = order;
      preferred = i;
    }
  }
  int64_t highest = 0;
  for (size_t i = 0; i < scores.size(); ++i) {
    scores[i] = i == preferred ? kMostPreferredScore : scores[i] % kMostPreferredScore;
    highest = std::max(highest, scores[i]);
  }
  // DefaultNormalizeScore(MaxNodeScore, reverse=false).
  if (highest == 0) return;
  for (auto& s : scores) s = s * kMaxNodeScore / highest;
}

}  // namespace troupe::plugins::reservation
