#pragma once
// A Reservation seen as a pod (NewReservePod, pkg/util/reservation): how the
// scheduler queues, places and accounts it.
//
//   name = uid = the reservation's uid; namespace = the template's or "default"
//   labels, annotations = template's overlaid by the reservation's own
//   annotations reserve-pod: "true", reservation-name, reservation-node
//     (moved from template spec.nodeName), is-pre-allocation (preAllocation)
//   spec.nodeName = status.nodeName (where it was placed)
//   priority = template's, else label koordinator.sh/priority, else MaxInt32
//   schedulerName = template's, else default-scheduler
//   phase Succeeded / Failed mirrors the reservation
//   once Available, requests = status.allocatable (fake container
//     __internal_fake_container__), when they differ from the template's

#include <memory>
#include <string>

#include "model/pod.hpp"
#include "model/reservation.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins::reservation {

inline constexpr const char* kDefaultSchedulerName = "default-scheduler";

Pod make_reserve_pod(const Reservation& r);
std::shared_ptr<const PodInfo> make_reserve_pod_info(const Reservation& r);

/// ReservationRequests: status.allocatable once Available, else the template's pod requests.
ResourceList reservation_requests(const Reservation& r);

bool is_reserve_pod(const ObjectMeta& pod_meta);
/// The reservation-name annotation ("" when absent).
std::string reservation_name_of(const ObjectMeta& reserve_pod_meta);
/// The node the reservation asked for (reservation-node annotation; "" when none).
std::string reserve_pod_node(const ObjectMeta& reserve_pod_meta);
/// The reservation's allocate policy carried by make_reserve_pod.
std::string reserve_pod_allocate_policy(const ObjectMeta& reserve_pod_meta);

}  // namespace troupe::plugins::reservation
