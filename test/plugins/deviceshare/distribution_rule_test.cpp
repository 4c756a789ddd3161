// The rule that turns class counts into a task distribution
// (plugins/deviceshare/distribution_rule.hpp), shared by the trace tools and
// the online learner: the popular prefix, its tie order, median memory, the
// rare multi-GPU classes, and errors.
#include <catch2/catch.hpp>

#include "plugins/deviceshare/distribution_rule.hpp"

using namespace troupe::plugins::deviceshare;

namespace {

ClassTally tally(int64_t cpu, int32_t milli, int32_t cards, double count, int64_t memory = 0,
                 std::vector<std::string> models = {}) {
  ClassTally t;
  t.task.cpu_milli = cpu;
  t.task.gpu_milli = milli;
  t.task.gpu_count = cards;
  t.task.memory_mib = memory;
  for (const auto& m : models) t.models_text += (t.models_text.empty() ? "" : "|") + m;
  t.task.gpu_models = std::move(models);
  t.count = count;
  return t;
}

}  // namespace

TEST_CASE("lower median of memory", "[deviceshare][distribution-rule]") {
  struct Case {
    std::vector<int64_t> values;
    int64_t median;
  };
  const std::vector<Case> cases = {
      {{}, 0}, {{7}, 7}, {{9, 1}, 1}, {{5, 1, 3}, 3}, {{4, 1, 3, 2}, 2}, {{8, 8, 1, 8}, 8}, {{0, 0, 100}, 0},
  };
  for (const auto& c : cases) {
    INFO(c.values.size() << " values");
    CHECK(lower_median(c.values) == c.median);
  }
}

TEST_CASE("typical distribution: the popular prefix and its tie order", "[deviceshare][distribution-rule]") {
  // 50, 20, 20, 5, 5 of 100; the 20s and the 5s tie on count.
  const std::vector<ClassTally> tallies = {
      tally(3152, 810, 1, 50), tally(11300, 1000, 1, 20), tally(12500, 0, 0, 20),
      tally(4000, 500, 1, 5, 0, {"T4"}), tally(4000, 500, 1, 5),
  };
  struct Case {
    double popularity;
    size_t classes;
  };
  for (auto c : std::vector<Case>{{0.5, 1}, {0.51, 2}, {0.7, 2}, {0.9, 3}, {0.95, 4}, {0.951, 5}, {1.0, 5}}) {
    INFO("popularity " << c.popularity);
    auto tasks = typical_distribution(tallies, c.popularity);
    REQUIRE(tasks.ok());
    CHECK(tasks->size() == c.classes);
  }
  auto tasks = typical_distribution(tallies, 0.95);
  REQUIRE(tasks.ok());
  const auto& k = tasks->classes();
  CHECK(k[0].cpu_milli == 3152);
  CHECK(k[0].weight == Approx(50.0 / 95));
  CHECK(k[1].cpu_milli == 12500);  // 20 vs 20: the larger key first (12500 > 11300)
  CHECK(k[2].cpu_milli == 11300);
  CHECK(k[3].gpu_models == std::vector<std::string>{"T4"});  // 5 vs 5: "T4" > ""
  CHECK(k[3].memory_mib == 0);  // FGD's typical tasks ignore memory
}

TEST_CASE("fragmentation distribution: memory, rare multi-GPU classes, card waste", "[deviceshare][distribution-rule]") {
  // 96 of 100 tasks in the first two classes: the prefix stops there (>= 95).
  const std::vector<ClassTally> tallies = {
      tally(4000, 500, 1, 60, 2048),  tally(8000, 1000, 1, 36, 4096), tally(64000, 1000, 8, 2, 65536),
      tally(16000, 1000, 2, 1, 8192), tally(1000, 160, 1, 1, 512),
  };
  auto tasks = fragmentation_distribution(tallies, 0.3);
  REQUIRE(tasks.ok());
  const auto& k = tasks->classes();
  REQUIRE(k.size() == 4);  // the rare single-card share is left out
  // Popular weights count / 96, rare multi-GPU kRareMultiGpuShare x count / 100; then normalised.
  const double sum = 60.0 / 96 + 36.0 / 96 + 0.5 * 2 / 100 + 0.5 * 1 / 100;
  CHECK(k[0].weight == Approx(60.0 / 96 / sum));
  CHECK(k[1].weight == Approx(36.0 / 96 / sum));
  CHECK(k[2].gpu_count == 8);
  CHECK(k[2].weight == Approx(0.01 / sum));
  CHECK(k[3].gpu_count == 2);
  CHECK(k[3].weight == Approx(0.005 / sum));
  CHECK(k[0].memory_mib == 2048);  // memory kept
  CHECK(k[2].memory_mib == 65536);
  CHECK(tasks->card_waste_weight() == 0.3);

  // Fractional (decayed) counts go through the same rule.
  auto decayed = fragmentation_distribution({tally(1000, 500, 1, 0.75), tally(1000, 250, 1, 0.25)}, 0);
  REQUIRE(decayed.ok());
  CHECK(decayed->size() == 2);
  CHECK(decayed->classes()[0].weight == Approx(0.75));
}

TEST_CASE("fragmentation distribution: which rare classes are kept, and at what share",
          "[deviceshare][distribution-rule]") {
  // The first class alone covers 99 of 100 tasks; each row adds one rare
  // class of count 1 beside it and says the weight it keeps (share of all
  // tasks x rare_class_share), or none.
  struct Row {
    const char* what;
    ClassTally rare;
    double kept;  // weight before normalisation; 0 = left out
  };
  const Row rows[] = {
      {"a single-card share", tally(1000, 160, 1, 1), 0},
      {"a whole card", tally(1000, 1000, 1, 1), 0},
      {"a CPU-only task", tally(1000, 0, 0, 1), 0},
      {"two whole cards", tally(1000, 1000, 2, 1), kRareMultiGpuShare / 100},
      {"eight whole cards", tally(1000, 1000, 8, 1), kRareMultiGpuShare / 100},
      {"a share bound to one model", tally(1000, 160, 1, 1, 0, {"T4"}), 1.0 / 100},
      {"a whole card bound to two models", tally(1000, 1000, 1, 1, 0, {"V100M16", "V100M32"}), 1.0 / 100},
      {"two cards bound to one model", tally(1000, 1000, 2, 1, 0, {"G2"}), 1.0 / 100},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    auto tasks = fragmentation_distribution({tally(4000, 500, 1, 99), row.rare}, 0);
    REQUIRE(tasks.ok());
    const auto& k = tasks->classes();
    if (row.kept == 0) {
      CHECK(k.size() == 1);
      continue;
    }
    REQUIRE(k.size() == 2);
    const double sum = 1.0 + row.kept;  // the prefix's weights sum to 1
    CHECK(k[1].gpu_count == row.rare.task.gpu_count);
    CHECK(k[1].gpu_models == row.rare.task.gpu_models);
    CHECK(k[1].weight == Approx(row.kept / sum));
  }
}

TEST_CASE("fragmentation distribution: GPU classes kept when CPU-only pods fill the prefix",
          "[deviceshare][distribution-rule]") {
  // 190 of 200 tasks are CPU-only: the top 95 % holds no GPU class. The next
  // GPU classes join the prefix until it covers 90 % of the 10 GPU tasks.
  const std::vector<ClassTally> tallies = {
      tally(2000, 0, 0, 150, 1024), tally(4000, 0, 0, 40, 2048), tally(4000, 500, 1, 5, 4096),
      tally(8000, 1000, 1, 4, 8192), tally(1000, 160, 1, 1, 512),
  };
  auto tasks = fragmentation_distribution(tallies, 0);
  REQUIRE(tasks.ok());
  const auto& k = tasks->classes();
  REQUIRE(k.size() == 4);  // 5 + 4 of 10 GPU tasks covered: the 160-milli class stays out
  CHECK(k[0].weight == Approx(150.0 / 199));
  CHECK(k[1].weight == Approx(40.0 / 199));
  CHECK(k[2].gpu_milli == 500);
  CHECK(k[2].weight == Approx(5.0 / 199));
  CHECK(k[3].gpu_milli == 1000);
  CHECK(k[3].weight == Approx(4.0 / 199));
  CHECK(k[3].memory_mib == 8192);

  struct Case {
    const char* what;
    std::vector<ClassTally> tallies;
    size_t classes;
  };
  const std::vector<Case> cases = {
      {"only CPU-only tasks: nothing to add", {tally(2000, 0, 0, 99), tally(4000, 0, 0, 1)}, 1},
      {"the prefix already covers the GPU tasks", {tally(4000, 500, 1, 96), tally(2000, 0, 0, 4)}, 1},
      {"one GPU task among many: it joins", {tally(2000, 0, 0, 99), tally(4000, 1000, 1, 1)}, 2},
      {"a left-out multi-GPU class joins the prefix rather than the rare ones",
       {tally(2000, 0, 0, 99), tally(64000, 1000, 8, 1)}, 2},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto made = fragmentation_distribution(c.tallies, 0);
    REQUIRE(made.ok());
    CHECK(made->size() == c.classes);
  }
}

TEST_CASE("distribution rule: errors", "[deviceshare][distribution-rule]") {
  struct Case {
    const char* what;
    std::vector<ClassTally> tallies;
    double popularity;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"nothing counted", {}, 0.95, "no task was counted"},
      {"only zero counts", {tally(1000, 0, 0, 0)}, 0.95, "no task was counted"},
      {"a negative count", {tally(1000, 0, 0, -1)}, 0.95, "a class count must be a finite number >= 0"},
      {"popularity 0", {tally(1000, 0, 0, 1)}, 0, "popularity must be in (0, 1]"},
      {"popularity above 1", {tally(1000, 0, 0, 1)}, 1.5, "popularity must be in (0, 1]"},
      {"a class the measure rejects", {tally(1000, 1200, 1, 1)}, 0.95, "gpu_milli must be in [0, 1000]"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto typical = typical_distribution(c.tallies, c.popularity);
    REQUIRE_FALSE(typical.ok());
    CHECK_THAT(typical.message(), Catch::Contains(c.error));
    if (c.popularity != 0.95) continue;  // the fragmentation rule has a fixed popularity
    auto fragmentation = fragmentation_distribution(c.tallies, 0.3);
    REQUIRE_FALSE(fragmentation.ok());
    CHECK_THAT(fragmentation.message(), Catch::Contains(c.error));
  }
  CHECK_THAT(fragmentation_distribution({tally(1000, 500, 1, 1)}, -1).message(),
             Catch::Contains("card waste weight must be a finite number >= 0"));
}
