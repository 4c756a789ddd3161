#include <catch2/catch.hpp>

#include <vector>

#include "codec_test_support.hpp"
#include "model/pod_group.hpp"

using namespace troupe;
using namespace troupe::test;

TEST_CASE("decode_pod_group reads the gang's spec and status", "[pod_group]") {
  const char* text = R"({"apiVersion": "scheduling.sigs.k8s.io/v1alpha1", "kind": "PodGroup",
    "metadata": {"name": "gang-a", "namespace": "ml",
                 "annotations": {"gang.scheduling.koordinator.sh/total-number": "4"}},
    "spec": {"minMember": 3, "minResources": {"cpu": "3", "nvidia.com/gpu": "3"}, "scheduleTimeoutSeconds": 600},
    "status": {"phase": "Scheduling", "scheduled": 1, "running": 0, "occupiedBy": "ml/job-a",
               "scheduleStartTime": "2026-03-01T10:00:00Z"}})";
  PodGroup group = must(decode_pod_group_json(text), text);
  CHECK(group.meta.key() == "ml/gang-a");
  CHECK(group.spec.min_member == 3);
  CHECK(group.spec.min_resources.at("nvidia.com/gpu").value() == 3);
  CHECK(group.spec.schedule_timeout_seconds == 600);
  CHECK(group.status.phase == "Scheduling");
  CHECK(group.status.scheduled == 1);
  CHECK(group.status.occupied_by == "ml/job-a");
  CHECK(group.status.schedule_start_time.has_value());
  check_round_trip(group, text);

  group.status.phase = "Scheduled";
  group.status.scheduled = 3;
  auto out = parse_json(encode(group));
  REQUIRE(out.ok());
  CHECK(get_string(**out, "status", "phase") == "Scheduled");
  CHECK(get_int(**out, "status", "scheduled") == 3);
  CHECK(get_int(**out, "status", "running") == 0);  // an explicit 0 that did not change stays
  CHECK(get_string(**out, "metadata", "annotations", "gang.scheduling.koordinator.sh/total-number") == "4");
}

TEST_CASE("decode_pod_group errors name the field", "[pod_group]") {
  struct Case {
    const char* json;
    const char* error;
  };
  const Case cases[] = {
      {R"({"metadata": {"name": "g"}, "spec": {"minMember": "3"}})",
       "spec.minMember: Invalid value: string: must be an integer"},
      {R"({"metadata": {"name": "g"}, "spec": {"minMember": -1}})",
       "spec.minMember: Invalid value: must be greater than or equal to 0"},
      {R"({"metadata": {"name": "g"}, "spec": {"scheduleTimeoutSeconds": 1.5}})",
       "spec.scheduleTimeoutSeconds: Invalid value: number: must be an integer"},
      {R"({"metadata": {"name": "g"}, "spec": {"minResources": {"cpu": "3 cores"}}})",
       "spec.minResources.cpu: invalid quantity \"3 cores\": quantities must match the regular expression "
       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      {R"({"metadata": {"name": "g"}, "status": {"scheduleStartTime": 0}})",
       "status.scheduleStartTime: Invalid value: number: must be an RFC 3339 time string"},
  };
  for (const auto& c : cases) check_error(decode_pod_group_json(c.json), c.json, c.error);
}
