#include <catch2/catch.hpp>

#include "plugins/deviceshare/fragmentation_policy.hpp"
#include "sim/trace/typical_tasks.hpp"

using namespace troupe::sim::trace;

namespace {

std::vector<TracePod> repeat(const TracePod& pod, int times, int& serial) {
  std::vector<TracePod> out;
  for (int i = 0; i < times; ++i) {
    TracePod p = pod;
    p.name = "pod-" + std::to_string(serial++);
    out.push_back(p);
  }
  return out;
}

}  // namespace

TEST_CASE("typical tasks: most popular keys covering the threshold", "[trace][typical]") {
  int serial = 0;
  std::vector<TracePod> trace;
  auto add = [&](TracePod p, int n) {
    auto more = repeat(p, n, serial);
    trace.insert(trace.end(), more.begin(), more.end());
  };
  add({"", 3152, 100, 1, 810, {}}, 50);             // 50%
  add({"", 11300, 200, 1, 1000, {}}, 20);           // 20%
  add({"", 12500, 300, 0, 0, {}}, 20);              // 20% (memory is not part of the key)
  add({"", 12500, 999, 0, 0, {}}, 0);
  add({"", 4000, 100, 1, 500, {"T4"}}, 5);          // 5%, same shape as the next but typed
  add({"", 4000, 100, 1, 500, {}}, 5);              // 5%
  REQUIRE(trace.size() == 100);

  struct Case {
    double popularity;
    size_t classes;
  };
  // 50, 70, 90, 95, 100 cumulative. Ties (5 vs 5) go to the larger key: the
  // typed one ("T4" > "").
  for (auto c : std::vector<Case>{{0.5, 1}, {0.51, 2}, {0.7, 2}, {0.9, 3}, {0.95, 4}, {0.951, 5}, {1.0, 5}}) {
    INFO("popularity " << c.popularity);
    auto tasks = typical_tasks(trace, c.popularity);
    REQUIRE(tasks.ok());
    CHECK(tasks->size() == c.classes);
  }
  auto tasks = typical_tasks(trace, 0.95);
  REQUIRE(tasks.ok());
  const auto& k = tasks->classes();
  CHECK(k[0].cpu_milli == 3152);
  CHECK(k[0].gpu_milli == 810);
  CHECK(k[0].weight == Approx(50.0 / 95));
  CHECK(k[1].cpu_milli == 12500);  // 20 vs 20: the larger key first (12500 > 11300)
  CHECK(k[1].cpu_only());
  CHECK(k[2].cpu_milli == 11300);
  CHECK(k[3].gpu_models == std::vector<std::string>{"T4"});
  CHECK(k[3].weight == Approx(5.0 / 95));
}

TEST_CASE("typical tasks: errors", "[trace][typical]") {
  CHECK_THAT(typical_tasks({}).message(), Catch::Contains("the trace has no pods"));
  std::vector<TracePod> one = {{"a", 1, 1, 0, 0, {}}};
  CHECK_THAT(typical_tasks(one, 0).message(), Catch::Contains("popularity must be in (0, 1]"));
  CHECK_THAT(typical_tasks(one, 1.5).message(), Catch::Contains("popularity must be in (0, 1]"));
}

TEST_CASE("typical tasks of the shipped default trace", "[trace][typical]") {
  const std::string dir = std::string(TROUPE_SOURCE_DIR) + "/../shared/data/openb-gpu-2023/";
  auto pods = load_trace_pods(dir + "openb_pod_list_default.csv");
  if (!pods.ok()) {
    WARN("trace data not found: " << pods.message());
    return;
  }
  auto tasks = typical_tasks(*pods);
  REQUIRE(tasks.ok());
  // fgd-method.md §6.1: 35 keys; the top one is (3152, 810x1) with 1047 pods.
  CHECK(tasks->size() == 35);
  const auto& top = tasks->classes()[0];
  CHECK(top.cpu_milli == 3152);
  CHECK(top.gpu_milli == 810);
  double cpu_only = 0;
  for (const auto& c : tasks->classes()) cpu_only += c.cpu_only() ? c.weight : 0;
  CHECK(cpu_only == Approx(0.136).margin(0.001));
}

TEST_CASE("fragmentation tasks: typical classes with memory, rare multi-GPU and typed classes kept",
          "[trace][typical]") {
  int serial = 0;
  std::vector<TracePod> trace;
  auto add = [&](TracePod p, int n) {
    auto more = repeat(p, n, serial);
    trace.insert(trace.end(), more.begin(), more.end());
  };
  add({"", 3152, 100, 1, 810, {}}, 40);
  add({"", 3152, 300, 1, 810, {}}, 30);      // same key, more memory: median (lower) = 100
  add({"", 11300, 200, 1, 1000, {}}, 26);    // cumulative 96 >= 95: the popular prefix ends here
  add({"", 88000, 500, 8, 1000, {}}, 2);     // rare 8-GPU class: kept at half its share
  add({"", 4000, 100, 1, 500, {}}, 1);       // rare single-card class: dropped
  add({"", 32000, 700, 4, 1000, {"V100M16"}}, 1);  // rare typed 4-GPU class: kept at its full share
  REQUIRE(trace.size() == 100);

  auto tasks = fragmentation_tasks(trace);
  REQUIRE(tasks);
  const auto& c = tasks->classes();
  REQUIRE(c.size() == 4);
  // Raw weights 70/96, 26/96, 0.5 x 2/100, 1/100, then normalised.
  const double sum = 70.0 / 96 + 26.0 / 96 + 0.01 + 0.01;
  CHECK(c[0].gpu_milli == 810);
  CHECK(c[0].memory_mib == 100);
  CHECK(c[0].weight == Approx(70.0 / 96 / sum));
  CHECK(c[1].gpu_milli == 1000);
  CHECK(c[1].memory_mib == 200);
  CHECK(c[1].weight == Approx(26.0 / 96 / sum));
  CHECK(c[2].gpu_count == 8);
  CHECK(c[2].memory_mib == 500);
  CHECK(c[2].weight == Approx(0.01 / sum));
  CHECK(c[3].gpu_count == 4);
  CHECK(c[3].gpu_models == std::vector<std::string>{"V100M16"});
  CHECK(c[3].weight == Approx(0.01 / sum));
  // The expected card waste, from the single-card classes 810 and 1000 (the
  // 8- and 4-card ones are left out): a whole card ends 190 or 0 left.
  CHECK(tasks->card_waste_weight() == troupe::plugins::deviceshare::kDefaultCardWasteWeight);
  const double p810 = c[0].weight / (c[0].weight + c[1].weight);
  CHECK(tasks->card_waste(1000) == Approx(p810 * 190));
  CHECK(tasks->card_waste(809) == 809);

  // The method's typical tasks stay as they were: no memory, no rare class.
  auto typical = typical_tasks(trace);
  REQUIRE(typical);
  CHECK(typical->size() == 2);
  CHECK(typical->classes()[0].memory_mib == 0);
  CHECK(typical->card_waste_weight() == 0);

  CHECK(fragmentation_tasks({}).message() == "fragmentation tasks: the trace has no pods");
}
