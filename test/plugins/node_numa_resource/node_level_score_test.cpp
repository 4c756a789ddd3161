#include <catch2/catch.hpp>

#include "plugins/node_numa_resource/node_level_score.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::numa;
using troupe::plugins::testing::Amounts;
using troupe::plugins::testing::NodeBuilder;
using troupe::plugins::testing::PodBuilder;

namespace {

NumaScoringStrategy strategy(ScoringType type, std::vector<plugins::ResourceSpec> resources) {
  NumaScoringStrategy s;
  s.type = type;
  s.resources = std::move(resources);
  return s;
}

/// The name-keyed reading the scorer replaces.
int64_t by_name(const NumaScoringStrategy& s, const PodInfo& pod, const NodeInfo& node) {
  return strategy_score(
      s, [&](const std::string& name) { return pod.requests.get(name); },
      [&](const std::string& name) {
        return std::pair<int64_t, int64_t>{node.requested().get(name) + pod.requests.get(name),
                                           node.allocatable().get(name)};
      });
}

}  // namespace

TEST_CASE("NodeLevelScorer scores as the strategy over the node's amounts", "[numa][score]") {
  using L = ScoringType;
  struct Case {
    const char* name;
    NumaScoringStrategy strategy;
    Amounts allocatable;
    Amounts placed;  // one pod already on the node
    Amounts pod;
    int64_t want;
  };
  const auto least_cpu_mem = strategy(L::least_allocated, {{"cpu", 1}, {"memory", 1}});
  const auto most_cpu_mem = strategy(L::most_allocated, {{"cpu", 1}, {"memory", 1}});
  const std::vector<Case> cases = {
      // (8-2)/8 = 75, (16-4)/16 = 75
      {"least, empty node", least_cpu_mem, {{"cpu", "8"}, {"memory", "16Gi"}}, {}, {{"cpu", "2"}, {"memory", "4Gi"}}, 75},
      // cpu (8-6)/8 = 25, memory (16-8)/16 = 50 -> 37
      {"least, with a placed pod", least_cpu_mem, {{"cpu", "8"}, {"memory", "16Gi"}},
       {{"cpu", "4"}, {"memory", "4Gi"}}, {{"cpu", "2"}, {"memory", "4Gi"}}, 37},
      {"most, with a placed pod", most_cpu_mem, {{"cpu", "8"}, {"memory", "16Gi"}}, {{"cpu", "4"}, {"memory", "4Gi"}},
       {{"cpu", "2"}, {"memory", "4Gi"}}, 62},
      {"least, over capacity scores 0 for that resource", least_cpu_mem, {{"cpu", "2"}, {"memory", "16Gi"}}, {},
       {{"cpu", "3"}, {"memory", "8Gi"}}, 25},
      {"most, over capacity caps", most_cpu_mem, {{"cpu", "2"}, {"memory", "16Gi"}}, {}, {{"cpu", "3"}, {"memory", "8Gi"}},
       75},
      // cpu weight 3: (3*50 + 1*100) / 4 = 62
      {"weights", strategy(L::least_allocated, {{"cpu", 3}, {"memory", 1}}), {{"cpu", "4"}, {"memory", "16Gi"}}, {},
       {{"cpu", "2"}}, 62},
      {"resource without capacity is left out", strategy(L::least_allocated, {{"cpu", 1}, {"nvidia.com/gpu", 5}}),
       {{"cpu", "4"}}, {}, {{"cpu", "1"}}, 75},
      {"scalar resource", strategy(L::most_allocated, {{"nvidia.com/gpu", 1}}), {{"cpu", "4"}, {"nvidia.com/gpu", "8"}},
       {{"nvidia.com/gpu", "2"}}, {{"nvidia.com/gpu", "2"}}, 50},
      // As Koordinator's calculateResourceAllocatableRequest: pods are never
      // scored, a scalar resource only for a pod that asks for it.
      {"pods is not scored", strategy(L::least_allocated, {{"pods", 1}}), {{"pods", "10"}}, {}, {{"cpu", "1"}}, 0},
      {"pods left out of the mean", strategy(L::most_allocated, {{"pods", 5}, {"cpu", 1}}),
       {{"pods", "10"}, {"cpu", "4"}}, {}, {{"cpu", "1"}}, 25},
      {"a scalar resource the pod does not ask for is left out",
       strategy(L::least_allocated, {{"cpu", 1}, {"nvidia.com/gpu", 3}}), {{"cpu", "4"}, {"nvidia.com/gpu", "8"}},
       {{"nvidia.com/gpu", "4"}}, {{"cpu", "1"}}, 75},
      {"hugepages are scalar too", strategy(L::least_allocated, {{"cpu", 1}, {"hugepages-2Mi", 1}}),
       {{"cpu", "4"}, {"hugepages-2Mi", "1Gi"}}, {}, {{"cpu", "2"}}, 50},
      {"ephemeral storage", strategy(L::least_allocated, {{"ephemeral-storage", 1}}), {{"ephemeral-storage", "100Gi"}},
       {{"ephemeral-storage", "50Gi"}}, {{"ephemeral-storage", "25Gi"}}, 25},
      {"untracked name", strategy(L::least_allocated, {{"storage", 1}}), {{"storage", "1Ti"}}, {}, {{"cpu", "1"}}, 0},
      {"no resources", strategy(L::least_allocated, {}), {{"cpu", "4"}}, {}, {{"cpu", "1"}}, 0},
      {"empty node allocatable", least_cpu_mem, {}, {}, {{"cpu", "1"}}, 0},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      std::vector<std::shared_ptr<const PodInfo>> placed;
      if (!c.placed.empty()) placed.push_back(PodBuilder("placed").container(c.placed).info());
      NodeInfo node = NodeBuilder("n").allocatable(c.allocatable).info(placed);
      auto pod = PodBuilder("p").container(c.pod).info();
      const int64_t got = NodeLevelScorer(c.strategy).score(*pod, node);
      CHECK(got == c.want);
      CHECK(got == by_name(c.strategy, *pod, node));
    }
  }
}
