// decode_workload_selector: the pod selectors of Services, ReplicationControllers,
// ReplicaSets and StatefulSets, as PodTopologySpread's default constraints read them.

#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include <string>
#include <vector>

#include "model/workload_selector.hpp"

using namespace troupe;

namespace {

Result<WorkloadSelector> decode(WorkloadKind kind, const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  REQUIRE_FALSE(doc.HasParseError());
  return decode_workload_selector(kind, doc);
}

}  // namespace

TEST_CASE("decode_workload_selector reads each kind's spec.selector", "[workload_selector]") {
  struct Case {
    const char* name;
    WorkloadKind kind;
    const char* json;
    Labels want_labels;
    std::string want_requirements;  // LabelSelector::to_string of the requirements
  };
  const std::vector<Case> cases = {
      {"a Service's label map", WorkloadKind::service,
       R"({"metadata":{"name":"web","namespace":"shop"},"spec":{"selector":{"app":"web","tier":"fe"}}})",
       {{"app", "web"}, {"tier", "fe"}}, ""},
      {"a Service without a selector", WorkloadKind::service,
       R"({"metadata":{"name":"ext","namespace":"shop"},"spec":{"type":"ExternalName"}})", {}, ""},
      {"a Service with a null selector", WorkloadKind::service,
       R"({"metadata":{"name":"ext","namespace":"shop"},"spec":{"selector":null}})", {}, ""},
      {"a Service without a spec", WorkloadKind::service, R"({"metadata":{"name":"ext","namespace":"shop"}})", {},
       ""},
      {"a ReplicationController's label map", WorkloadKind::replication_controller,
       R"({"metadata":{"name":"rc","namespace":"shop"},"spec":{"selector":{"app":"old"}}})", {{"app", "old"}}, ""},
      {"a ReplicaSet's matchLabels and matchExpressions", WorkloadKind::replica_set,
       R"({"metadata":{"name":"rs","namespace":"shop"},"spec":{"selector":{"matchLabels":{"app":"web"},
           "matchExpressions":[{"key":"track","operator":"In","values":["stable","canary"]}]}}})",
       {}, "app=web,track in (canary,stable)"},
      {"a StatefulSet's selector", WorkloadKind::stateful_set,
       R"({"metadata":{"name":"db","namespace":"shop"},"spec":{"selector":{"matchExpressions":[
           {"key":"app","operator":"Exists"}]}}})",
       {}, "app"},
      {"a ReplicaSet with an empty selector", WorkloadKind::replica_set,
       R"({"metadata":{"name":"rs","namespace":"shop"},"spec":{"selector":{}}})", {}, ""},
      {"a ReplicaSet without a selector", WorkloadKind::replica_set,
       R"({"metadata":{"name":"rs","namespace":"shop"},"spec":{}})", {}, ""},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto w = decode(c.kind, c.json);
    REQUIRE(w.ok());
    CHECK(w->kind == c.kind);
    CHECK(w->namespace_name == "shop");
    CHECK(w->match_labels == c.want_labels);
    CHECK(LabelSelector(w->requirements).to_string() == c.want_requirements);
  }
}

TEST_CASE("decode_workload_selector errors name the object and the field", "[workload_selector]") {
  struct Case {
    const char* name;
    WorkloadKind kind;
    const char* json;
    const char* want;
  };
  const std::vector<Case> cases = {
      {"not an object", WorkloadKind::service, "[]", "Service: Invalid value: must be an object"},
      {"no name", WorkloadKind::replica_set, R"({"metadata":{"namespace":"shop"}})",
       "ReplicaSet: metadata.name: Required value"},
      {"a Service selector that is a list", WorkloadKind::service,
       R"({"metadata":{"name":"web","namespace":"shop"},"spec":{"selector":["app"]}})",
       "Service shop/web: spec.selector: Invalid value: must be a map of label values"},
      {"a ReplicationController selector value that is a number", WorkloadKind::replication_controller,
       R"({"metadata":{"name":"rc","namespace":"shop"},"spec":{"selector":{"app":3}}})",
       "ReplicationController shop/rc: spec.selector.app: Invalid value: must be a string"},
      {"a StatefulSet selector with an unknown operator", WorkloadKind::stateful_set,
       R"({"metadata":{"name":"db","namespace":"shop"},"spec":{"selector":{"matchExpressions":[
           {"key":"app","operator":"Near","values":["x"]}]}}})",
       "StatefulSet shop/db: spec.selector.matchExpressions[0].operator"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto w = decode(c.kind, c.json);
    REQUIRE_FALSE(w.ok());
    CHECK_THAT(w.message(), Catch::StartsWith(c.want));
  }
}

TEST_CASE("workload_kind_of_resource and kind_name", "[workload_selector]") {
  CHECK(workload_kind_of_resource("services") == WorkloadKind::service);
  CHECK(workload_kind_of_resource("replicationcontrollers") == WorkloadKind::replication_controller);
  CHECK(workload_kind_of_resource("replicasets") == WorkloadKind::replica_set);
  CHECK(workload_kind_of_resource("statefulsets") == WorkloadKind::stateful_set);
  CHECK_FALSE(workload_kind_of_resource("deployments"));
  CHECK_FALSE(workload_kind_of_resource("pods"));
  CHECK(kind_name(WorkloadKind::stateful_set) == "StatefulSet");
}
