#pragma once
// Koordinator's PodMigrationJob (scheduling.koordinator.sh/v1alpha1, short
// name pmj, cluster scoped): one pod to move, either by first reserving room
// elsewhere (ReservationFirst) or by evicting directly. spec.deleteOptions
// (metav1.DeleteOptions) is passed through untouched in raw.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/condition.hpp"
#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/object_meta.hpp"
#include "model/reservation.hpp"
#include "model/result.hpp"

namespace troupe {

/// A Reservation's metadata and spec, as PodMigrationJob carries them.
struct ReservationTemplate {
  ObjectMeta meta;
  ReservationSpec spec;
};

/// preemptionOptions has no fields yet; only its presence means something.
struct PodMigrationPreemptionOptions {};

struct PodMigrateReservationOptions {
  /// An existing reservation to use instead of creating one.
  std::optional<ObjectReference> reservation_ref;
  std::optional<ReservationTemplate> reservation_template;  // "template"
  std::optional<PodMigrationPreemptionOptions> preemption_options;
};

struct PodMigrationJobSpec {
  bool paused = false;
  std::optional<std::chrono::nanoseconds> ttl;
  std::string mode;  // ReservationFirst, EvictDirectly ("" = the controller's default)
  ObjectReference pod_ref;
  std::optional<PodMigrateReservationOptions> reservation_options;
};

struct PodMigrationJobPreemptedReservation {
  std::string namespace_name;
  std::string name;
  std::string node_name;
  std::string phase;
  std::optional<ObjectReference> preempted_pod_ref;
  std::vector<ObjectReference> pods_ref;
};

struct PodMigrationJobStatus {
  std::string phase;  // Pending, Running, Succeeded, Failed, Aborted
  std::string status;
  std::string reason;
  std::string message;
  std::vector<Condition> conditions;
  std::string node_name;
  std::optional<ObjectReference> pod_ref;
  std::vector<ObjectReference> preempted_pods_ref;
  std::vector<PodMigrationJobPreemptedReservation> preempted_pods_reservation;
};

struct PodMigrationJob {
  ObjectMeta meta;
  PodMigrationJobSpec spec;
  PodMigrationJobStatus status;
  JsonPtr raw;
};

/// spec.podRef is required.
Result<PodMigrationJob> decode_pod_migration_job(JsonPtr doc);
Result<PodMigrationJob> decode_pod_migration_job_json(std::string_view text);
std::shared_ptr<JsonDocument> to_document(const PodMigrationJob& job);
std::string encode(const PodMigrationJob& job);

TROUPE_DECLARE_JSON_FIELDS(ReservationTemplate)
TROUPE_DECLARE_JSON_FIELDS(PodMigrationPreemptionOptions)
TROUPE_DECLARE_JSON_FIELDS(PodMigrateReservationOptions)
TROUPE_DECLARE_JSON_FIELDS(PodMigrationJobSpec)
TROUPE_DECLARE_JSON_FIELDS(PodMigrationJobPreemptedReservation)
TROUPE_DECLARE_JSON_FIELDS(PodMigrationJobStatus)
TROUPE_DECLARE_JSON_FIELDS(PodMigrationJob)

}  // namespace troupe
