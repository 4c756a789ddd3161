// gpushare-scheduler-extender's GPU health ConfigMaps (actors/gpu_health.hpp):
// which ConfigMaps are read, and the GPU list of each, bad entries included.
#include <catch2/catch.hpp>

#include "actors/gpu_health.hpp"
#include "model/json.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

std::string configmap(const std::string& ns, const std::string& name, const std::string& data) {
  return R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"(","namespace":")" + ns + "\"}" +
         (data.empty() ? "" : ",\"data\":" + data) + "}";
}

}  // namespace

TEST_CASE("gpu health: the node a ConfigMap name is about", "[gpu-health]") {
  CHECK(gpu_health_node("unhealthy-gpu-node-1") == std::optional<std::string>("node-1"));
  CHECK(gpu_health_node("unhealthy-gpu-") == std::nullopt);
  CHECK(gpu_health_node("unhealthy-gpu") == std::nullopt);
  CHECK(gpu_health_node("healthy-gpu-node-1") == std::nullopt);
  CHECK(gpu_health_node("") == std::nullopt);
}

TEST_CASE("gpu health: decoding the ConfigMaps", "[gpu-health]") {
  struct Case {
    const char* what;
    std::string json;
    bool health;  // a health ConfigMap at all
    std::string node;
    std::set<int> indices;
  };
  const std::vector<Case> cases = {
      {"two GPUs", configmap("kube-system", "unhealthy-gpu-n1", R"({"gpus":"0,2"})"), true, "n1", {0, 2}},
      {"spaces and bad entries are skipped", configmap("kube-system", "unhealthy-gpu-n1", R"({"gpus":"1,x,,-3,2"})"),
       true, "n1", {1, 2}},
      {"no gpus key: every GPU usable", configmap("kube-system", "unhealthy-gpu-n1", R"({"other":"1"})"), true, "n1",
       {}},
      {"no data", configmap("kube-system", "unhealthy-gpu-n1", ""), true, "n1", {}},
      {"gpus not a string", configmap("kube-system", "unhealthy-gpu-n1", R"({"gpus":1})"), true, "n1", {}},
      {"another namespace", configmap("default", "unhealthy-gpu-n1", R"({"gpus":"0"})"), false, "", {}},
      {"another ConfigMap", configmap("kube-system", "coredns", R"({"gpus":"0"})"), false, "", {}},
      {"not an object", "[1,2]", false, "", {}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto parsed = parse_json(c.json);
    REQUIRE(parsed);
    auto health = decode_gpu_health(**parsed);
    REQUIRE(health.has_value() == c.health);
    if (!health) continue;
    CHECK(health->node_name == c.node);
    CHECK(health->indices == c.indices);
  }
}
