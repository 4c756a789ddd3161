#include <catch2/catch.hpp>

#include "plugins/node_resources_balanced_allocation/balanced_allocation.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

namespace {
std::shared_ptr<const NodeResourcesBalancedAllocation> make_balanced(const std::string& yaml = "") {
  auto plugin = NodeResourcesBalancedAllocation::make(yaml.empty() ? YAML::Node() : YAML::Load(yaml));
  if (!plugin) FAIL(plugin.message());
  return std::dynamic_pointer_cast<const NodeResourcesBalancedAllocation>(*plugin);
}
}  // namespace

TEST_CASE("balancedResourceScorer: (1 - std) x 100", "[balanced_allocation]") {
  struct Case {
    std::vector<AllocatableRequested> resources;
    int64_t expected;
  };
  const std::vector<Case> cases = {
      {{{4000, 3000}, {10000, 5000}}, 87},            // 0.75, 0.5 -> std 0.125 -> 87.5 -> 87
      {{{6000, 3000}, {10000, 5000}}, 100},           // equal fractions
      {{{4000, 3000}, {10000, 5000}, {4, 1}}, 79},    // 0.75, 0.5, 0.25: std 0.2041 -> 79.58
      {{{4000, 8000}, {10000, 0}}, 50},               // fraction capped at 1: std 0.5
      {{{4000, 3000}}, 100},                          // one resource: std 0
      {{{4000, 3000}, {0, 5}}, 100},                  // allocatable 0 is left out
      {{}, 100},
  };
  for (const auto& c : cases) CHECK(balanced_resource_score(c.resources) == c.expected);
}

TEST_CASE("NodeResourcesBalancedAllocation scores requests, not the non-zero defaults", "[balanced_allocation]") {
  auto plugin = make_balanced();
  auto pod = PodBuilder("p").container({{"cpu", "3"}, {"memory", "5000"}}).info();
  NodeInfo small = NodeBuilder("s").allocatable({{"cpu", "4"}, {"memory", "10000"}}).info();
  NodeInfo large = NodeBuilder("l").allocatable({{"cpu", "6"}, {"memory", "10000"}}).info();
  CHECK(plugin->score(CycleState(), *pod, small).score == 87);
  CHECK(plugin->score(CycleState(), *pod, large).score == 100);

  // A pod already there without requests adds nothing (Requested, not NonZeroRequested).
  auto empty = PodBuilder("e").container({}).info();
  NodeInfo with_empty = NodeBuilder("w").allocatable({{"cpu", "6"}, {"memory", "10000"}}).info({empty});
  CHECK(plugin->score(CycleState(), *pod, with_empty).score == 100);

  auto gpu = make_balanced("{resources: [{name: cpu}, {name: memory}, {name: nvidia.com/gpu}]}");
  auto gpu_pod = PodBuilder("g").container({{"cpu", "3"}, {"memory", "5000"}, {"nvidia.com/gpu", "1"}}).info();
  NodeInfo gpu_node = NodeBuilder("g").allocatable({{"cpu", "4"}, {"memory", "10000"}, {"nvidia.com/gpu", "4"}}).info();
  CHECK(gpu->score(CycleState(), *gpu_pod, gpu_node).score == 79);
  // The gpu is left out for a pod that does not request it.
  CHECK(gpu->score(CycleState(), *pod, gpu_node).score == 87);
}

TEST_CASE("NodeResourcesBalancedAllocation skips best-effort pods", "[balanced_allocation]") {
  auto plugin = make_balanced();
  CycleState state;
  CHECK(plugin->pre_score(state, *PodBuilder("e").container({}).info()).code == Code::skip);
  CHECK(plugin->pre_score(state, *PodBuilder("g").container({{"nvidia.com/gpu", "1"}}).info()).code == Code::skip);
  CHECK(plugin->pre_score(state, *PodBuilder("c").container({{"cpu", "1"}}).info()).ok());
}

TEST_CASE("NodeResourcesBalancedAllocation args", "[balanced_allocation]") {
  auto bad = NodeResourcesBalancedAllocation::make(YAML::Load("{resources: [{name: cpu, weight: 2}]}"));
  REQUIRE_FALSE(bad);
  CHECK(bad.message() == "resources[0].weight: Invalid value: 2: must be 1");
  auto unknown = NodeResourcesBalancedAllocation::make(YAML::Load("{resource: []}"));
  REQUIRE_FALSE(unknown);
  CHECK(unknown.message() == "resource: unknown field");
}
