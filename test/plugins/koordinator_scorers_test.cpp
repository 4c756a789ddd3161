#include <catch2/catch.hpp>

#include "plugins/node_resources_fit_plus/node_resources_fit_plus.hpp"
#include "plugins/scarce_resource_avoidance/scarce_resource_avoidance.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

namespace {
template <class T>
std::shared_ptr<const T> make(const std::string& yaml) {
  auto plugin = T::make(yaml.empty() ? YAML::Node() : YAML::Load(yaml));
  if (!plugin) FAIL(plugin.message());
  return std::dynamic_pointer_cast<const T>(*plugin);
}
}  // namespace

TEST_CASE("NodeResourcesFitPlus: a strategy per requested resource", "[fit_plus]") {
  auto plugin = make<NodeResourcesFitPlus>(
      "{resources: {nvidia.com/gpu: {type: MostAllocated, weight: 2}, cpu: {type: LeastAllocated, weight: 1}}}");
  // Node: 8 cpu, 4 gpus; 1 gpu and 2 cpu already requested.
  auto existing = PodBuilder("e").container({{"cpu", "2"}, {"nvidia.com/gpu", "1"}, {"memory", "1Gi"}}).info();
  NodeInfo node = NodeBuilder("n").allocatable({{"cpu", "8"}, {"memory", "16Gi"}, {"nvidia.com/gpu", "4"}}).info({existing});
  struct Case {
    const char* name;
    Amounts requests;
    int64_t expected;
  };
  const std::vector<Case> cases = {
      // gpu: (1+1)*100/4 = 50 (Most); cpu: (8000-4000)*100/8000 = 50 (Least) -> (50*2 + 50*1)/3 = 50
      {"gpu and cpu", {{"cpu", "2"}, {"nvidia.com/gpu", "1"}, {"memory", "1Gi"}}, 50},
      // gpu: (1+3)*100/4 = 100; cpu is not requested, so it is left out -> 100
      {"gpu only: cpu is not requested so it is left out", {{"nvidia.com/gpu", "3"}}, 100},
      // cpu only: (8000-7000)*100/8000 = 12
      {"cpu only", {{"cpu", "5"}}, 12},
      // nothing configured requested -> 100
      {"memory only", {{"memory", "1Gi"}}, 100},
      // over capacity: Most caps at 100, Least gives 0 -> (100*2 + 0)/3 = 66
      {"over capacity", {{"cpu", "7"}, {"nvidia.com/gpu", "4"}}, 66},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto pod = PodBuilder("p").container(c.requests).info();
    CHECK(plugin->score(CycleState(), *pod, node).score == c.expected);
  }
  auto none = make<NodeResourcesFitPlus>("");
  CHECK(none->score(CycleState(), *PodBuilder("p").container({{"cpu", "1"}}).info(), node).score == 100);

  auto bad = NodeResourcesFitPlus::make(YAML::Load("{resources: {cpu: {type: Balanced, weight: 1}}}"));
  REQUIRE_FALSE(bad);
  CHECK(bad.message() ==
        "resources[cpu].type: Unsupported value: \"Balanced\": supported values: \"LeastAllocated\", \"MostAllocated\"");
  auto negative = NodeResourcesFitPlus::make(YAML::Load("{resources: {cpu: {type: MostAllocated, weight: -2}}}"));
  REQUIRE_FALSE(negative);
  CHECK(negative.message() == "resources[cpu].weight: must not be negative");
}

TEST_CASE("ScarceResourceAvoidance keeps other pods off scarce-resource nodes", "[scarce_resource_avoidance]") {
  auto plugin = make<ScarceResourceAvoidance>("{resources: [nvidia.com/gpu, example.com/fpga]}");
  NodeInfo gpu_node = NodeBuilder("g").allocatable({{"cpu", "8"}, {"memory", "16Gi"}, {"pods", "110"}, {"nvidia.com/gpu", "4"}}).info();
  NodeInfo plain = NodeBuilder("p").allocatable({{"cpu", "8"}, {"memory", "16Gi"}, {"pods", "110"}}).info();
  NodeInfo both = NodeBuilder("b").allocatable({{"cpu", "8"}, {"memory", "16Gi"}, {"nvidia.com/gpu", "4"}, {"example.com/fpga", "1"}, {"hugepages-2Mi", "0"}}).info();
  struct Case {
    const char* name;
    Amounts requests;
    const NodeInfo* node;
    int64_t expected;
  };
  const std::vector<Case> cases = {
      // D = {memory, nvidia.com/gpu} (pods is not a scalar), I = {gpu}: (2-1)*100/2 = 50
      {"cpu pod on a gpu node", {{"cpu", "1"}}, &gpu_node, 50},
      // D = {cpu, memory, gpu}: (3-1)*100/3 = 66
      {"empty pod on a gpu node", {}, &gpu_node, 66},
      {"gpu pod on a gpu node: I empty", {{"cpu", "1"}, {"nvidia.com/gpu", "1"}}, &gpu_node, 100},
      {"cpu pod on a plain node: I empty", {{"cpu", "1"}}, &plain, 100},
      {"pod requesting everything the node has: D empty", {{"cpu", "1"}, {"memory", "1"}}, &plain, 100},
      // D = {memory, gpu, fpga} (hugepages 0 is not > 0), I = {gpu, fpga}: (3-2)*100/3 = 33
      {"two scarce resources", {{"cpu", "1"}}, &both, 33},
      // The pod's scalar list is walked beside the node's (both sorted): names the node
      // lacks, names before/after/between the node's, one of two scarce requested.
      // D = {memory, gpu}, I = {gpu}: 50
      {"fpga requested, node has gpu and fpga", {{"cpu", "1"}, {"example.com/fpga", "1"}}, &both, 50},
      // D = {memory, fpga}, I = {fpga}: 50
      {"gpu requested, node has gpu and fpga", {{"cpu", "1"}, {"nvidia.com/gpu", "1"}}, &both, 50},
      // a.example/x sorts before every node scalar, zz.example/y after: neither is on the node
      {"scalars the node lacks around the node's", {{"cpu", "1"}, {"a.example/x", "1"}, {"zz.example/y", "2"}},
       &gpu_node, 50},
      {"scalars the node lacks, plain node", {{"a.example/x", "1"}, {"zz.example/y", "2"}}, &plain, 100},
      {"both scarce requested: I empty",
       {{"cpu", "1"}, {"example.com/fpga", "1"}, {"nvidia.com/gpu", "1"}}, &both, 100},
  };
  // Without scarce resources (the default profile's args) I is always empty.
  auto none = make<ScarceResourceAvoidance>("{}");
  for (const auto& c : cases) {
    INFO(c.name);
    auto pod = PodBuilder("x").container(c.requests).info();
    CHECK(plugin->score(CycleState(), *pod, *c.node).score == c.expected);
    CHECK(none->score(CycleState(), *pod, *c.node).score == kMaxNodeScore);
  }
  auto bad = ScarceResourceAvoidance::make(YAML::Load("{resources: nvidia.com/gpu}"));
  REQUIRE_FALSE(bad);
  CHECK(bad.message() == "resources: must be a list, got \"nvidia.com/gpu\"");
}
