// The pods/{name}/resize subresource: only the containers' cpu and memory
// (and resizePolicy) change, as kube-apiserver's podResizeStrategy and
// ValidatePodResize.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "test/sim/handler_fixture.hpp"

using Fixture = troupe::sim::testing::HandlerFixture;

namespace {

const std::string kPods = "/api/v1/namespaces/default/pods";

rapidjson::Document json(const std::string& text) {
  rapidjson::Document d;
  d.Parse(text.c_str());
  return d;
}

// A Burstable pod: requests below limits, an extended resource too.
const std::string kResizable =
    R"({"metadata":{"name":"r"},"spec":{"containers":[{"name":"app","image":"i","resources":{)"
    R"("requests":{"cpu":"1","memory":"1Gi","example.com/dev":"1"},"limits":{"cpu":"2","memory":"2Gi","example.com/dev":"1"}}}]}})";

std::string resize_patch(const std::string& app_resources) {
  return R"({"spec":{"containers":[{"name":"app","resources":)" + app_resources + "}]}}";
}

}  // namespace

TEST_CASE("pods/resize changes cpu and memory and nothing else", "[handlers][resize]") {
  struct Case {
    const char* what;
    std::string patch;
    int status;
    const char* message;  // part of the error, or the cpu request after
  };
  const std::vector<Case> cases = {
      {"cpu and memory requests change",
       resize_patch(R"({"requests":{"cpu":"500m","memory":"512Mi","example.com/dev":"1"},"limits":{"cpu":"2","memory":"2Gi","example.com/dev":"1"}})"),
       200, "500m"},
      {"another resource changes",
       resize_patch(R"({"requests":{"cpu":"1","memory":"1Gi","example.com/dev":"2"},"limits":{"cpu":"2","memory":"2Gi","example.com/dev":"2"}})"),
       422, "only cpu and memory resources are mutable"},
      {"a cpu request removed",
       resize_patch(R"({"requests":{"cpu":null}})"), 422, "resource removal is not supported"},
      {"the QoS class would change (requests = limits: Guaranteed)",
       resize_patch(R"({"requests":{"cpu":"2","memory":"2Gi","example.com/dev":"1"},"limits":{"cpu":"2","memory":"2Gi","example.com/dev":"1"}})"),
       422, "Pod QOS Class may not change as a result of resizing"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    Fixture f;
    REQUIRE(f.call("POST", kPods, kResizable).status == 201);
    auto r = f.call("PATCH", kPods + "/r/resize", c.patch, "application/strategic-merge-patch+json");
    CHECK(r.status == c.status);
    if (c.status != 200) {
      CHECK_THAT(r.body, Catch::Contains(c.message));
      continue;
    }
    auto pod = json(f.call("GET", kPods + "/r").body);
    CHECK(std::string(pod["spec"]["containers"][0]["resources"]["requests"]["cpu"].GetString()) == c.message);
    CHECK(pod["metadata"]["generation"].GetInt() == 2);
  }
}

TEST_CASE("pods/resize drops every other change and keeps status and metadata", "[handlers][resize]") {
  Fixture f;
  REQUIRE(f.call("POST", kPods, kResizable).status == 201);
  auto r = f.call("PATCH", kPods + "/r/resize",
                  R"({"metadata":{"labels":{"dropped":"yes"}},"spec":{"nodeName":"dropped","containers":[{"name":"app",)"
                  R"("image":"dropped","resources":{"requests":{"cpu":"1500m"}}}]},"status":{"phase":"Dropped"}})",
                  "application/strategic-merge-patch+json");
  REQUIRE(r.status == 200);
  auto pod = json(f.call("GET", kPods + "/r").body);
  CHECK(std::string(pod["spec"]["containers"][0]["resources"]["requests"]["cpu"].GetString()) == "1500m");
  CHECK(std::string(pod["spec"]["containers"][0]["image"].GetString()) == "i");
  CHECK_FALSE(pod["spec"].HasMember("nodeName"));
  CHECK_FALSE(pod["metadata"].HasMember("labels"));
  CHECK(std::string(pod["status"]["phase"].GetString()) == "Pending");
  // GET through the subresource shows the pod; other verbs are not allowed; other kinds have no resize.
  CHECK(f.call("GET", kPods + "/r/resize").status == 200);
  CHECK(f.call("POST", kPods + "/r/resize", "{}").status == 405);
  CHECK(f.call("PATCH", "/api/v1/nodes/n/resize", "{}", "application/merge-patch+json").status == 404);
}
