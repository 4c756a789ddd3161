#include <catch2/catch.hpp>

#include "plugins/elastic_quota/overuse_revoke.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::elastic_quota;
using namespace troupe::plugins::testing;
using Clock = OveruseMonitor::Clock;
using std::chrono::seconds;

namespace {

QuotaUsage usage(int64_t used_cpu, int64_t runtime_cpu) {
  QuotaUsage u;
  u.used = {{"cpu", used_cpu}, {"memory", 1}};
  u.runtime = {{"cpu", runtime_cpu}};
  return u;
}

std::shared_ptr<const PodInfo> placed(const char* name, int64_t cpu_milli, int32_t priority = 0) {
  return PodBuilder(name).container({{"cpu", std::to_string(cpu_milli) + "m"}}).priority(priority).info();
}

std::vector<std::string> names(const std::vector<std::shared_ptr<const PodInfo>>& pods) {
  std::vector<std::string> out;
  for (const auto& pod : pods) out.push_back(pod->meta().name);
  return out;
}

}  // namespace

TEST_CASE("a quota is revoked once it stays over its runtime for longer than the delay", "[elastic_quota]") {
  const Clock::time_point t0{};
  struct Step {
    int seconds_later;
    int64_t used;  // runtime 4 cores
    bool due;
  };
  const std::vector<Step> steps = {
      {1, 3'000, false},  // within
      {2, 5'000, false},  // over since the last time within (1 s): 1 s
      {3, 5'000, false},  // 2 s: not longer than the delay
      {4, 5'000, true},   // 3 s > 2 s: due, and the watch starts again
      {5, 5'000, false},
      {6, 5'000, false},
      {7, 5'000, true},
      {8, 4'000, false},  // within again (equal is within)
      {9, 5'000, false},
  };
  OveruseMonitor monitor(t0);
  for (const auto& step : steps) {
    INFO("at " << step.seconds_later << " s");
    CHECK(monitor.due(usage(step.used, 4'000), t0 + seconds(step.seconds_later), seconds(2)) == step.due);
  }
}

TEST_CASE("only the resources the runtime names can be over it", "[elastic_quota]") {
  CHECK_FALSE(over_runtime({{"cpu", 4'000}, {"memory", 100}}, {{"cpu", 4'000}}));
  CHECK(over_runtime({{"cpu", 4'001}}, {{"cpu", 4'000}}));
  CHECK_FALSE(over_runtime({}, {{"cpu", 0}}));
}

TEST_CASE("the revoke evicts the least important pods that do not fit back", "[elastic_quota]") {
  struct Case {
    const char* name;
    int64_t used, runtime;
    std::vector<std::shared_ptr<const PodInfo>> pods;
    std::vector<std::string> revoked;
  };
  const std::vector<Case> cases = {
      {"within: nothing", 3'000, 4'000, {placed("a", 1'000), placed("b", 2'000)}, {}},
      {"one pod over: the least important goes", 5'000, 4'000,
       {placed("high", 1'000, 100), placed("low", 1'000, 1), placed("mid", 1'000, 50), placed("x", 2'000, 100)},
       {"low"}},
      {"equal priority: by name", 5'000, 4'000, {placed("b", 1'000), placed("a", 1'000), placed("c", 3'000)}, {"a"}},
      {"a big pod taken on the way comes back when a smaller one is enough", 5'000, 4'000,
       // low-1 (3 cores) is taken first and brings used to 2; it cannot come back; nothing else was taken.
       {placed("low-1", 3'000, 1), placed("low-2", 1'000, 2), placed("top", 1'000, 9)},
       {"low-1"}},
      {"several go, the most important of those taken comes back if it fits", 7'000, 4'000,
       {placed("p1", 1'000, 1), placed("p2", 2'000, 2), placed("p3", 1'000, 3), placed("p4", 3'000, 4)},
       // taken: p1 (6), p2 (4) -> fits; back: p2 (6) no, p1 (5) no.
       {"p2", "p1"}},
      {"taken in order until it fits, then given back from the top", 6'000, 4'000,
       {placed("p1", 500, 1), placed("p2", 2'000, 2), placed("p3", 3'500, 3)},
       // taken: p1 (5.5), p2 (3.5) -> fits; back: p2 (5.5) no, p1 (4) yes.
       {"p2"}},
      {"cannot be brought within: every pod goes", 9'000, 4'000, {placed("a", 1'000), placed("b", 1'000)}, {"a", "b"}},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      auto revoked = pods_to_revoke({{"cpu", c.used}}, {{"cpu", c.runtime}}, c.pods, Timestamp{});
      CHECK(names(revoked) == c.revoked);
    }
  }
}
