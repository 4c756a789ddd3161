#pragma once
// The reservation controller's API writes (blocking; run them on the I/O
// TaskPool). Status goes through the /status subresource as a
// read-modify-write, so a write never overwrites a newer status it has not
// seen; the allocation annotations of a bound reserve pod go on the
// Reservation's metadata (the status subresource ignores metadata).

#include <string>

#include "actors/messages.hpp"
#include "actors/undecodable_objects.hpp"
#include "model/reservation.hpp"
#include "watch/api_client.hpp"
#include "watch/event_writer.hpp"

namespace troupe::actors {

/// "/apis/scheduling.koordinator.sh/v1alpha1/reservations/<name>".
std::string reservation_path(const std::string& name);

/// The plugin's Bind of a reserve pod: the job's annotations (device-allocated,
/// resource-status, ...) onto the Reservation, then status nodeName,
/// allocatable (the template's requests), phase Available and conditions.
/// Fails (so the cycle unreserves) when the Reservation is gone, has another
/// uid, or is no longer Pending.
watch::ApiResult bind_reservation(watch::ApiClient& api, const BindJob& job);

/// A reserve pod that could not be placed: Scheduled=False with the message,
/// while the Reservation is still Pending.
watch::ApiResult report_reservation_unschedulable(watch::ApiClient& api, const FailureReport& report);

/// Writes `status` if the Reservation still has the resourceVersion the
/// decision was made from (else nothing: the next pass decides again).
watch::ApiResult write_reservation_status(watch::ApiClient& api, const Reservation& decided_from,
                                          const ReservationStatus& status);

/// A Pending Reservation that does not decode: phase Failed, Scheduled=False
/// with reason Invalid and the decoding error, edited into the stored object.
/// Nothing is written when it decodes by now (the watch brings the fixed
/// one), has another uid or is no longer Pending.
watch::ApiResult fail_undecodable_reservation(watch::ApiClient& api, const UndecodableObject& bad);

/// Deletes the Reservation (garbage collection), preconditioned on its uid.
watch::ApiResult delete_reservation(watch::ApiClient& api, const std::string& name, const std::string& uid);

/// The Reservation as an event's `regarding`.
watch::ObjectReference reservation_reference(const std::string& name, const std::string& uid);

}  // namespace troupe::actors
