// The part of ValidatePod troupe apiserver applies: names, ports, quantities.
#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include <string>
#include <vector>

#include "sim/pod_validation.hpp"

using namespace troupe::sim;

namespace {

std::vector<std::string> causes_of(const std::string& spec) {
  rapidjson::Document d;
  d.Parse((R"({"metadata":{"name":"p"},"spec":)" + spec + "}").c_str());
  REQUIRE_FALSE(d.HasParseError());
  std::vector<std::string> out;
  for (const auto& c : check_pod_containers(d)) out.push_back(c.field + ": " + c.message);
  return out;
}

}  // namespace

TEST_CASE("pod validation: names, ports and quantities", "[sim][validation]") {
  struct Case {
    const char* name;
    const char* spec;
    std::vector<std::string> causes;
  };
  const std::vector<Case> cases = {
      {"a valid pod", R"({"initContainers":[{"name":"i"}],"containers":[{"name":"c","ports":[{"containerPort":80,
        "hostPort":8080}],"resources":{"requests":{"cpu":"1500m","nvidia.com/gpu":"1"},"limits":{"memory":"1Gi"}}}]})",
       {}},
      {"a name used twice, init containers included", R"({"initContainers":[{"name":"c"}],"containers":[{"name":"c"}]})",
       {"spec.containers[0].name: Duplicate value: \"c\""}},
      {"ports out of range", R"({"containers":[{"name":"c","ports":[{"containerPort":0},{"containerPort":80,
        "hostPort":70000}]}]})",
       {"spec.containers[0].ports[0].containerPort: Invalid value: 0: must be between 1 and 65535, inclusive",
        "spec.containers[0].ports[1].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive"}},
      {"a negative request", R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"-4"}}}]})",
       {"spec.containers[0].resources.requests[cpu]: Invalid value: \"-4\": must be greater than or equal to 0"}},
      {"a fraction of an extended resource", R"({"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"1.5"}}}]})",
       {"spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: \"1.5\": must be an integer"}},
      {"a quantity that does not parse is the scheduler's to report",
       R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"lots"}}}]})", {}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(causes_of(c.spec) == c.causes);
  }
}
