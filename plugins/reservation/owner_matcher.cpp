#include "plugins/reservation/owner_matcher.hpp"

namespace troupe::plugins::reservation {

namespace {
bool unset_or_equal(const std::string& wanted, const std::string& actual) { return wanted.empty() || wanted == actual; }
}  // namespace

bool match_object_ref(const Pod& pod, const ObjectReference& ref) {
  // kind, resourceVersion and fieldPath are ignored: only pods are compared.
  return unset_or_equal(ref.uid, pod.meta.uid) && unset_or_equal(ref.name, pod.meta.name) &&
         unset_or_equal(ref.namespace_name, pod.meta.namespace_name) &&
         unset_or_equal(ref.api_version, kPodApiVersion);
}

bool match_controller_ref(const Pod& pod, const ReservationControllerReference& ref) {
  if (!unset_or_equal(ref.namespace_name, pod.meta.namespace_name)) return false;
  for (const auto& owner : pod.meta.owner_references) {
    const bool controller_ok = !ref.controller || (owner.controller && *owner.controller == *ref.controller);
    if (controller_ok && unset_or_equal(ref.uid, owner.uid) && unset_or_equal(ref.name, owner.name) &&
        unset_or_equal(ref.kind, owner.kind) && unset_or_equal(ref.api_version, owner.api_version))
      return true;
  }
  return false;
}

bool match_owner(const Pod& pod, const ReservationOwner& owner) {
  return (!owner.object || match_object_ref(pod, *owner.object)) &&
         (!owner.controller || match_controller_ref(pod, *owner.controller)) &&
         (!owner.label_selector || owner.label_selector->matches(pod.meta.labels));
}

bool match_owners(const Pod& pod, const std::vector<ReservationOwner>& owners) {
  for (const auto& owner : owners)
    if (match_owner(pod, owner)) return true;
  return false;
}

}  // namespace troupe::plugins::reservation
