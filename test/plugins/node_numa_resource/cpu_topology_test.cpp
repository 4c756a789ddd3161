#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "plugins/node_numa_resource/cpu_topology.hpp"
#include "test/plugins/node_numa_resource/numa_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins::numa;
using namespace troupe::plugins::numa::testing;

namespace {

// Ids 0, 1, 4, 5 (a gap at 2-3), two cores on one socket, largest id 5.
std::vector<CpuInfo> gapped_cpus() { return {{5, 1, 0, 1}, {0, 0, 0, 0}, {4, 1, 0, 1}, {1, 0, 0, 0}}; }

}  // namespace

TEST_CASE("CpuTopology::find answers every id, listed or not", "[numa][topology]") {
  auto t = CpuTopology::from(gapped_cpus());
  REQUIRE(t);
  struct Case {
    int cpu;
    bool listed;
    int core;
    int node;
  };
  const std::vector<Case> cases = {
      {0, true, 0, 0},   {1, true, 0, 0},   {2, false, 0, 0},  {3, false, 0, 0},
      {4, true, 1, 1},   {5, true, 1, 1},   {6, false, 0, 0},  {63, false, 0, 0},
      {-1, false, 0, 0}, {CpuSet::kMaxCpus - 1, false, 0, 0}, {CpuSet::kMaxCpus, false, 0, 0},
      {1 << 30, false, 0, 0},
  };
  for (const Case& c : cases) {
    INFO("cpu " << c.cpu);
    const CpuInfo* found = t->find(c.cpu);
    REQUIRE((found != nullptr) == c.listed);
    CHECK(t->all_cpus().contains(c.cpu) == c.listed);
    if (!c.listed) continue;
    CHECK(found->cpu == c.cpu);
    CHECK(found->core == c.core);
    CHECK(found->node == c.node);
    CHECK(&t->info(c.cpu) == found);
  }
}

TEST_CASE("CpuTopology::find on topologies of different sizes", "[numa][topology]") {
  struct Case {
    const char* name;
    std::vector<CpuInfo> cpus;
    int largest;  // -1 for none
  };
  const std::vector<Case> cases = {
      {"empty", {}, -1},
      {"one cpu 0", {{0, 0, 0, 0}}, 0},
      {"one high cpu", {{200, 3, 0, 0}}, 200},
      {"largest possible id", {{0, 0, 0, 0}, {CpuSet::kMaxCpus - 1, 1, 0, 0}}, CpuSet::kMaxCpus - 1},
      {"2 sockets x 8 cores x 2 threads", ht_cpus(2, 1, 8), 31},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    auto t = CpuTopology::from(c.cpus);
    REQUIRE(t);
    CHECK(t->num_cpus() == static_cast<int>(c.cpus.size()));
    for (const CpuInfo& cpu : c.cpus) {
      REQUIRE(t->find(cpu.cpu) != nullptr);
      CHECK(t->find(cpu.cpu)->core == cpu.core);
    }
    CHECK(t->find(c.largest + 1) == nullptr);
    CHECK(t->find(-1) == nullptr);
    if (c.largest > 0 && !t->all_cpus().contains(c.largest - 1)) CHECK(t->find(c.largest - 1) == nullptr);
  }
}

TEST_CASE("CpuTopology::from rejects bad CPUs and names them", "[numa][topology]") {
  const std::vector<std::pair<std::vector<CpuInfo>, std::string>> cases = {
      {{{-1, 0, 0, 0}}, "cpu -1: id outside 0.."},
      {{{0, 0, 0, 0}, {CpuSet::kMaxCpus, 0, 0, 0}}, "cpu " + std::to_string(CpuSet::kMaxCpus) + ": id outside 0.."},
      {{{3, 0, 0, 0}, {3, 1, 0, 0}}, "cpu 3: listed twice"},
      {{{0, -1, 0, 0}}, "cpu 0: negative core or socket id"},
      {{{0, 0, -2, 0}}, "cpu 0: negative core or socket id"},
      {{{0, 0, 0, 64}}, "cpu 0: NUMA node 64 outside 0..63"},
  };
  for (const auto& [cpus, want] : cases) {
    INFO(want);
    auto t = CpuTopology::from(cpus);
    REQUIRE_FALSE(t);
    CHECK(t.message().rfind(want, 0) == 0);
  }
}
