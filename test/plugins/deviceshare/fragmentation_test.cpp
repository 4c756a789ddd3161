#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>

#include "plugins/deviceshare/fragmentation.hpp"
#include "test/plugins/deviceshare/distribution_support.hpp"

using namespace troupe;
using namespace troupe::plugins::deviceshare;
using troupe::plugins::deviceshare::testing::distribution;

namespace {

GpuTaskClass task(int64_t cpu, int32_t milli, int32_t count, double weight, std::vector<std::string> models = {}) {
  return GpuTaskClass{cpu, milli, count, std::move(models), weight};
}

// fgd-method.md §9.1: A = (4000m, 1x500) 0.5, B = (8000m, 1x1000) 0.3, C = (50000m, CPU-only) 0.2.
TaskDistribution paper_example() {
  return distribution({task(4000, 500, 1, 0.5), task(8000, 1000, 1, 0.3), task(50000, 0, 0, 0.2)});
}

// One class per category of the simulator's own unit test (node 1 core, cards 200/600/350/100, model "1080").
TaskDistribution one_class_per_category() {
  return distribution({
      task(2000, 1000, 4, 0.1),               // Q1 lack both
      task(1000, 1000, 4, 0.2),               // Q2 lack GPU
      task(1000, 100, 4, 0.3),                // Q3 satisfied
      task(2000, 100, 1, 0.1),                // Q4 lack CPU
      task(1000, 0, 0, 0.1),                  // CPU-only, CPU satisfied
      task(2000, 0, 0, 0.1),                  // CPU-only, lacks CPU
      task(1000, 200, 2, 0.1, {"V100M32"}),   // no access to model 1080
  });
}

}  // namespace

TEST_CASE("node fragmentation: hand-worked values", "[deviceshare][fragmentation]") {
  struct Case {
    const char* what;
    TaskDistribution tasks;
    NodeGpuFree node;
    std::string model;
    double expected;
  };
  const std::vector<Case> cases = {
      // Q1 125 + Q2 250 + Q4 125 + XL 125 + XR 125 + no-access 125; Q3's 375 is not fragment.
      {"every category", one_class_per_category(), {1000, {200, 600, 350, 100}}, "1080", 875.0},
      // Same node, model now accessible to the typed class: it fits 2 cards >= 200 with CPU, fragment = 100.
      {"typed class with access", one_class_per_category(), {1000, {200, 600, 350, 100}}, "V100M32", 750.0 + 0.1 * 100},
      // §9.1 N1: A 0.5*200 + B 0.3*700 + C 0.2*6700 = 1650.
      {"paper N1", paper_example(), {40000, {1000, 1000, 1000, 1000, 1000, 1000, 500, 200}}, "V100M32", 1650.0},
      // §9.1 N1 after the pod on card 6: 100 + 60 + 1240.
      {"paper N1 after card 6", paper_example(), {36000, {1000, 1000, 1000, 1000, 1000, 1000, 0, 200}}, "V100M32", 1400.0},
      // §9.1 N1 after the pod on card 0: 100 + 360 + 1240.
      {"paper N1 after card 0", paper_example(), {36000, {500, 1000, 1000, 1000, 1000, 1000, 500, 200}}, "V100M32", 1700.0},
      // §9.1 N2: only C counts: 0.2*2000.
      {"paper N2", paper_example(), {20000, {1000, 1000}}, "T4", 400.0},
      {"paper N2 after", paper_example(), {16000, {500, 1000}}, "T4", 450.0},
      {"no idle GPU is no fragment", paper_example(), {40000, {0, 0}}, "T4", 0.0},
      {"no cards at all", paper_example(), {40000, {}}, "", 0.0},
      // CPU exhausted: every GPU class lacks CPU, all idle GPU is fragment.
      {"no CPU left", paper_example(), {0, {1000, 300}}, "T4", 1300.0},
      // A node without a model: typed classes have no access.
      {"model-less node", distribution({task(0, 500, 1, 1.0, {"T4"})}), {1000, {1000}}, "", 1000.0},
      // Multi-card class: 3 cards >= 1000 needed, only 2 -> lacks GPU, all idle is fragment.
      {"multi-card lacks cards", distribution({task(0, 1000, 3, 1.0)}), {1000, {1000, 1000, 400}}, "", 2400.0},
      {"multi-card fits", distribution({task(0, 1000, 2, 1.0)}), {1000, {1000, 1000, 400}}, "", 400.0},
      // Weights are normalised: 2 and 6 behave as 0.25 and 0.75.
      {"weights normalised", distribution({task(0, 500, 1, 2.0), task(0, 0, 0, 6.0)}), {0, {1000, 300}}, "", 0.25 * 300 + 0.75 * 1300},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(node_fragmentation(c.node, c.tasks, c.model) == Approx(c.expected).epsilon(1e-12));
  }
}

TEST_CASE("fragmentation score maps the change through a sigmoid", "[deviceshare][fragmentation]") {
  struct Case {
    double before, after;
    int64_t expected;
  };
  const std::vector<Case> cases = {
      {1650, 1400, 56},  // sigma(0.25) = 0.5622
      {1650, 1700, 48},  // sigma(-0.05) = 0.4875
      {400, 450, 48},    {0, 0, 50},     {123.4, 123.4, 50},
      {300, 0, 57},      // sigma(0.3) = 0.5744
      {300, 600, 42},    // sigma(-0.3) = 0.4256
      {0, 1000, 26},     // sigma(-1) = 0.2689
      {10000, 0, 99},    {0, 10000, 0},
  };
  for (const auto& c : cases) {
    INFO(c.before << " -> " << c.after);
    CHECK(fragmentation_score(c.before, c.after) == c.expected);
  }
}

TEST_CASE("best placement: card choice and node score", "[deviceshare][fragmentation]") {
  struct Case {
    const char* what;
    TaskDistribution tasks;
    NodeGpuFree node;
    GpuRequest request;
    std::optional<int64_t> score;  // nullopt: does not fit
    std::vector<int32_t> cards;
  };
  const auto half = distribution({task(0, 500, 1, 1.0)});
  const std::vector<Case> cases = {
      // §9.1: the 500-milli pod goes to card 6 (500 -> 0) with score 56, not to a full card (48).
      {"paper N1", paper_example(), {40000, {1000, 1000, 1000, 1000, 1000, 1000, 500, 200}}, {4000, 500, 1}, 56, {6}},
      {"paper N2", paper_example(), {20000, {1000, 1000}}, {4000, 500, 1}, 48, {0}},
      // 300 milli: card 2 (300 -> 0) removes a fragment (57); card 0 keeps it (50); card 1 makes one (42).
      {"shared picks the fragment", half, {0, {1000, 600, 300}}, {0, 300, 1}, 57, {2}},
      // Equal scores: the lowest index wins.
      {"shared tie -> lowest card", half, {0, {1000, 1000}}, {0, 300, 1}, 50, {0}},
      {"shared does not fit", half, {0, {200, 100}}, {0, 300, 1}, std::nullopt, {}},
      // Whole card: the lowest-index fully free card, whatever the sort order of free amounts.
      {"whole card", half, {0, {700, 1000, 300, 1000}}, {0, 1000, 1}, 50, {1}},
      {"two whole cards", half, {0, {1000, 300, 1000, 1000}}, {0, 1000, 2}, 50, {0, 2}},
      // Two half cards: the least-sufficient ones (500 on card 3, 600 on card 1) leave 1000/100/300/0.
      {"two partial cards", half, {0, {1000, 600, 300, 500}}, {0, 500, 2}, 47, {1, 3}},
      {"too few whole cards", half, {0, {1000, 999}}, {0, 1000, 2}, std::nullopt, {}},
      // Taking the last full card for a 1000-milli class distribution: fragment unchanged at 300.
      {"whole card keeps fragment", distribution({task(0, 1000, 1, 1.0)}), {0, {1000, 1000, 300}}, {0, 1000, 1}, 50, {0}},
      // CPU-only: 4000m leaves 6000m, so the 8000m GPU class now lacks CPU: 0 -> 1000.
      {"cpu-only raises fragment", distribution({task(8000, 1000, 1, 1.0)}), {10000, {1000}}, {4000, 0, 0}, 26, {}},
      {"cpu-only no change", distribution({task(8000, 1000, 1, 1.0)}), {20000, {1000}}, {4000, 0, 0}, 50, {}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto access = c.tasks.access_for_model("");
    auto placement = best_fragmentation_placement(c.node, c.request, c.tasks, access);
    REQUIRE(placement.has_value() == c.score.has_value());
    if (!placement) continue;
    CHECK(placement->score == *c.score);
    CHECK(placement->cards == c.cards);
  }
}

TEST_CASE("task distribution validation", "[deviceshare][fragmentation]") {
  struct Case {
    std::vector<GpuTaskClass> classes;
    const char* error;  // nullptr: valid
  };
  const std::vector<Case> cases = {
      {{task(1000, 500, 1, 1)}, nullptr},
      {{task(1000, 0, 0, 1), task(0, 1000, 8, 0)}, nullptr},
      {{}, "no task classes"},
      {{task(1000, 500, 1, -1)}, "task class 0: weight must be a finite number >= 0"},
      {{task(1000, 500, 1, std::nan(""))}, "task class 0: weight must be a finite number"},
      {{task(1000, 500, 1, 0)}, "the weights must sum to a finite number > 0"},
      {{task(1000, 500, 1, 1), task(-1, 500, 1, 1)}, "task class 1: cpu_milli must be >= 0"},
      {{task(0, 1001, 1, 1)}, "gpu_milli must be in [0, 1000], got 1001"},
      {{task(0, -5, 1, 1)}, "gpu_milli must be in [0, 1000]"},
      {{task(0, 0, 2, 1)}, "gpu_count must be 0 for a CPU-only class"},
      {{task(0, 500, 0, 1)}, "gpu_count must be >= 1 when gpu_milli > 0"},
      {{task(0, 500, 2, 1)}, nullptr},  // two half cards: the method's num x milli
      {{task(0, 500, 1, 1e308), task(0, 500, 1, 1e308)}, "the weights must sum to a finite number > 0"},
  };
  for (const auto& c : cases) {
    auto made = TaskDistribution::make(c.classes);
    if (c.error == nullptr) {
      CHECK(made.ok());
    } else {
      REQUIRE_FALSE(made.ok());
      CHECK_THAT(made.message(), Catch::Contains(c.error));
    }
  }
  auto made = TaskDistribution::make({task(0, 500, 1, 1), task(0, 0, 0, 3)});
  REQUIRE(made.ok());
  CHECK(made->classes()[0].weight == 0.25);
  CHECK(made->classes()[1].weight == 0.75);
}

TEST_CASE("task distribution from plugin args", "[deviceshare][fragmentation]") {
  struct Case {
    const char* yaml;
    const char* error;  // nullptr: valid
  };
  const std::vector<Case> cases = {
      {"[{cpu: 3152m, gpuMilli: 810, weight: 1047}, {cpuMilli: 12500, weight: 366}, "
       "{cpu: '8', gpuMilli: 1000, gpuCount: 2, gpuModels: [V100M16, V100M32], weight: 5}]",
       nullptr},
      {"{cpu: 1}", "args.taskClasses: "},
      {"[{cpu: 1, gpuMilli: 500}]", "args.taskClasses[0].weight: required"},
      {"[{cpu: lots, weight: 1}]", "args.taskClasses[0].cpu: "},
      {"[{cpu: 1, cpuMilli: 1000, weight: 1}]", "args.taskClasses[0]: set cpu or cpuMilli, not both"},
      {"[{cpu: 1, weight: 1, color: red}]", "args.taskClasses[0]"},
      {"[{cpu: 1, gpuMilli: 2000, weight: 1}]", "args.taskClasses: task class 0: gpu_milli must be in [0, 1000]"},
      {"[{cpu: 1, gpuModels: T4, gpuMilli: 10, weight: 1}]", "args.taskClasses[0].gpuModels"},
  };
  for (const auto& c : cases) {
    INFO(c.yaml);
    auto parsed = parse_task_distribution(YAML::Load(c.yaml), "args.taskClasses");
    if (c.error == nullptr) {
      REQUIRE(parsed.ok());
      REQUIRE(parsed->size() == 3);
      const auto& first = parsed->classes()[0];
      CHECK(first.cpu_milli == 3152);
      CHECK(first.gpu_milli == 810);
      CHECK(first.gpu_count == 1);
      CHECK(parsed->classes()[1].cpu_only());
      CHECK(parsed->classes()[2].gpu_models == std::vector<std::string>{"V100M16", "V100M32"});
      CHECK(first.weight == Approx(1047.0 / 1418.0));
    } else {
      REQUIRE_FALSE(parsed.ok());
      CHECK_THAT(parsed.message(), Catch::Contains(c.error));
    }
  }
}
