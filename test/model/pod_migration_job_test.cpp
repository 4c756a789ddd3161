#include <catch2/catch.hpp>

#include <vector>

#include "codec_test_support.hpp"
#include "model/pod_migration_job.hpp"

using namespace troupe;
using namespace troupe::test;

namespace {

const char* kJobJson = R"({
  "apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "PodMigrationJob",
  "metadata": {"name": "migrate-demo", "uid": "j-1", "creationTimestamp": "2026-03-01T10:00:00Z"},
  "spec": {
    "paused": false, "ttl": "5m0s", "mode": "ReservationFirst",
    "podRef": {"namespace": "default", "name": "pod-demo-5f9b977566-c7lvk", "uid": "p-9"},
    "reservationOptions": {
      "template": {"metadata": {"labels": {"app.kubernetes.io/created-by": "koord-descheduler"}},
                   "spec": {"template": {"spec": {"containers": [{"name": "c", "resources":
                                                                   {"requests": {"cpu": "1"}}}]}},
                            "owners": [{"object": {"name": "pod-demo-5f9b977566-c7lvk", "namespace": "default"}}],
                            "allocateOnce": true, "ttl": "5m0s"}},
      "preemptionOptions": {}},
    "deleteOptions": {"gracePeriodSeconds": 30, "propagationPolicy": "Background"}
  },
  "status": {
    "phase": "Running", "status": "", "reason": "WaitForPodBindReservation",
    "message": "Pod default/pod-demo has not yet bound to the reservation", "nodeName": "node-2",
    "conditions": [{"type": "ReservationCreated", "status": "True", "lastTransitionTime": "2026-03-01T10:00:01Z"},
                   {"type": "ReservationScheduled", "status": "True", "reason": "Scheduled"}],
    "podRef": {"namespace": "default", "name": "pod-demo-5f9b977566-c7lvk"},
    "preemptedPodsReservation": [{"name": "r-1", "nodeName": "node-2", "phase": "Available",
                                  "preemptedPodRef": {"name": "victim"}, "podsRef": [{"name": "y"}]}]
  }
})";

}  // namespace

TEST_CASE("decode_pod_migration_job reads spec, reservation options and status", "[pod_migration_job]") {
  PodMigrationJob job = must(decode_pod_migration_job_json(kJobJson), kJobJson);
  CHECK_FALSE(job.spec.paused);
  CHECK(job.spec.ttl == std::chrono::minutes(5));
  CHECK(job.spec.mode == "ReservationFirst");
  CHECK(job.spec.pod_ref.name == "pod-demo-5f9b977566-c7lvk");
  CHECK(job.spec.pod_ref.uid == "p-9");
  REQUIRE(job.spec.reservation_options.has_value());
  const auto& options = *job.spec.reservation_options;
  CHECK_FALSE(options.reservation_ref.has_value());
  REQUIRE(options.reservation_template.has_value());
  CHECK(options.reservation_template->meta.labels.at("app.kubernetes.io/created-by") == "koord-descheduler");
  CHECK(options.reservation_template->spec.ttl == std::chrono::minutes(5));
  CHECK(options.reservation_template->spec.owners.size() == 1);
  CHECK(options.preemption_options.has_value());

  CHECK(job.status.phase == "Running");
  CHECK(job.status.reason == "WaitForPodBindReservation");
  CHECK(job.status.node_name == "node-2");
  CHECK(job.status.conditions.size() == 2);
  REQUIRE(job.status.pod_ref.has_value());
  REQUIRE(job.status.preempted_pods_reservation.size() == 1);
  CHECK(job.status.preempted_pods_reservation[0].preempted_pod_ref->name == "victim");
  CHECK(job.status.preempted_pods_reservation[0].pods_ref[0].name == "y");
  check_round_trip(job, kJobJson);
}

TEST_CASE("advancing a migration job rewrites only its status", "[pod_migration_job]") {
  PodMigrationJob job = must(decode_pod_migration_job_json(kJobJson), kJobJson);
  job.status.phase = "Succeeded";
  job.status.reason.clear();
  job.status.message = "migrated";
  auto out = parse_json(encode(job));
  REQUIRE(out.ok());
  CHECK(get_string(**out, "status", "phase") == "Succeeded");
  CHECK(find_path(**out, "status", "reason") == nullptr);
  CHECK(get_string(**out, "status", "message") == "migrated");
  CHECK(get_int(**out, "spec", "deleteOptions", "gracePeriodSeconds") == 30);
  CHECK(find_path(**out, "spec", "reservationOptions", "preemptionOptions") != nullptr);

  job.spec.reservation_options->preemption_options.reset();
  auto without = parse_json(encode(job));
  REQUIRE(without.ok());
  CHECK(find_path(**without, "spec", "reservationOptions", "preemptionOptions") == nullptr);
}

TEST_CASE("decode_pod_migration_job needs a podRef", "[pod_migration_job]") {
  struct Case {
    const char* json;
    const char* error;
  };
  const Case cases[] = {
      {R"({"metadata": {"name": "j"}})", "spec: Required value"},
      {R"({"metadata": {"name": "j"}, "spec": {"mode": "EvictDirectly"}})", "spec.podRef: Required value"},
      {R"({"metadata": {"name": "j"}, "spec": {"podRef": "default/p"}})",
       "spec.podRef: Invalid value: string: must be an object"},
      {R"({"metadata": {"name": "j"}, "spec": {"podRef": {"name": "p"}, "paused": "no"}})",
       "spec.paused: Invalid value: string: must be a boolean"},
      {R"({"metadata": {"name": "j"}, "spec": {"podRef": {"name": "p"}, "ttl": "5 min"}})",
       "spec.ttl: time: unknown unit \" min\" in duration \"5 min\""},
      {R"({"metadata": {"name": "j"}, "spec": {"podRef": {"name": "p"},
           "reservationOptions": {"template": {"spec": {"ttl": "forever"}}}}})",
       "spec.reservationOptions.template.spec.ttl: time: invalid duration \"forever\""},
      {R"({"metadata": {"name": "j"}, "spec": {"podRef": {"name": "p"}},
           "status": {"preemptedPodsReservation": [{"podsRef": {}}]}})",
       "status.preemptedPodsReservation[0].podsRef: Invalid value: object: must be an array"},
  };
  for (const auto& c : cases) check_error(decode_pod_migration_job_json(c.json), c.json, c.error);
}
