#include "plugins/reservation/reservation_match.hpp"

#include "model/pod_requests.hpp"
#include "plugins/reservation/owner_matcher.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::plugins::reservation {

namespace {
const std::string kNoName;
}  // namespace

void tally(MatchDiagnosis& d, const PodReservationRequest& request, const MatchResult& result) {
  switch (result.outcome) {
    case MatchOutcome::ignored: ++d.ignored; return;
    case MatchOutcome::reserve_pod:
    case MatchOutcome::owner_unmatched: return;
    default: break;
  }
  ++d.owner_matched;
  switch (result.outcome) {
    case MatchOutcome::matched:
      if (!request.affinity_name().empty()) ++d.name_matched;
      break;
    case MatchOutcome::name_unmatched: ++d.name_unmatched; break;
    case MatchOutcome::unschedulable: ++d.unschedulable; break;
    case MatchOutcome::affinity_unmatched: ++d.affinity_unmatched; break;
    case MatchOutcome::not_exact_matched: ++d.not_exact_matched; break;
    case MatchOutcome::taint_untolerated:
      ++d.taints_unmatched;
      ++d.taint_reasons["{" + result.taint->key + ": " + result.taint->value + "}"];
      break;
    default: break;
  }
}

const std::string& PodReservationRequest::affinity_name() const { return affinity ? affinity->name : kNoName; }

Result<PodReservationRequest> read_pod_match_request(const Pod& pod) {
  PodReservationRequest request;
  request.reserve_pod = is_reserve_pod(pod.meta);
  request.ignored = is_reservation_ignored(pod.meta);
  auto affinity = reservation_affinity_of(pod.meta);
  if (!affinity) return affinity.error();
  request.affinity = std::move(*affinity);
  auto exact = exact_match_spec_of(pod.meta);
  if (!exact) return exact.error();
  request.exact_match = std::move(*exact);
  // Matching reads the requests only to compare them exactly.
  if (request.exact_match) request.requests = pod_requests(pod.spec);
  return request;
}

Result<PodReservationRequest> read_pod_reservation_request(const Pod& pod) {
  auto request = read_pod_match_request(pod);
  if (request && !request->exact_match) request->requests = pod_requests(pod.spec);
  return request;
}

MatchResult match_reservation(const PodReservationRequest& request, const Pod& pod, const Node& node,
                              const ReservationEntry& entry) {
  if (request.reserve_pod) return {MatchOutcome::reserve_pod};
  if (request.ignored) return {MatchOutcome::ignored};
  const Reservation& r = *entry.reservation;
  if (!match_owners(pod, r.spec.owners)) return {MatchOutcome::owner_unmatched};
  const bool exact = exact_match(request.requests, entry.allocatable, request.exact_match);
  if (!request.affinity_name().empty()) {
    // A named reservation skips the unschedulable, taint and affinity checks.
    if (!request.affinity->match_name(r.meta.name)) return {MatchOutcome::name_unmatched};
    return {exact ? MatchOutcome::matched : MatchOutcome::not_exact_matched};
  }
  // New pods may not use an unschedulable reservation unless their affinity tolerates it.
  if (r.spec.unschedulable && !(request.affinity && request.affinity->tolerates_unschedulable()))
    return {MatchOutcome::unschedulable};
  if (request.affinity) {
    if (const Taint* taint = request.affinity->first_untolerated_taint(r.spec.taints))
      return {MatchOutcome::taint_untolerated, taint};
    if (!request.affinity->match_affinity(node, r.meta)) return {MatchOutcome::affinity_unmatched};
  }
  return {exact ? MatchOutcome::matched : MatchOutcome::not_exact_matched};
}

NodeMatch match_node(const PodReservationRequest& request, const Pod& pod, const Node& node,
                     const NodeReservations& reservations) {
  NodeMatch out;
  for (const auto& [uid, entry] : reservations.entries()) {
    // Not Succeeded yet but already used up: the controller is just late.
    if (entry.used_up()) continue;
    const MatchResult result = match_reservation(request, pod, node, entry);
    tally(out.diagnosis, request, result);
    if (result.usable())
      out.matched.push_back(&entry);
    else if (entry.allocated_pods() > 0)
      out.unmatched.push_back(&entry);
  }
  return out;
}

}  // namespace troupe::plugins::reservation
