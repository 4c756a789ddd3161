#include "model/reservation.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kReservationKind{"scheduling.koordinator.sh/v1alpha1", "Reservation"};

template <class Io, class T>
void controller_reference_fields(Io& io, T& x) {
  io.field("apiVersion", x.api_version);
  io.field("kind", x.kind);
  io.field("name", x.name);
  io.field("uid", x.uid);
  io.field("controller", x.controller);
  io.field("namespace", x.namespace_name);
}

template <class Io, class T>
void owner_fields(Io& io, T& x) {
  io.optional_object("object", x.object);
  io.optional_object("controller", x.controller);
  io.field("labelSelector", x.label_selector);
}

template <class Io, class T>
void pre_allocation_policy_fields(Io& io, T& x) {
  io.field("mode", x.mode);
  io.field("enableMultiple", x.enable_multiple);
}

template <class Io, class T>
void reservation_spec_fields(Io& io, T& x) {
  io.optional_object("template", x.pod_template);
  io.array("owners", x.owners);
  io.field("ttl", x.ttl);
  io.field("expires", x.expires);
  io.field("preAllocation", x.pre_allocation);
  io.field("allocateOnce", x.allocate_once, true);
  io.field("allocatePolicy", x.allocate_policy);
  io.field("unschedulable", x.unschedulable);
  io.array("taints", x.taints);
  io.optional_object("preAllocationPolicy", x.pre_allocation_policy);
}

template <class Io, class T>
void reservation_status_fields(Io& io, T& x) {
  io.field("phase", x.phase);
  io.array("conditions", x.conditions);
  io.array("currentOwners", x.current_owners);
  io.field("nodeName", x.node_name);
  io.field("allocatable", x.allocatable);
  io.field("allocated", x.allocated);
}

template <class Io, class T>
void reservation_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.object("spec", x.spec);
  io.object("status", x.status);
}

}  // namespace

TROUPE_JSON_FIELDS(ReservationControllerReference, controller_reference_fields)
TROUPE_JSON_FIELDS(ReservationOwner, owner_fields)
TROUPE_JSON_FIELDS(ReservationPreAllocationPolicy, pre_allocation_policy_fields)
TROUPE_JSON_FIELDS(ReservationSpec, reservation_spec_fields)
TROUPE_JSON_FIELDS(ReservationStatus, reservation_status_fields)
TROUPE_JSON_FIELDS(Reservation, reservation_fields)

std::optional<Timestamp> Reservation::expires_at() const {
  if (spec.expires) return spec.expires;
  const std::chrono::nanoseconds ttl = spec.ttl.value_or(kDefaultReservationTtl);
  if (ttl.count() == 0 || !meta.creation_timestamp) return std::nullopt;
  return *meta.creation_timestamp + std::chrono::duration_cast<std::chrono::microseconds>(ttl);
}

Result<Reservation> decode_reservation(JsonPtr doc) { return decode_object<Reservation>(doc, kReservationKind); }

Result<Reservation> decode_reservation_json(std::string_view text) {
  return decode_object_text<Reservation>(text, kReservationKind);
}

std::shared_ptr<JsonDocument> to_document(const Reservation& reservation) {
  return encode_document(reservation, kReservationKind);
}

std::string encode(const Reservation& reservation) { return to_json(*to_document(reservation)); }

}  // namespace troupe
