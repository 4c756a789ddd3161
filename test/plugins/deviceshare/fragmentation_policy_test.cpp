// fragmentation_policy.hpp, the memory-aware measure and the score memo.
#include <catch2/catch.hpp>

#include "plugins/deviceshare/fragmentation_cache.hpp"
#include "plugins/deviceshare/fragmentation_policy.hpp"
#include "test/plugins/deviceshare/distribution_support.hpp"

using namespace troupe::plugins::deviceshare;
using troupe::plugins::deviceshare::testing::distribution;

namespace {

GpuTaskClass task(int64_t cpu, int32_t milli, int32_t count, double weight, int64_t memory_mib = 0) {
  GpuTaskClass c{cpu, milli, count, {}, weight};
  c.memory_mib = memory_mib;
  return c;
}

}  // namespace

TEST_CASE("memory-aware fragmentation", "[deviceshare][fragmentation]") {
  // A: 1 card x 500 with 8 GiB; B: 1 whole card, memory not checked.
  const auto tasks = distribution({task(1000, 500, 1, 0.5, 8192), task(1000, 1000, 1, 0.5)});
  const std::vector<uint8_t> access = {1, 1};
  struct Case {
    const char* name;
    NodeGpuFree node;
    double want;
  };
  const std::vector<Case> cases = {
      {"memory unknown: CPU only, as the method", {8000, {1000, 300}}, 0.5 * 300 + 0.5 * 300},
      {"enough memory", {8000, {1000, 300}, 8192}, 0.5 * 300 + 0.5 * 300},
      {"too little memory for A: all idle is A's fragment", {8000, {1000, 300}, 8191}, 0.5 * 1300 + 0.5 * 300},
      {"no memory, B does not check it", {8000, {1000, 1000}, 0}, 0.5 * 2000 + 0},
      {"no CPU: both lack host", {500, {1000}, 1 << 20}, 1000},
      {"nothing idle", {8000, {0, 0}, 0}, 0},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(node_fragmentation(c.node, tasks, access) == Approx(c.want));
  }
  // The request's memory leaves the node in the after-state.
  auto placed = best_fragmentation_placement({8000, {1000, 1000}, 9000}, GpuRequest{1000, 500, 1, 1000}, tasks, access);
  REQUIRE(placed);
  CHECK(placed->before == Approx(0));
  CHECK(placed->after == Approx(0.5 * 1500 + 0.5 * 500));  // 8000 MiB left < A's 8192
  CHECK(TaskDistribution::make({task(0, 500, 1, 1, -1)}).message() == "task class 0: memory_mib must be >= 0, got -1");
}

TEST_CASE("fragmentation policy score and tie-break rank", "[deviceshare][fragmentation]") {
  const NodeGpuFree node{8000, {1000, 1000, 400, 0}};
  struct Case {
    double before, after, spread;
    GpuRequest request;
    int64_t want;
  };
  const std::vector<Case> cases = {
      {1000, 1000, 0, {1000, 500, 1}, 50},
      {1000, 750, 0, {1000, 500, 1}, fragmentation_score(1000, 750)},
      {1000, 1050, 0, {1000, 500, 1}, fragmentation_score(1000, 1050)},
      // spread: 0.5 x (2400 - 500) / 4 cards = 237.5 milli more "drop"
      {1000, 1000, 0.5, {1000, 500, 1}, fragmentation_score(1237.5, 1000)},
      // CPU-only requests get no spread term
      {1000, 1000, 0.5, {1000, 0, 0}, 50},
  };
  for (const auto& c : cases) {
    INFO(c.before << " -> " << c.after << " spread " << c.spread);
    FragPlacement p{0, {}, c.before, c.after};
    CHECK(fragmentation_policy_score(p, node, c.request, c.spread) == c.want);
  }
  CHECK(tie_break_rank("node-a", 1) == tie_break_rank("node-a", 1));
  CHECK(tie_break_rank("node-a", 1) != tie_break_rank("node-a", 2));
  CHECK(tie_break_rank("node-a", 1) != tie_break_rank("node-b", 1));
  CHECK(tie_break_rank("", 0) == tie_break_rank("", 0));
}

TEST_CASE("fragmentation score memo", "[deviceshare][fragmentation]") {
  const NodeGpuFree node{8000, {1000, 190}, 4096};
  const GpuRequest request{1000, 160, 1, 512};
  const auto state = FragmentationStateKey::of(1, 0, 42, node);
  REQUIRE(state);
  FragmentationScoreCache cache;
  CHECK_FALSE(cache.find(*state, request));
  cache.store(*state, request, {61, 1});
  REQUIRE(cache.find(*state, request));
  CHECK(cache.find(*state, request)->policy_score == 61);
  CHECK(cache.find(*state, request)->first_card == 1);

  // Every input is part of the key: the node's state...
  std::vector<FragmentationStateKey> other_states;
  other_states.push_back(*FragmentationStateKey::of(2, 0, 42, node));
  other_states.push_back(*FragmentationStateKey::of(1, 7, 42, node));  // another task distribution (a learned snapshot)
  other_states.push_back(*FragmentationStateKey::of(1, 0, 43, node));
  other_states.push_back(*FragmentationStateKey::of(1, 0, 42, NodeGpuFree{8001, {1000, 190}, 4096}));
  other_states.push_back(*FragmentationStateKey::of(1, 0, 42, NodeGpuFree{8000, {1000, 191}, 4096}));
  other_states.push_back(*FragmentationStateKey::of(1, 0, 42, NodeGpuFree{8000, {1000, 190, 0}, 4096}));
  other_states.push_back(*FragmentationStateKey::of(1, 0, 42, NodeGpuFree{8000, {1000, 190}, 4097}));
  for (size_t i = 0; i < other_states.size(); ++i) {
    INFO("state variant " << i);
    CHECK_FALSE(cache.find(other_states[i], request));
  }
  // ... and the request.
  const GpuRequest other_requests[] = {{1001, 160, 1, 512}, {1000, 170, 1, 512}, {1000, 160, 2, 512}, {1000, 160, 1, 513}};
  for (const auto& r : other_requests) {
    INFO("request " << r.cpu_milli << " " << r.gpu_milli << " " << r.gpu_count << " " << r.memory_mib);
    CHECK_FALSE(cache.find(*state, r));
  }
  // Many shapes of one state are all kept.
  for (int i = 0; i < 500; ++i) cache.store(*state, GpuRequest{i, 100, 1, 0}, {i % 100, -1});
  CHECK(cache.size() == 501);
  CHECK(cache.find(*state, GpuRequest{250, 100, 1, 0})->policy_score == 50);
  CHECK(cache.find(*state, request)->policy_score == 61);
  // A new state drops the old state's decisions.
  cache.store(other_states[3], request, {7, 0});
  CHECK(cache.size() == 1);
  CHECK_FALSE(cache.find(*state, request));
  CHECK(cache.find(other_states[3], request)->policy_score == 7);
  // The state's measure before placement is kept beside its decisions, and
  // forgotten with them.
  CHECK_FALSE(cache.before(other_states[3]));
  cache.store_before(other_states[3], 1234.5);
  CHECK(cache.before(other_states[3]) == 1234.5);
  CHECK(cache.find(other_states[3], request)->policy_score == 7);  // same state: decisions kept
  CHECK_FALSE(cache.before(*state));
  cache.store(*state, request, {61, 1});  // a new state
  CHECK_FALSE(cache.before(other_states[3]));
  CHECK_FALSE(cache.before(*state));
  cache.store_before(*state, 10.0);
  cache.store_before(other_states[3], 20.0);  // a new state drops the decisions too
  CHECK_FALSE(cache.find(*state, request));
  CHECK(cache.before(other_states[3]) == 20.0);
  cache.clear();
  CHECK_FALSE(cache.before(other_states[3]));
  CHECK_FALSE(cache.find(other_states[3], request));
  CHECK_FALSE(FragmentationStateKey::of(1, 0, 0, NodeGpuFree{0, std::vector<int32_t>(17, 1000)}));

  // The class access vector is computed once per args and distribution.
  auto tasks = TaskDistribution::make({GpuTaskClass{1000, 500, 1, {"A100"}, 1.0}, GpuTaskClass{1000, 500, 1, {}, 1.0}});
  auto learned = TaskDistribution::make({GpuTaskClass{1000, 500, 1, {}, 1.0}});
  REQUIRE(tasks);
  REQUIRE(learned);
  CHECK(cache.access(5, 0, *tasks, "T4") == std::vector<uint8_t>{0, 1});
  CHECK(cache.access(5, 0, *tasks, "A100") == std::vector<uint8_t>{0, 1});  // same args: kept (NodeDevices clears on a model change)
  CHECK(cache.access(6, 0, *tasks, "A100") == std::vector<uint8_t>{1, 1});
  CHECK(cache.access(6, 9, *learned, "A100") == std::vector<uint8_t>{1});  // a new snapshot: recomputed
  CHECK(cache.access(6, 0, *tasks, "T4") == std::vector<uint8_t>{0, 1});
}
