#include "plugins/reservation/reservation_diagnosis.hpp"

namespace troupe::plugins::reservation {

namespace {

void add_reason(std::vector<std::string>& reasons, int count, const std::string& what) {
  if (count > 0) reasons.push_back(std::to_string(count) + " Reservation(s) " + what);
}

}  // namespace

std::vector<std::string> post_filter_reasons(const ReservationDiagnosis& diagnosis) {
  const MatchDiagnosis& d = diagnosis.counts;
  if (d.owner_matched <= 0 && !diagnosis.has_affinity) return {};
  std::vector<std::string> reasons;
  add_reason(reasons, d.name_matched, "exactly matches the requested reservation name");
  add_reason(reasons, d.name_unmatched, "didn't match the requested reservation name");
  add_reason(reasons, d.affinity_unmatched, "didn't match affinity rules");
  add_reason(reasons, d.unschedulable, "is unschedulable");
  add_reason(reasons, d.not_exact_matched, "is not exact matched");
  // Upstream walks a Go map; troupe's is sorted by taint.
  for (const auto& [taint, count] : d.taint_reasons) add_reason(reasons, count, "had untolerated taint " + taint);
  reasons.push_back(std::to_string(d.owner_matched) + " Reservation(s) matched owner total");
  return reasons;
}

}  // namespace troupe::plugins::reservation
