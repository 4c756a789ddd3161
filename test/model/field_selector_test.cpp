// Field selectors: parsing (terms, operators, escapes, unknown fields) and
// evaluation against JSON objects of the kinds the API server serves.

#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/field_selector.hpp"

namespace {

rapidjson::Document parse_json(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  REQUIRE_FALSE(doc.HasParseError());
  return doc;
}

const char* const scheduled_pod = R"({
  "kind":"Pod","metadata":{"name":"web-1","namespace":"default"},
  "spec":{"nodeName":"node-1","schedulerName":"troupe","restartPolicy":"Always",
          "serviceAccountName":"default","hostNetwork":true},
  "status":{"phase":"Running","podIP":"10.0.0.7","nominatedNodeName":""}})";

const char* const pending_pod = R"({
  "kind":"Pod","metadata":{"name":"web-2","namespace":"prod"},
  "spec":{"schedulerName":"troupe"},
  "status":{"phase":"Pending"}})";

const char* const core_event = R"({
  "kind":"Event","apiVersion":"v1","metadata":{"name":"web-1.17","namespace":"default"},
  "involvedObject":{"kind":"Pod","namespace":"default","name":"web-1","uid":"u-1","apiVersion":"v1",
                    "resourceVersion":"42"},
  "reason":"Scheduled","type":"Normal","source":{"component":"troupe"}})";

const char* const events_v1_event = R"({
  "kind":"Event","apiVersion":"events.k8s.io/v1","metadata":{"name":"web-2.18","namespace":"prod"},
  "regarding":{"kind":"Pod","namespace":"prod","name":"web-2","uid":"u-2"},
  "reason":"FailedScheduling","type":"Warning","reportingController":"troupe"})";

}  // namespace

TEST_CASE("field selector: evaluation over pods", "[field_selector]") {
  auto scheduled = parse_json(scheduled_pod);
  auto pending = parse_json(pending_pod);
  struct Case {
    const char* selector;
    bool scheduled, pending;
  };
  const std::vector<Case> cases = {
      {"", true, true},
      {"metadata.name=web-1", true, false},
      {"metadata.name==web-2", false, true},
      {"metadata.namespace!=default", false, true},
      {"spec.nodeName=", false, true},  // unscheduled pods
      {"spec.nodeName!=", true, false},
      {"spec.nodeName=node-1", true, false},
      {"spec.schedulerName=troupe,spec.nodeName=", false, true},
      {"status.phase!=Succeeded,status.phase!=Failed", true, true},
      {"status.phase=Running", true, false},
      {"spec.hostNetwork=true", true, false},
      {"spec.hostNetwork=false", false, true},  // absent bool reads as false
      {"status.podIP=10.0.0.7", true, false},
      {"spec.restartPolicy=Always", true, false},
      {"spec.serviceAccountName=default", true, false},
      {"status.nominatedNodeName=", true, true},
      {"metadata.name=web-1,metadata.name=web-2", false, false},
      {",metadata.name=web-1,", true, false},  // empty terms are skipped
  };
  for (const auto& c : cases) {
    INFO("selector: '" << c.selector << "'");
    auto selector = troupe::parse_field_selector(c.selector, "Pod");
    REQUIRE(selector.ok());
    CHECK(selector->matches(scheduled) == c.scheduled);
    CHECK(selector->matches(pending) == c.pending);
  }
}

TEST_CASE("field selector: nodes, namespaces and other kinds", "[field_selector]") {
  auto cordoned = parse_json(R"({"metadata":{"name":"n1"},"spec":{"unschedulable":true}})");
  auto ready = parse_json(R"({"metadata":{"name":"n2"},"spec":{}})");
  auto unschedulable = troupe::parse_field_selector("spec.unschedulable=true", "Node");
  REQUIRE(unschedulable.ok());
  CHECK(unschedulable->matches(cordoned));
  CHECK_FALSE(unschedulable->matches(ready));
  auto schedulable = troupe::parse_field_selector("spec.unschedulable!=true", "Node");
  REQUIRE(schedulable.ok());
  CHECK(schedulable->matches(ready));
  auto by_name = troupe::parse_field_selector("metadata.name=n2", "Node");
  REQUIRE(by_name.ok());
  CHECK(by_name->matches(ready));
  // Cluster-scoped objects have no namespace: it reads as "".
  auto no_namespace = troupe::parse_field_selector("metadata.namespace=", "Node");
  REQUIRE(no_namespace.ok());
  CHECK(no_namespace->matches(ready));

  auto active = parse_json(R"({"metadata":{"name":"ns"},"status":{"phase":"Active"}})");
  auto phase = troupe::parse_field_selector("status.phase=Active", "Namespace");
  REQUIRE(phase.ok());
  CHECK(phase->matches(active));

  auto device = parse_json(R"({"kind":"Device","metadata":{"name":"gpu-node-1"}})");
  auto device_name = troupe::parse_field_selector("metadata.name=gpu-node-1", "Device");
  REQUIRE(device_name.ok());
  CHECK(device_name->matches(device));
}

TEST_CASE("field selector: events of both API groups", "[field_selector]") {
  auto core = parse_json(core_event);
  auto v1 = parse_json(events_v1_event);
  struct Case {
    const char* selector;
    bool core, v1;
  };
  const std::vector<Case> cases = {
      {"involvedObject.kind=Pod", true, true},
      {"involvedObject.name=web-1,involvedObject.namespace=default", true, false},
      {"involvedObject.uid=u-2", false, true},
      {"involvedObject.resourceVersion=42", true, false},
      {"involvedObject.fieldPath=", true, true},
      {"reason=FailedScheduling", false, true},
      {"type=Normal", true, false},
      {"source=troupe", true, true},  // source.component, or reportingController
      {"reportingComponent=troupe", false, true},
  };
  for (const auto& c : cases) {
    INFO("selector: '" << c.selector << "'");
    auto selector = troupe::parse_field_selector(c.selector, "Event");
    REQUIRE(selector.ok());
    CHECK(selector->matches(core) == c.core);
    CHECK(selector->matches(v1) == c.v1);
  }
}

TEST_CASE("field selector: parse errors", "[field_selector]") {
  struct Case {
    const char* selector;
    const char* kind;
    const char* message;  // exact
  };
  const std::vector<Case> cases = {
      {"foo.bar=x", "Device",
       R"("foo.bar" is not a known field selector: only "metadata.name", "metadata.namespace")"},
      {"spec.nodeName=x", "Node",
       R"("spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace", "spec.unschedulable")"},
      {"metadata.labels=x", "Pod",
       R"("metadata.labels" is not a known field selector: only "metadata.name", "metadata.namespace", "spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName")"},
      {"metadata.name", "Pod", "invalid selector: 'metadata.name'; can't understand 'metadata.name'"},
      {"metadata.name=a,oops", "Pod", "invalid selector: 'metadata.name=a,oops'; can't understand 'oops'"},
      {"metadata.name=a=b", "Pod", "invalid field selector: unescaped character in value: ="},
      {"metadata.name=a\\x", "Pod", "invalid field selector: invalid escape sequence: \\x"},
      {"metadata.name=a\\", "Pod", "invalid field selector: invalid escape sequence: \\"},
      {"metadata.name =a", "Pod",
       R"("metadata.name " is not a known field selector: only "metadata.name", "metadata.namespace", "spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName")"},
  };
  for (const auto& c : cases) {
    INFO("selector: '" << c.selector << "' kind " << c.kind);
    auto selector = troupe::parse_field_selector(c.selector, c.kind);
    REQUIRE_FALSE(selector.ok());
    CHECK(selector.message() == c.message);
  }
}

TEST_CASE("field selector: escaped values and operator choice", "[field_selector]") {
  auto selector = troupe::parse_field_selector(R"(metadata.name=a\,b\=c\\d)", "Pod");
  REQUIRE(selector.ok());
  REQUIRE(selector->requirements().size() == 1);
  CHECK(selector->requirements()[0].value == R"(a,b=c\d)");
  auto object = parse_json(R"({"metadata":{"name":"a,b=c\\d"}})");
  CHECK(selector->matches(object));

  // "!=" is found before "=": a value may start with '='-free text only.
  auto not_equal = troupe::parse_field_selector("status.phase!=Failed", "Pod");
  REQUIRE(not_equal.ok());
  CHECK_FALSE(not_equal->requirements()[0].equals);
  CHECK(not_equal->requirements()[0].value == "Failed");
  auto double_equal = troupe::parse_field_selector("status.phase==Failed", "Pod");
  REQUIRE(double_equal.ok());
  CHECK(double_equal->requirements()[0].equals);
  CHECK(double_equal->requirements()[0].value == "Failed");
}

TEST_CASE("field selector: field_value renders scalars as the API server does", "[field_selector]") {
  auto object = parse_json(R"({"spec":{"hostNetwork":false,"replicas":3,"nested":{"a":1}},"status":{"phase":null}})");
  CHECK(troupe::field_value(object, "spec.hostNetwork") == "false");
  CHECK(troupe::field_value(object, "spec.replicas") == "3");
  CHECK(troupe::field_value(object, "spec.nested") == "");
  CHECK(troupe::field_value(object, "status.phase") == "");
  CHECK(troupe::field_value(object, "spec.unschedulable") == "false");
  CHECK(troupe::field_value(object, "spec.nodeName") == "");
  auto not_object = parse_json("[1,2]");
  CHECK(troupe::field_value(not_object, "metadata.name") == "");
}

TEST_CASE("field selector: projection paths cover every source of a field", "[field_selector]") {
  auto paths = troupe::selectable_field_paths("Event");
  auto has = [&](const char* path) { return std::find(paths.begin(), paths.end(), path) != paths.end(); };
  CHECK(has("metadata.name"));
  CHECK(has("involvedObject.kind"));
  CHECK(has("regarding.kind"));
  CHECK(has("source.component"));
  CHECK(has("reportingController"));
  CHECK(troupe::selectable_field_paths("Device") == std::vector<std::string>{"metadata.name", "metadata.namespace"});
}
