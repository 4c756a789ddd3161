#include "plugins/reservation/reservation_status.hpp"

#include <algorithm>

#include "model/pod_requests.hpp"

#include "plugins/reservation/pod_annotations.hpp"
#include "plugins/reservation/reservation_names.hpp"
#include "plugins/reservation/resource_list_ops.hpp"

namespace troupe::plugins::reservation {

std::string reservation_phase(const Reservation& r) {
  return r.status.phase.empty() ? std::string(kPhasePending) : r.status.phase;
}

bool is_available(const Reservation& r) { return !r.status.node_name.empty() && r.status.phase == kPhaseAvailable; }

bool is_active(const Reservation& r) {
  return !r.status.node_name.empty() && (r.status.phase == kPhaseAvailable || r.status.phase == kPhaseWaiting);
}

bool is_succeeded(const Reservation& r) { return r.status.phase == kPhaseSucceeded; }
bool is_failed(const Reservation& r) { return r.status.phase == kPhaseFailed; }

bool is_expired(const Reservation& r) {
  if (!is_failed(r)) return false;
  for (const auto& condition : r.status.conditions) {
    // Only the first Ready condition counts, as upstream returns from the loop.
    if (condition.type == kConditionReady) return condition.status == "False" && condition.reason == kReasonExpired;
  }
  return false;
}

bool allocate_once(const Reservation& r) { return r.spec.allocate_once; }

bool needs_expiration(const Reservation& r, Timestamp now) {
  if (r.spec.ttl && r.spec.ttl->count() == 0) return false;
  if (r.spec.expires && now > *r.spec.expires) return true;
  const auto ttl = std::chrono::duration_cast<std::chrono::microseconds>(r.spec.ttl.value_or(kDefaultReservationTtl));
  return r.meta.creation_timestamp && now - *r.meta.creation_timestamp > ttl;
}

Status validate_reservation(const Reservation& r) {
  if (!r.spec.pod_template) return Error{"the reservation misses the template spec"};
  if (r.spec.owners.empty()) return Error{"the reservation misses the owner spec"};
  // The API server defaults ttl to 24h, so only an undefaulted object lacks both.
  if (!r.spec.ttl && !r.spec.expires) return Error{"the reservation misses the expiration spec"};
  return Status::success();
}

OwnerStatus recompute_owners(const Reservation& r, const std::vector<const Pod*>& pods) {
  OwnerStatus out;
  const std::vector<std::string> names = resource_names(r.status.allocatable);
  for (const Pod* pod : pods) {
    if (pod == nullptr || pod->status.phase == "Succeeded" || pod->status.phase == "Failed") continue;
    // As Koordinator's controller, owners are the pods bound on the reservation's node: a pod whose
    // Binding failed after PreBind wrote the annotation (or that went elsewhere since) is not one.
    if (pod->spec.node_name.empty() || pod->spec.node_name != r.status.node_name) continue;
    auto allocated = reservation_allocated_of(pod->meta);
    if (!allocated || !*allocated || (*allocated)->uid != r.meta.uid) continue;
    ObjectReference ref;
    ref.namespace_name = pod->meta.namespace_name;
    ref.name = pod->meta.name;
    ref.uid = pod->meta.uid;
    out.current_owners.push_back(std::move(ref));
    out.allocated += mask(pod_requests(pod->spec), names);
  }
  std::sort(out.current_owners.begin(), out.current_owners.end(), [](const auto& a, const auto& b) {
    return a.namespace_name != b.namespace_name ? a.namespace_name < b.namespace_name : a.name < b.name;
  });
  out.succeeded = allocate_once(r) && !out.current_owners.empty();
  return out;
}

}  // namespace troupe::plugins::reservation
