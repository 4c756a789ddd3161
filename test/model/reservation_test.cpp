#include <catch2/catch.hpp>

#include <vector>

#include "codec_test_support.hpp"
#include "model/reservation.hpp"

using namespace troupe;
using namespace troupe::test;

namespace {

const char* kReservationJson = R"({
  "apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Reservation",
  "metadata": {"name": "reserve-demo", "uid": "r-1", "creationTimestamp": "2026-03-01T10:00:00Z",
               "labels": {"scheduling.koordinator.sh/reservation-order": "1700000000000"}},
  "spec": {
    "template": {"metadata": {"namespace": "default", "labels": {"app": "demo"}},
                 "spec": {"schedulerName": "koord-scheduler", "nodeName": "node-1", "priority": 9000,
                          "containers": [{"name": "stress", "image": "polinux/stress",
                                          "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]}},
    "owners": [{"object": {"name": "pod-demo-0", "namespace": "default"}},
               {"controller": {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web", "uid": "rs-1",
                               "controller": true, "namespace": "default"}},
               {"labelSelector": {"matchLabels": {"app": "demo"}}}],
    "ttl": "1h",
    "allocateOnce": false,
    "allocatePolicy": "Restricted",
    "taints": [{"key": "reserved-for", "value": "batch", "effect": "NoSchedule"}],
    "preAllocationPolicy": {"mode": "Cluster", "enableMultiple": true}
  },
  "status": {
    "phase": "Available", "nodeName": "node-1",
    "allocatable": {"cpu": "500m", "memory": "1Gi"}, "allocated": {"cpu": "0"},
    "conditions": [{"type": "Scheduled", "status": "True", "reason": "Scheduled",
                    "lastProbeTime": "2026-03-01T10:00:02Z", "lastTransitionTime": "2026-03-01T10:00:02Z"},
                   {"type": "Ready", "status": "True", "reason": "Available",
                    "lastProbeTime": "2026-03-01T10:00:02Z", "lastTransitionTime": "2026-03-01T10:00:02Z"}],
    "currentOwners": [{"namespace": "default", "name": "pod-demo-0", "uid": "p-0"}]
  }
})";

}  // namespace

TEST_CASE("decode_reservation reads template, owners, policy and status", "[reservation]") {
  Reservation r = must(decode_reservation_json(kReservationJson), kReservationJson);
  REQUIRE(r.spec.pod_template.has_value());
  CHECK(r.spec.pod_template->meta.namespace_name == "default");
  CHECK(r.spec.pod_template->spec.node_name == "node-1");
  CHECK(r.spec.pod_template->spec.priority == 9000);
  CHECK(r.spec.pod_template->spec.containers[0].resources.requests.at("cpu").milli_value() == 500);
  REQUIRE(r.spec.owners.size() == 3);
  REQUIRE(r.spec.owners[0].object.has_value());
  CHECK(r.spec.owners[0].object->name == "pod-demo-0");
  CHECK_FALSE(r.spec.owners[0].controller.has_value());
  REQUIRE(r.spec.owners[1].controller.has_value());
  CHECK(r.spec.owners[1].controller->kind == "ReplicaSet");
  CHECK(r.spec.owners[1].controller->namespace_name == "default");
  CHECK(r.spec.owners[1].controller->controller == true);
  REQUIRE(r.spec.owners[2].label_selector.has_value());
  CHECK(r.spec.owners[2].label_selector->matches({{"app", "demo"}}));
  CHECK(r.spec.ttl == std::chrono::hours(1));
  CHECK_FALSE(r.spec.allocate_once);
  CHECK(r.spec.allocate_policy == "Restricted");
  REQUIRE(r.spec.taints.size() == 1);
  CHECK(r.spec.taints[0].key == "reserved-for");
  REQUIRE(r.spec.pre_allocation_policy.has_value());
  CHECK(r.spec.pre_allocation_policy->mode == "Cluster");
  CHECK(r.spec.pre_allocation_policy->enable_multiple);

  CHECK(r.status.phase == "Available");
  CHECK(r.status.node_name == "node-1");
  CHECK(r.status.allocatable.at("memory").value() == 1LL << 30);
  CHECK(r.status.allocated.at("cpu").is_zero());
  CHECK(r.status.conditions.size() == 2);
  CHECK(r.status.current_owners[0].uid == "p-0");
  CHECK(r.expires_at() == *parse_timestamp("2026-03-01T11:00:00Z"));
}

TEST_CASE("reservation defaults and expiry", "[reservation]") {
  struct Case {
    const char* what;
    const char* spec;
    const char* expires;  // nullptr: never
  };
  const Case cases[] = {
      {"ttl defaults to 24h", R"({})", "2026-03-02T10:00:00Z"},
      {"ttl 0 never expires", R"({"ttl": "0s"})", nullptr},
      {"expires wins over ttl", R"({"ttl": "1h", "expires": "2026-03-01T10:30:00Z"})", "2026-03-01T10:30:00Z"},
      {"ttl in minutes", R"({"ttl": "90m"})", "2026-03-01T11:30:00Z"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    std::string text = std::string(R"({"metadata": {"name": "r", "creationTimestamp": "2026-03-01T10:00:00Z"},
                                        "spec": )") + c.spec + "}";
    Reservation r = must(decode_reservation_json(text), text);
    CHECK(r.spec.allocate_once);
    if (c.expires == nullptr) {
      CHECK_FALSE(r.expires_at().has_value());
    } else {
      CHECK(r.expires_at() == *parse_timestamp(c.expires));
    }
    check_round_trip(r, text);
  }
}

TEST_CASE("binding a reservation writes its status and keeps the rest", "[reservation]") {
  const char* pending = R"({"metadata": {"name": "r", "creationTimestamp": "2026-03-01T10:00:00Z"},
    "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "x",
             "resources": {"requests": {"cpu": "2"}}}]}}, "owners": [{"object": {"name": "p"}}], "ttl": "24h"}})";
  Reservation r = must(decode_reservation_json(pending), pending);
  r.status.phase = "Available";
  r.status.node_name = "node-4";
  r.status.allocatable["cpu"] = Quantity::from_value(2);
  Condition scheduled;
  scheduled.type = "Scheduled";
  scheduled.status = "True";
  scheduled.reason = "Scheduled";
  scheduled.last_transition_time = parse_timestamp("2026-03-01T10:00:05Z").value();
  r.status.conditions.push_back(scheduled);
  r.spec.allocate_once = false;
  CHECK(encode(r) ==
        R"({"metadata":{"name":"r","creationTimestamp":"2026-03-01T10:00:00Z"},)"
        R"("spec":{"template":{"spec":{"containers":[{"name":"c","image":"x","resources":{"requests":{"cpu":"2"}}}]}},)"
        R"("owners":[{"object":{"name":"p"}}],"ttl":"24h","allocateOnce":false},)"
        R"("status":{"phase":"Available","conditions":[{"type":"Scheduled","status":"True","reason":"Scheduled",)"
        R"("lastTransitionTime":"2026-03-01T10:00:05Z"}],"nodeName":"node-4","allocatable":{"cpu":"2"}}})");
  r.spec.ttl = std::chrono::hours(2);
  auto out = parse_json(encode(r));
  REQUIRE(out.ok());
  CHECK(get_string(**out, "spec", "ttl") == "2h0m0s");
}

TEST_CASE("decode_reservation errors name the field", "[reservation]") {
  struct Case {
    std::string json;
    std::string error;
  };
  auto reservation = [](const std::string& spec) { return R"({"metadata": {"name": "r"}, "spec": )" + spec + "}"; };
  const std::vector<Case> cases = {
      {reservation(R"({"ttl": "1 hour"})"), "spec.ttl: time: unknown unit \" hour\" in duration \"1 hour\""},
      {reservation(R"({"ttl": 3600})"), "spec.ttl: Invalid value: number: must be a duration string like \"24h\""},
      {reservation(R"({"expires": "tomorrow"})"), "spec.expires: invalid RFC 3339 time \"tomorrow\": ..."},
      {reservation(R"({"allocateOnce": "false"})"), "spec.allocateOnce: Invalid value: string: must be a boolean"},
      {reservation(R"({"owners": [{"labelSelector": {"matchLabels": {"app": ["x"]}}}]})"),
       "spec.owners[0].labelSelector.matchLabels[app]: Invalid value: array: must be a string"},
      {reservation(R"({"owners": [{"object": "pod-a"}]})"),
       "spec.owners[0].object: Invalid value: string: must be an object"},
      {reservation(R"({"template": {"spec": {"containers": [{"image": "x"}]}}})"),
       "spec.template.spec.containers[0].name: Required value"},
      {reservation(R"({"template": {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1x"}}}]}}})"),
       "spec.template.spec.containers[0].resources.requests.cpu: invalid quantity \"1x\": ..."},
      {reservation(R"({"taints": [{"key": "k"}]})"), "spec.taints[0].effect: Required value"},
      {R"({"metadata": {"name": "r"}, "status": {"allocatable": {"cpu": false}}})",
       "status.allocatable.cpu: Invalid value: boolean: must be a quantity string"},
  };
  for (const auto& c : cases) check_error(decode_reservation_json(c.json), c.json, c.error);
}
