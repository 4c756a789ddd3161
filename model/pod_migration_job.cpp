#include "model/pod_migration_job.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kPodMigrationJobKind{"scheduling.koordinator.sh/v1alpha1", "PodMigrationJob"};

template <class Io, class T>
void reservation_template_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.object("spec", x.spec);
}

template <class Io, class T>
void preemption_options_fields(Io&, T&) {}

template <class Io, class T>
void reservation_options_fields(Io& io, T& x) {
  io.optional_object("reservationRef", x.reservation_ref);
  io.optional_object("template", x.reservation_template);
  io.optional_object("preemptionOptions", x.preemption_options);
}

template <class Io, class T>
void pmj_spec_fields(Io& io, T& x) {
  io.field("paused", x.paused);
  io.field("ttl", x.ttl);
  io.field("mode", x.mode);
  io.required_object("podRef", x.pod_ref);
  io.optional_object("reservationOptions", x.reservation_options);
}

template <class Io, class T>
void preempted_reservation_fields(Io& io, T& x) {
  io.field("namespace", x.namespace_name);
  io.field("name", x.name);
  io.field("nodeName", x.node_name);
  io.field("phase", x.phase);
  io.optional_object("preemptedPodRef", x.preempted_pod_ref);
  io.array("podsRef", x.pods_ref);
}

template <class Io, class T>
void pmj_status_fields(Io& io, T& x) {
  io.field("phase", x.phase);
  io.field("status", x.status);
  io.field("reason", x.reason);
  io.field("message", x.message);
  io.array("conditions", x.conditions);
  io.field("nodeName", x.node_name);
  io.optional_object("podRef", x.pod_ref);
  io.array("preemptedPodsRef", x.preempted_pods_ref);
  io.array("preemptedPodsReservation", x.preempted_pods_reservation);
}

template <class Io, class T>
void pmj_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.required_object("spec", x.spec);
  io.object("status", x.status);
}

}  // namespace

TROUPE_JSON_FIELDS(ReservationTemplate, reservation_template_fields)
TROUPE_JSON_FIELDS(PodMigrationPreemptionOptions, preemption_options_fields)
TROUPE_JSON_FIELDS(PodMigrateReservationOptions, reservation_options_fields)
TROUPE_JSON_FIELDS(PodMigrationJobSpec, pmj_spec_fields)
TROUPE_JSON_FIELDS(PodMigrationJobPreemptedReservation, preempted_reservation_fields)
TROUPE_JSON_FIELDS(PodMigrationJobStatus, pmj_status_fields)
TROUPE_JSON_FIELDS(PodMigrationJob, pmj_fields)

Result<PodMigrationJob> decode_pod_migration_job(JsonPtr doc) {
  return decode_object<PodMigrationJob>(doc, kPodMigrationJobKind);
}

Result<PodMigrationJob> decode_pod_migration_job_json(std::string_view text) {
  return decode_object_text<PodMigrationJob>(text, kPodMigrationJobKind);
}

std::shared_ptr<JsonDocument> to_document(const PodMigrationJob& job) {
  return encode_document(job, kPodMigrationJobKind);
}

std::string encode(const PodMigrationJob& job) { return to_json(*to_document(job)); }

}  // namespace troupe
