#pragma once
// The reservation side of Koordinator's RestoreReservation for the plugins
// that allocate concrete CPUs and devices (NodeNUMAResource, DeviceShare).
// An Available reservation is accounted on its node as its reserve pod, whose
// resource-status / device-allocated annotations hold the reserved cpuset and
// devices. A pod that may use the reservation sees those CPUs and devices
// free again (minus what its other owners took: they are accounted under
// their own keys) and — Koordinator's behaviour — allocates from them first;
// with allocatePolicy Restricted, only from them.
//
// These helpers say which reservations apply; each plugin's
// reservation_restore.* builds its restored state from them.

#include <vector>

#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/reservation/node_reservations.hpp"

namespace troupe::plugins::reservation {

/// The reservations on `node` that `pod` may use in Filter (matched or
/// ignored, as the transformer releases them); empty when the node holds
/// none, the pod is a reserve pod, or its annotations do not decode (the
/// Reservation plugin rejects it then).
std::vector<const ReservationEntry*> usable_reservations(const PodInfo& pod, const NodeInfo& node);

/// The reservation the Reservation plugin's Reserve (which runs first)
/// allocated to the pod on this node; nullptr when none.
const ReservationEntry* allocated_reservation(const PodInfo& pod, const NodeInfo& node);

/// Restricted: the pod may only use what the reservation reserved.
bool restricted(const ReservationEntry& entry);

/// Whether the reservation the pod allocated on the node (allocated_reservation) is Restricted.
bool allocated_reservation_restricted(const PodInfo& pod, const NodeInfo& node);

/// A copy of the node for a trial allocation on restored state, without its
/// reservations, so the plugins' restore hooks do not run again on it.
NodeInfo trial_copy(const NodeInfo& node);

}  // namespace troupe::plugins::reservation
