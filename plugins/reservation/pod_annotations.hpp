#pragma once
// The pod-side reservation API besides the affinity (apis/extension/reservation.go):
//   reservation-allocated    {"name":"r1","uid":"..."}: which reservation a pod
//                            was bound into (written at PreBind)
//   exact-match-reservation  {"resourceNames":["cpu"]}: listed resources must
//                            be equal between the pod and the reservation
//   reservation-ignored      label "true": the pod ignores every reservation
//   reservation-order        reservation label: smaller non-zero = preferred
//   disable-preemptible      label "true": never a preemption victim
// Decoding follows Go's encoding/json: unknown fields are ignored, a wrong
// type is an error, JSON null leaves the zero value. Errors name the annotation.

#include <optional>
#include <string>
#include <vector>

#include "model/object_meta.hpp"
#include "model/pod.hpp"
#include "model/resources.hpp"
#include "model/result.hpp"

namespace troupe::plugins::reservation {

struct ReservationAllocated {
  std::string name;
  std::string uid;
  friend bool operator==(const ReservationAllocated& a, const ReservationAllocated& b) {
    return a.name == b.name && a.uid == b.uid;
  }
};

/// Exactly Go's json.Marshal: {"name":"r1","uid":"u1"}, empty fields omitted.
std::string encode_reservation_allocated(const ReservationAllocated& allocated);
/// The annotation's value decoded; an error names the annotation.
Result<ReservationAllocated> decode_reservation_allocated(std::string_view text);
/// nullopt when the pod has no reservation-allocated annotation.
Result<std::optional<ReservationAllocated>> reservation_allocated_of(const ObjectMeta& meta);

struct ExactMatchSpec {
  std::vector<std::string> resource_names;
};

/// nullopt when the annotation is absent or empty (as GetExactMatchReservationSpec).
Result<std::optional<ExactMatchSpec>> exact_match_spec_of(const ObjectMeta& meta);

/// ExactMatchReservation: every listed resource must be present in both with
/// equal amounts. Upstream quirk kept: a listed resource absent on both sides
/// ends the check as a match, even if later names differ.
bool exact_match(const ResourceList& pod_requests, const ResourceList& reservation_allocatable,
                 const std::optional<ExactMatchSpec>& spec);

/// The pod carries reservation-ignored: "true".
bool is_reservation_ignored(const ObjectMeta& meta);
/// The reservation-order label as an integer; nullopt when absent or not an integer.
std::optional<int64_t> reservation_order(const ObjectMeta& reservation_meta);
/// Koordinator's IsPodPreemptible: not labelled disable-preemptible: "true".
bool is_preemptible(const ObjectMeta& meta);

}  // namespace troupe::plugins::reservation
