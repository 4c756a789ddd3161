// Namespace, Lease, Event and PodDisruptionBudget views.
#include <catch2/catch.hpp>

#include <vector>

#include "codec_test_support.hpp"
#include "model/event.hpp"
#include "model/lease.hpp"
#include "model/namespace.hpp"
#include "model/pod_disruption_budget.hpp"

using namespace troupe;
using namespace troupe::test;

TEST_CASE("namespaces decode labels and phase", "[namespace]") {
  const char* text = R"({"apiVersion": "v1", "kind": "Namespace",
    "metadata": {"name": "shop", "labels": {"kubernetes.io/metadata.name": "shop", "team": "a"}},
    "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Terminating"}})";
  Namespace ns = must(decode_namespace_json(text), text);
  CHECK(ns.meta.labels.at("team") == "a");
  CHECK(ns.phase == "Terminating");
  check_round_trip(ns, text);
  check_error(decode_namespace_json(R"({"metadata": {"name": "x"}, "status": {"phase": 1}})"), "",
              "status.phase: Invalid value: number: must be a string");
}

TEST_CASE("leases decode MicroTime and keep a released holder", "[lease]") {
  const char* text = R"({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
    "metadata": {"name": "troupe", "namespace": "kube-system", "resourceVersion": "4711"},
    "spec": {"holderIdentity": "host-a_6f1c", "leaseDurationSeconds": 15,
             "acquireTime": "2026-11-21T23:00:00.000000Z", "renewTime": "2026-11-21T23:37:30.123456Z",
             "leaseTransitions": 3}})";
  Lease lease = must(decode_lease_json(text), text);
  CHECK(lease.spec.holder_identity == "host-a_6f1c");
  CHECK(lease.spec.lease_duration_seconds == 15);
  CHECK(lease.spec.lease_transitions == 3);
  REQUIRE(lease.spec.renew_time.has_value());
  CHECK(format_micro_timestamp(*lease.spec.renew_time) == "2026-11-21T23:37:30.123456Z");
  check_round_trip(lease, text);

  // Renewal writes MicroTime with six digits; releasing keeps an empty holder.
  lease.spec.renew_time = *parse_timestamp("2026-11-21T23:37:32Z");
  lease.spec.holder_identity = "";
  auto out = parse_json(encode(lease));
  REQUIRE(out.ok());
  CHECK(get_string(**out, "spec", "renewTime") == "2026-11-21T23:37:32.000000Z");
  CHECK(get_string(**out, "spec", "acquireTime") == "2026-11-21T23:00:00.000000Z");
  REQUIRE(find_path(**out, "spec", "holderIdentity") != nullptr);
  CHECK(get_string(**out, "spec", "holderIdentity") == "");

  Lease fresh;
  fresh.meta.name = "troupe";
  fresh.meta.namespace_name = "kube-system";
  fresh.spec.holder_identity = "host-b_1";
  fresh.spec.lease_duration_seconds = 15;
  fresh.spec.acquire_time = *parse_timestamp("2026-01-01T00:00:00.5Z");
  fresh.spec.renew_time = fresh.spec.acquire_time;
  fresh.spec.lease_transitions = 0;
  CHECK(encode(fresh) ==
        R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"troupe","namespace":"kube-system"},)"
        R"("spec":{"holderIdentity":"host-b_1","leaseDurationSeconds":15,"acquireTime":"2026-01-01T00:00:00.500000Z",)"
        R"("renewTime":"2026-01-01T00:00:00.500000Z","leaseTransitions":0}})");

  check_error(decode_lease_json(R"({"metadata": {"name": "l"}, "spec": {"renewTime": "2026-11-21 23:37:30"}})"), "",
              "spec.renewTime: invalid RFC 3339 time \"2026-11-21 23:37:30\": expected YYYY-MM-DDTHH:MM:SS");
  check_error(decode_lease_json(R"({"metadata": {"name": "l"}, "spec": {"leaseDurationSeconds": "15s"}})"), "",
              "spec.leaseDurationSeconds: Invalid value: string: must be an integer");
}

TEST_CASE("core/v1 events map onto the common fields", "[event]") {
  const char* text = R"({"apiVersion": "v1", "kind": "Event",
    "metadata": {"name": "demo.1879a2f1c3d4e5f6", "namespace": "default"},
    "involvedObject": {"kind": "Pod", "namespace": "default", "name": "demo", "uid": "u-9", "apiVersion": "v1"},
    "reason": "Scheduled", "message": "Successfully assigned default/demo to node-1", "type": "Normal",
    "source": {"component": "troupe"},
    "firstTimestamp": "2026-11-21T23:37:31Z", "lastTimestamp": "2026-11-21T23:37:31Z", "count": 1,
    "eventTime": null, "reportingComponent": "", "reportingInstance": ""})";
  Event event = must(decode_event_json(text), text);
  CHECK(event.api == EventApi::core_v1);
  CHECK(event.regarding.kind == "Pod");
  CHECK(event.regarding.name == "demo");
  CHECK(event.note == "Successfully assigned default/demo to node-1");
  CHECK(event.source.component == "troupe");
  CHECK(event.count == 1);
  CHECK(event.first_timestamp.has_value());
  CHECK_FALSE(event.event_time.has_value());
  check_round_trip(event, text);

  event.count = 2;
  event.last_timestamp = *parse_timestamp("2026-11-21T23:40:00Z");
  auto out = parse_json(encode(event));
  REQUIRE(out.ok());
  CHECK(get_int(**out, "count") == 2);
  CHECK(get_string(**out, "lastTimestamp") == "2026-11-21T23:40:00Z");
}

TEST_CASE("events.k8s.io/v1 events use their own field names", "[event]") {
  const char* text = R"({"apiVersion": "events.k8s.io/v1", "kind": "Event",
    "metadata": {"name": "demo.1879a2f1c3d4e5f6", "namespace": "default"},
    "eventTime": "2026-11-21T23:37:31.123456Z",
    "reportingController": "troupe", "reportingInstance": "troupe-host-a",
    "action": "Scheduling", "reason": "FailedScheduling", "type": "Warning",
    "regarding": {"kind": "Pod", "namespace": "default", "name": "demo", "uid": "u-9", "apiVersion": "v1",
                  "resourceVersion": "77"},
    "note": "0/5 nodes are available: 5 Insufficient cpu.",
    "series": {"count": 4, "lastObservedTime": "2026-11-21T23:41:00.000001Z"},
    "deprecatedCount": 4})";
  Event event = must(decode_event_json(text), text);
  CHECK(event.api == EventApi::events_v1);
  CHECK(event.regarding.resource_version == "77");
  CHECK(event.note == "0/5 nodes are available: 5 Insufficient cpu.");
  CHECK(event.reporting_controller == "troupe");
  CHECK(event.action == "Scheduling");
  REQUIRE(event.series.has_value());
  CHECK(event.series->count == 4);
  CHECK(event.count == 4);
  check_round_trip(event, text);

  // A list item without apiVersion: the caller knows which API it listed.
  const char* item = R"({"metadata": {"name": "e"}, "note": "hello", "regarding": {"name": "p"}})";
  Event from_list = must(decode_event_json(item, EventApi::events_v1), item);
  CHECK(from_list.note == "hello");
  CHECK(from_list.regarding.name == "p");
  Event as_core = must(decode_event_json(item), item);
  CHECK(as_core.note.empty());

  // An event built in code for the legacy API.
  Event fresh;
  fresh.meta.name = "demo.1";
  fresh.meta.namespace_name = "default";
  fresh.regarding.kind = "Pod";
  fresh.regarding.name = "demo";
  fresh.reason = "Scheduled";
  fresh.note = "Successfully assigned default/demo to node-1";
  fresh.type = "Normal";
  fresh.source.component = "troupe";
  fresh.count = 1;
  CHECK(encode(fresh) ==
        R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"demo.1","namespace":"default"},)"
        R"("involvedObject":{"kind":"Pod","name":"demo"},"reason":"Scheduled",)"
        R"("message":"Successfully assigned default/demo to node-1","type":"Normal",)"
        R"("source":{"component":"troupe"},"count":1})");

  check_error(decode_event_json(R"({"metadata": {"name": "e"}, "involvedObject": "pod/demo"})"), "",
              "involvedObject: Invalid value: string: must be an object");
  check_error(decode_event_json(R"({"apiVersion": "events.k8s.io/v1", "metadata": {"name": "e"},
                                    "series": {"count": "4"}})"),
              "", "series.count: Invalid value: string: must be an integer");
}

TEST_CASE("pod disruption budgets decode int-or-percent and the selector", "[pod_disruption_budget]") {
  const char* text = R"({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
    "metadata": {"name": "web-pdb", "namespace": "shop", "generation": 2},
    "spec": {"maxUnavailable": "25%", "selector": {"matchLabels": {"app": "web"}},
             "unhealthyPodEvictionPolicy": "AlwaysAllow"},
    "status": {"observedGeneration": 2, "disruptionsAllowed": 1, "currentHealthy": 4, "desiredHealthy": 3,
               "expectedPods": 4, "disruptedPods": {"web-0": "2026-03-01T10:00:00Z"},
               "conditions": [{"type": "DisruptionAllowed", "status": "True", "reason": "SufficientPods",
                               "lastTransitionTime": "2026-03-01T09:00:00Z", "observedGeneration": 2}]}})";
  PodDisruptionBudget pdb = must(decode_pod_disruption_budget_json(text), text);
  REQUIRE(pdb.spec.max_unavailable.has_value());
  CHECK(pdb.spec.max_unavailable->is_string);
  CHECK(*scaled_value(*pdb.spec.max_unavailable, 4, true) == 1);
  CHECK_FALSE(pdb.spec.min_available.has_value());
  CHECK(pdb.selects({{"app", "web"}, {"pod-template-hash", "x"}}));
  CHECK_FALSE(pdb.selects({{"app", "db"}}));
  CHECK(pdb.status.disruptions_allowed == 1);
  CHECK(pdb.status.current_healthy == 4);
  CHECK(pdb.status.desired_healthy == 3);
  CHECK(pdb.status.expected_pods == 4);
  CHECK(pdb.status.disrupted_pods.count("web-0") == 1);
  CHECK(pdb.status.conditions[0].observed_generation == 2);
  check_round_trip(pdb, text);

  // An eviction records the pod and spends the budget.
  pdb.status.disruptions_allowed = 0;
  pdb.status.disrupted_pods["web-1"] = *parse_timestamp("2026-03-01T10:05:00Z");
  auto out = parse_json(encode(pdb));
  REQUIRE(out.ok());
  CHECK(find_path(**out, "status", "disruptionsAllowed") == nullptr);
  CHECK(get_string(**out, "status", "disruptedPods", "web-1") == "2026-03-01T10:05:00Z");
  CHECK(get_string(**out, "status", "disruptedPods", "web-0") == "2026-03-01T10:00:00Z");

  const char* min_available = R"({"metadata": {"name": "p"}, "spec": {"minAvailable": 2, "selector": {}}})";
  PodDisruptionBudget by_count = must(decode_pod_disruption_budget_json(min_available), min_available);
  REQUIRE(by_count.spec.min_available.has_value());
  CHECK(by_count.spec.min_available->int_value == 2);
  CHECK(by_count.selects({{"anything", "x"}}));
  const char* no_selector = R"({"metadata": {"name": "p"}, "spec": {"minAvailable": 2}})";
  CHECK_FALSE(must(decode_pod_disruption_budget_json(no_selector), no_selector).selects({}));
}

TEST_CASE("pod disruption budget errors name the field", "[pod_disruption_budget]") {
  struct Case {
    const char* json;
    const char* error;
  };
  const Case cases[] = {
      {R"({"metadata": {"name": "p"}, "spec": {"minAvailable": true}})",
       "spec.minAvailable: Invalid value: boolean: must be an integer or a string"},
      {R"({"metadata": {"name": "p"}, "spec": {"maxUnavailable": 1.5}})",
       "spec.maxUnavailable: Invalid value: number: must be an integer or a string"},
      {R"({"metadata": {"name": "p"}, "spec": {"minAvailable": 1, "maxUnavailable": 1}})",
       "spec: Invalid value: minAvailable and maxUnavailable cannot be both set"},
      {R"({"metadata": {"name": "p"}, "spec": {"selector": {"matchExpressions": [{"key": "a", "operator": "In"}]}}})",
       "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or "
       "'NotIn'"},
      {R"({"metadata": {"name": "p"}, "status": {"disruptedPods": {"web-0": "now"}}})",
       "status.disruptedPods.web-0: invalid RFC 3339 time \"now\": ..."},
      {R"({"metadata": {"name": "p"}, "status": {"expectedPods": -1.0}})",
       "status.expectedPods: Invalid value: number: must be an integer"},
  };
  for (const auto& c : cases) check_error(decode_pod_disruption_budget_json(c.json), c.json, c.error);
}
