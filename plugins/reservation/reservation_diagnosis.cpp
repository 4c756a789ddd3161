#include "plugins/reservation/reservation_diagnosis.hpp"

#include "plugins/reservation/reservation_fit.hpp"

namespace troupe::plugins::reservation {

namespace {

void add_reason(std::vector<std::string>& reasons, int count, const std::string& what) {
  if (count > 0) reasons.push_back(std::to_string(count) + " Reservation(s) " + what);
}

bool is_reservation_reason(const std::string& reason) {
  return reason.rfind(kReservationReasonPrefix, 0) == 0;
}

/// reason -> reservations that a rejection of their node for it kept from the pod.
std::map<std::string, int> node_reason_counts(const ReservationDiagnosis& diagnosis) {
  std::map<std::string, int> out;
  for (const auto& [node, d] : diagnosis.nodes) {
    int left = usable_reservations(d);
    auto rejected = diagnosis.node_reasons.find(node);
    if (left <= 0 || rejected == diagnosis.node_reasons.end()) continue;
    std::map<std::string, int> reasons;
    for (const auto& reason : rejected->second) {
      if (is_reservation_reason(reason))
        --left;  // the reservation's own fit, said by the Filter already
      else
        ++reasons[reason];
    }
    if (left <= 0) continue;
    for (const auto& [reason, count] : reasons) out[reason] += left * count;
  }
  return out;
}

}  // namespace

int usable_reservations(const MatchDiagnosis& d) {
  return d.owner_matched - d.name_unmatched - d.unschedulable - d.affinity_unmatched - d.not_exact_matched -
         d.taints_unmatched;
}

std::vector<std::string> post_filter_reasons(const ReservationDiagnosis& diagnosis) {
  MatchDiagnosis d;
  for (const auto& [node, counts] : diagnosis.nodes) {
    d.owner_matched += counts.owner_matched;
    d.name_matched += counts.name_matched;
    d.name_unmatched += counts.name_unmatched;
    d.affinity_unmatched += counts.affinity_unmatched;
    d.unschedulable += counts.unschedulable;
    d.not_exact_matched += counts.not_exact_matched;
    for (const auto& [taint, count] : counts.taint_reasons) d.taint_reasons[taint] += count;
  }
  if (d.owner_matched <= 0 && !diagnosis.has_affinity) return {};
  std::vector<std::string> reasons;
  add_reason(reasons, d.name_matched, "exactly matches the requested reservation name");
  add_reason(reasons, d.name_unmatched, "didn't match the requested reservation name");
  add_reason(reasons, d.affinity_unmatched, "didn't match affinity rules");
  add_reason(reasons, d.unschedulable, "is unschedulable");
  add_reason(reasons, d.not_exact_matched, "is not exact matched");
  for (const auto& [taint, count] : d.taint_reasons) add_reason(reasons, count, "had untolerated taint " + taint);
  for (const auto& [reason, count] : node_reason_counts(diagnosis))
    add_reason(reasons, count, "for node reason that " + reason);
  reasons.push_back(std::to_string(d.owner_matched) + " Reservation(s) matched owner total");
  return reasons;
}

}  // namespace troupe::plugins::reservation
