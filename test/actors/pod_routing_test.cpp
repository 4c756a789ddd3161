#include <catch2/catch.hpp>

#include "actors/pod_routing.hpp"
#include "model/json.hpp"

using namespace troupe;
using namespace troupe::actors;

TEST_CASE("pods are routed as kube-scheduler's informer splits them") {
  struct Case { const char* json; PodRoute expected; };
  std::vector<Case> cases = {
      {R"({"metadata":{"name":"a","namespace":"d"},"spec":{"schedulerName":"troupe"}})", PodRoute::queue},
      {R"({"metadata":{"name":"a","namespace":"d"},"spec":{"schedulerName":"other"}})", PodRoute::ignore},
      {R"({"metadata":{"name":"a","namespace":"d"},"spec":{}})", PodRoute::ignore},  // default-scheduler
      {R"({"metadata":{"name":"a"},"spec":{"schedulerName":"troupe","nodeName":"n1"}})", PodRoute::node},
      {R"({"metadata":{"name":"a"},"spec":{"schedulerName":"other","nodeName":"n1"}})", PodRoute::node},
      {R"({"metadata":{"name":"a"},"spec":{"nodeName":"n1"},"status":{"phase":"Running"}})", PodRoute::node},
      {R"({"metadata":{"name":"a"},"spec":{"nodeName":"n1"},"status":{"phase":"Succeeded"}})", PodRoute::forget},
      {R"({"metadata":{"name":"a"},"spec":{"schedulerName":"troupe"},"status":{"phase":"Failed"}})", PodRoute::forget},
      {R"({"metadata":{"name":"a","deletionTimestamp":"2026-01-01T00:00:00Z"},"spec":{"schedulerName":"troupe"}})",
       PodRoute::forget},
      {R"({"metadata":{"name":"a","deletionTimestamp":"2026-01-01T00:00:00Z"},"spec":{"nodeName":"n"}})",
       PodRoute::node},  // still holds its resources until it is gone
      {R"({"metadata":"garbage","spec":{"schedulerName":7}})", PodRoute::ignore},
      {R"([])", PodRoute::ignore},
  };
  for (const auto& c : cases) {
    INFO(c.json);
    auto doc = parse_json(c.json);
    REQUIRE(doc.ok());
    CHECK(route_pod(read_pod_identity(**doc), {"troupe", "troupe-b"}) == c.expected);
  }
}

TEST_CASE("identity fields are read even from pods whose spec does not decode") {
  auto doc = parse_json(R"({"metadata":{"name":"p","namespace":"ns","uid":"u1","resourceVersion":"9"},
    "spec":{"schedulerName":"troupe","containers":[{"name":"c","resources":{"requests":{"cpu":"lots"}}}]}})");
  REQUIRE(doc.ok());
  auto id = read_pod_identity(**doc);
  CHECK(id.key() == "ns/p");
  CHECK(id.uid == "u1");
  CHECK(id.resource_version == "9");
  CHECK(id.scheduler_name == "troupe");
}
