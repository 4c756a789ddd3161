#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include "sim/resource_registry.hpp"
#include "sim/status_errors.hpp"

using namespace troupe::sim;

namespace {

const ResourceInfo& resource(const char* group, const char* version, const char* plural) {
  const auto* r = ResourceRegistry::standard().find(group, version, plural);
  REQUIRE(r != nullptr);
  return *r;
}

}  // namespace

TEST_CASE("Status bodies match kube-apiserver's", "[status]") {
  const auto& pods = resource("", "v1", "pods");
  const auto& devices = resource("scheduling.koordinator.sh", "v1alpha1", "devices");
  struct Case {
    ApiError error;
    const char* json;
  };
  const Case cases[] = {
      {not_found(pods, "grafana"),
       R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"grafana\" not found","reason":"NotFound","details":{"name":"grafana","kind":"pods"},"code":404})J"},
      {not_found(devices, "x"),
       R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"devices.scheduling.koordinator.sh \"x\" not found","reason":"NotFound","details":{"name":"x","group":"scheduling.koordinator.sh","kind":"devices"},"code":404})J"},
      {path_not_found(),
       R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","code":404})J"},
      {already_exists(pods, "demo"),
       R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"demo\" already exists","reason":"AlreadyExists","details":{"name":"demo","kind":"pods"},"code":409})J"},
      {optimistic_lock_conflict(pods, "demo"),
       R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on pods \"demo\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"demo","kind":"pods"},"code":409})J"},
      {conflict("pods/binding", "", "demo", "pod demo is already assigned to node \"node-1\""),
       R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on pods/binding \"demo\": pod demo is already assigned to node \"node-1\"","reason":"Conflict","details":{"name":"demo","kind":"pods/binding"},"code":409})J"},
      {invalid(pods, "demo", {required_field("spec.containers")}),
       R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Pod \"demo\" is invalid: spec.containers: Required value","reason":"Invalid","details":{"name":"demo","kind":"Pod","causes":[{"reason":"FieldValueRequired","message":"Required value","field":"spec.containers"}]},"code":422})J"},
      {expired("too old resource version: 1 (100)"),
       R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (100)","reason":"Expired","code":410})J"},
      {unsupported_media_type("application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"),
       R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml","reason":"UnsupportedMediaType","code":415})J"},
      {unauthorized(),
       R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401})J"},
      {method_not_allowed("POST", "Pod"),
       R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"POST is not supported on resources of kind \"Pod\"","reason":"MethodNotAllowed","code":405})J"},
      {too_many_requests("Cannot evict pod as it would violate the pod's disruption budget.",
                         {{"DisruptionBudget", "The disruption budget pdb needs 2 healthy pods and has 2 currently", ""}}, 0),
       R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Cannot evict pod as it would violate the pod's disruption budget.","reason":"TooManyRequests","details":{"causes":[{"reason":"DisruptionBudget","message":"The disruption budget pdb needs 2 healthy pods and has 2 currently"}]},"code":429})J"},
  };
  for (const auto& c : cases) {
    INFO(c.json);
    CHECK(c.error.to_json() == c.json);
  }
}

TEST_CASE("422 with several causes joins them like field.ErrorList", "[status]") {
  const auto& devices = ResourceRegistry::standard().find("scheduling.koordinator.sh", "v1alpha1", "devices");
  REQUIRE(devices != nullptr);
  auto e = invalid(*devices, "", {required_field("metadata.name", "name or generateName is required"),
                                  invalid_field("kind", "\"Pod\"", "must be Device")});
  CHECK(e.code == 422);
  CHECK(e.message ==
        "Device.scheduling.koordinator.sh \"\" is invalid: [metadata.name: Required value: name or generateName is "
        "required, kind: Invalid value: \"Pod\": must be Device]");
  rapidjson::Document d;
  d.Parse(e.to_json().c_str());
  REQUIRE(d.IsObject());
  CHECK(d["details"]["causes"].Size() == 2);
}

TEST_CASE("Success statuses", "[status]") {
  CHECK(success_status(201) == R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201})J");
  const auto* cms = ResourceRegistry::standard().find("", "v1", "configmaps");
  REQUIRE(cms != nullptr);
  CHECK(deleted_status(*cms, "c", "u-1") ==
        R"J({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"c","kind":"configmaps","uid":"u-1"}})J");
  auto tooMany = too_many_requests("slow down", {}, 3);
  CHECK(tooMany.to_json().find(R"("retryAfterSeconds":3)") != std::string::npos);
}

TEST_CASE("the standard registry serves every required resource with the right scope", "[registry]") {
  const auto& reg = ResourceRegistry::standard();
  struct Case {
    const char* group;
    const char* version;
    const char* plural;
    const char* kind;
    bool namespaced;
    bool status;
  };
  const Case cases[] = {
      {"", "v1", "namespaces", "Namespace", false, false},
      {"", "v1", "nodes", "Node", false, true},
      {"", "v1", "pods", "Pod", true, true},
      {"", "v1", "bindings", "Binding", true, false},
      {"", "v1", "events", "Event", true, false},
      {"", "v1", "configmaps", "ConfigMap", true, false},
      {"events.k8s.io", "v1", "events", "Event", true, false},
      {"coordination.k8s.io", "v1", "leases", "Lease", true, false},
      {"policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true, true},
      {"", "v1", "services", "Service", true, true},
      {"", "v1", "replicationcontrollers", "ReplicationController", true, true},
      {"apps", "v1", "replicasets", "ReplicaSet", true, true},
      {"apps", "v1", "statefulsets", "StatefulSet", true, true},
      {"scheduling.koordinator.sh", "v1alpha1", "devices", "Device", false, false},
      {"scheduling.koordinator.sh", "v1alpha1", "reservations", "Reservation", false, true},
      {"scheduling.koordinator.sh", "v1alpha1", "podmigrationjobs", "PodMigrationJob", false, true},
      {"topology.node.k8s.io", "v1alpha1", "noderesourcetopologies", "NodeResourceTopology", false, false},
      {"topology.node.k8s.io", "v1alpha2", "noderesourcetopologies", "NodeResourceTopology", false, false},
      {"scheduling.sigs.k8s.io", "v1alpha1", "podgroups", "PodGroup", true, true},
      {"scheduling.sigs.k8s.io", "v1alpha1", "elasticquotas", "ElasticQuota", true, false},
      {"slo.koordinator.sh", "v1alpha1", "nodemetrics", "NodeMetric", false, true},
  };
  for (const auto& c : cases) {
    INFO(c.group << "/" << c.version << " " << c.plural);
    const auto* r = reg.find(c.group, c.version, c.plural);
    REQUIRE(r != nullptr);
    CHECK(r->kind == c.kind);
    CHECK(r->namespaced == c.namespaced);
    CHECK(r->has_status_subresource() == c.status);
    if (std::string(c.kind) != "Binding") CHECK(reg.find_by_kind(r->api_version(), c.kind) != nullptr);
  }
  CHECK(reg.find("", "v1", "secrets") == nullptr);
  CHECK(reg.find("", "v2", "pods") == nullptr);
  // Both NRT versions are one set of objects.
  CHECK(reg.find("topology.node.k8s.io", "v1alpha1", "noderesourcetopologies")->storage ==
        reg.find("topology.node.k8s.io", "v1alpha2", "noderesourcetopologies")->storage);
  CHECK(reg.find("", "v1", "pods")->find_subresource("binding") != nullptr);
  CHECK(reg.find("", "v1", "pods")->find_subresource("eviction") != nullptr);
  CHECK(reg.find_by_kind("v1", "Binding") == nullptr); // bindings are not stored objects
}
