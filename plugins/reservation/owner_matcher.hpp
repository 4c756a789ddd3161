#pragma once
// Whether a pod is an owner of a reservation (MatchReservationOwners,
// pkg/util/reservation): spec.owners is a disjunction of owner selectors,
// each the conjunction of its set fields:
//   object      ObjectReference: uid, name, namespace, apiVersion (empty = any)
//   controller  matches any of the pod's ownerReferences on the set fields
//               (controller, uid, name, kind, apiVersion); namespace is the pod's
//   labelSelector over the pod's labels
// No owners matches nothing; one empty owner ({}) matches every pod.

#include <vector>

#include "model/pod.hpp"
#include "model/reservation.hpp"

namespace troupe::plugins::reservation {

/// The apiVersion a pod is compared with. Upstream compares the typed pod's
/// TypeMeta, which informers leave empty (so an owner naming apiVersion never
/// matched); troupe reads every pod as "v1".
inline constexpr const char* kPodApiVersion = "v1";

bool match_object_ref(const Pod& pod, const ObjectReference& ref);
bool match_controller_ref(const Pod& pod, const ReservationControllerReference& ref);
bool match_owner(const Pod& pod, const ReservationOwner& owner);
bool match_owners(const Pod& pod, const std::vector<ReservationOwner>& owners);

}  // namespace troupe::plugins::reservation
