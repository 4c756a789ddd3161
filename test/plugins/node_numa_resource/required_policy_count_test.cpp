#include <catch2/catch.hpp>

#include <random>

#include "plugins/node_numa_resource/cpu_accumulator.hpp"
#include "test/plugins/node_numa_resource/numa_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins::numa;
using namespace troupe::plugins::numa::testing;

namespace {

CpuSet cpus(std::initializer_list<int> ids) {
  CpuSet out;
  for (int id : ids) out.insert(id);
  return out;
}

}  // namespace

TEST_CASE("count_for_required_policy counts what the required policy may use", "[numa][accumulator]") {
  // 1 socket, 1 NUMA node, 4 cores: core c = CPUs c and c + 4.
  const CpuTopology t = ht_topology(1, 1, 4);
  struct Case {
    const char* name;
    CpuBindPolicy policy;
    CpuSet available;
    int want;
  };
  const std::vector<Case> cases = {
      {"FullPCPUs: every core free", CpuBindPolicy::full_pcpus, t.all_cpus(), 8},
      {"FullPCPUs: half-free cores do not count", CpuBindPolicy::full_pcpus, cpus({0, 1, 5, 2, 6}), 4},
      {"FullPCPUs: nothing free", CpuBindPolicy::full_pcpus, {}, 0},
      {"SpreadByPCPUs: one per core with a free CPU", CpuBindPolicy::spread_by_pcpus, cpus({0, 4, 1, 6}), 3},
      {"SpreadByPCPUs: every core", CpuBindPolicy::spread_by_pcpus, t.all_cpus(), 4},
      {"no binding policy: every topology CPU", CpuBindPolicy::unset, cpus({0, 1, 900}), 2},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(count_for_required_policy(c.policy, c.available, t) == c.want);
  }
}

TEST_CASE("with a required policy takeCPUs succeeds exactly when enough CPUs qualify", "[numa][accumulator]") {
  // The premise of Filter's shortcut: on random free sets, the count equals
  // the filtered set and every request it admits is allocated and passes
  // the policy check; every request above it fails.
  std::mt19937 rng(5);
  for (const auto& [sockets, nodes, cores] : {std::tuple{1, 1, 8}, std::tuple{2, 1, 4}, std::tuple{2, 2, 4}}) {
    const CpuTopology t = ht_topology(sockets, nodes, cores);
    for (int round = 0; round < 200; ++round) {
      CpuSet available;
      for (int cpu : t.all_cpus())
        if (rng() % 3 != 0) available.insert(cpu);
      for (CpuBindPolicy policy : {CpuBindPolicy::full_pcpus, CpuBindPolicy::spread_by_pcpus}) {
        const CpuSet usable = filter_by_required_policy(policy, available, t);
        const int count = count_for_required_policy(policy, available, t);
        REQUIRE(count == static_cast<int>(usable.size()));
        const int step = policy == CpuBindPolicy::full_pcpus ? t.cpus_per_core() : 1;
        for (int n = step; n <= t.num_cpus(); n += step) {
          auto taken = take_cpus(t, usable, {}, n, policy, CpuExclusivePolicy::unset, NumaAllocateStrategy::least_allocated);
          INFO("policy " << to_string(policy) << ", n " << n << ", usable " << usable.to_string());
          if (n > count) {
            CHECK_FALSE(taken);
            continue;
          }
          REQUIRE(taken);
          CHECK(static_cast<int>(taken->size()) == n);
          CHECK(check_required_policy(policy, *taken, t));
        }
      }
    }
  }
}
