#pragma once
// Koordinator's per-reservation metrics (pkg/scheduler/metrics,
// RecordReservationPhases and RecordReservationResource), as label values and
// values; the RESERVATION actor publishes them every tick:
//
//   scheduler_reservation_status_phase{name, phase}   1 for the current phase
//       (Pending when empty), 0 for the other three of Pending, Available,
//       Succeeded, Failed
//   scheduler_reservation_resource{type, name, resource, unit}  per resource
//       of status.allocatable: type allocatable and allocated (cpu in cores,
//       memory in GiB, anything else raw) and, where allocatable > 0,
//       utilization = allocated / allocatable (unit ratio)
//
// Label values are in the order of the families' label names above.

#include <string>
#include <utility>
#include <vector>

#include "model/reservation.hpp"

namespace troupe::plugins::reservation {

using MetricSeries = std::vector<std::pair<std::vector<std::string>, double>>;

/// scheduler_reservation_status_phase's series for one reservation: {name, phase} → 0 or 1.
MetricSeries reservation_phase_series(const Reservation& r);

/// scheduler_reservation_resource's series for one reservation: {type, name, resource, unit} → value.
MetricSeries reservation_resource_series(const Reservation& r);

}  // namespace troupe::plugins::reservation
