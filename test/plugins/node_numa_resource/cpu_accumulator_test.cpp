#include <catch2/catch.hpp>

#include "plugins/node_numa_resource/cpu_accumulator.hpp"
#include "test/plugins/node_numa_resource/numa_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins::numa;
using namespace troupe::plugins::numa::testing;

namespace {

struct TakeCase {
  const char* name;
  int sockets, nodes_per_socket, cores_per_node;
  CpuSet taken;               // held by other pods (not available)
  CpuExclusivePolicy holder;  // their exclusive policy
  int needed;
  CpuBindPolicy bind;
  CpuExclusivePolicy exclusive;
  NumaAllocateStrategy strategy;
  std::string want;  // cpulist, or the error message
};

const auto kLeast = NumaAllocateStrategy::least_allocated;
const auto kMost = NumaAllocateStrategy::most_allocated;
const auto kFull = CpuBindPolicy::full_pcpus;
const auto kSpread = CpuBindPolicy::spread_by_pcpus;
const auto kNone = CpuExclusivePolicy::none;
const auto kPcpu = CpuExclusivePolicy::pcpu_level;
const auto kNuma = CpuExclusivePolicy::numa_node_level;

}  // namespace

// Expected sets are worked out from Koordinator's takeCPUs order (see the
// header): 1 NUMA = cores 0-3, siblings c/c+4; 2 NUMA (2 sockets) = cores
// 0-1 on node 0, 2-3 on node 1, siblings c/c+4; 4 NUMA = cores 0-7, two per
// node, sockets of two nodes, siblings c/c+8.
TEST_CASE("takeCPUs picks Koordinator's CPUs", "[numa][accumulator]") {
  const std::vector<TakeCase> cases = {
      {"1 NUMA full cores", 1, 1, 4, {}, kNone, 2, kFull, kNone, kLeast, "0,4"},
      {"1 NUMA two full cores", 1, 1, 4, {}, kNone, 4, kFull, kNone, kLeast, "0-1,4-5"},
      {"1 NUMA full skips a half-used core", 1, 1, 4, {0}, kNone, 2, kFull, kNone, kLeast, "1,5"},
      {"1 NUMA spread one per core", 1, 1, 4, {}, kNone, 2, kSpread, kNone, kLeast, "0-1"},
      {"1 NUMA spread needing siblings", 1, 1, 4, {}, kNone, 6, kSpread, kNone, kLeast, "0-5"},
      {"1 NUMA spread around held CPUs", 1, 1, 4, {0, 1}, kNone, 3, kSpread, kNone, kLeast, "2-4"},
      {"1 NUMA too many", 1, 1, 4, {}, kNone, 9, kFull, kNone, kLeast, kErrNotEnoughCpus},
      {"1 NUMA nothing needed", 1, 1, 4, {}, kNone, 0, kFull, kNone, kLeast, ""},
      {"1 NUMA all of it", 1, 1, 4, {}, kNone, 8, kSpread, kNone, kLeast, "0-7"},
      {"1 NUMA PCPULevel avoids held cores' siblings", 1, 1, 4, {0, 1}, kPcpu, 2, kSpread, kPcpu, kLeast, "2-3"},
      {"1 NUMA PCPULevel falls back to siblings", 1, 1, 4, {0, 1, 2, 3}, kPcpu, 2, kSpread, kPcpu, kLeast, "4-5"},
      {"2 NUMA least allocated: first node on a tie", 2, 1, 2, {}, kNone, 2, kFull, kNone, kLeast, "0,4"},
      {"2 NUMA least allocated: freer node", 2, 1, 2, {0}, kNone, 2, kFull, kNone, kLeast, "2,6"},
      {"2 NUMA most allocated: fuller node", 2, 1, 2, {0}, kNone, 2, kFull, kNone, kMost, "1,5"},
      {"2 NUMA distribute evenly orders as least", 2, 1, 2, {0}, kNone, 2, kFull, kNone,
       NumaAllocateStrategy::distribute_evenly, "2,6"},
      {"2 NUMA NUMANodeLevel avoids a held node", 2, 1, 2, {0}, kNuma, 2, kFull, kNuma, kMost, "2,6"},
      {"2 NUMA exclusive None ignores a held node", 2, 1, 2, {0}, kNuma, 2, kFull, kNone, kMost, "1,5"},
      {"2 NUMA whole socket then a core", 2, 1, 2, {}, kNone, 6, kFull, kNone, kLeast, "0-2,4-6"},
      {"2 NUMA spread within a node", 2, 1, 2, {}, kNone, 2, kSpread, kNone, kLeast, "0-1"},
      {"2 NUMA spread prefers the freer node", 2, 1, 2, {0}, kNone, 2, kSpread, kNone, kLeast, "2-3"},
      {"2 NUMA spread across nodes", 2, 1, 2, {}, kNone, 6, kSpread, kNone, kLeast, "0-5"},
      {"4 NUMA full cores in node 0", 2, 2, 2, {}, kNone, 4, kFull, kNone, kLeast, "0-1,8-9"},
      {"4 NUMA most allocated: the socket with fewer free", 2, 2, 2, {0}, kNone, 4, kFull, kNone, kMost, "2-3,10-11"},
      {"4 NUMA least allocated: the socket with more free", 2, 2, 2, {0}, kNone, 4, kFull, kNone, kLeast, "4-5,12-13"},
      {"4 NUMA a socket's worth", 2, 2, 2, {}, kNone, 8, kFull, kNone, kLeast, "0-3,8-11"},
      {"4 NUMA spread one node", 2, 2, 2, {}, kNone, 2, kSpread, kNone, kLeast, "0-1"},
  };
  for (const TakeCase& c : cases) {
    SECTION(c.name) {
      CpuTopology t = ht_topology(c.sockets, c.nodes_per_socket, c.cores_per_node);
      AllocatedCpus allocated;
      for (int cpu : c.taken) allocated.add(cpu, c.holder);
      auto got = take_cpus(t, t.all_cpus() - c.taken, allocated, c.needed, c.bind, c.exclusive, c.strategy);
      if (got) {
        CHECK(got->to_string() == c.want);
      } else {
        CHECK(got.message() == c.want);
      }
    }
  }
}

TEST_CASE("required bind policies filter and check CPUs", "[numa][accumulator]") {
  CpuTopology t = ht_topology(1, 1, 4);
  const CpuSet available = t.all_cpus() - CpuSet{0, 5};
  CHECK(filter_by_required_policy(kFull, available, t).to_string() == "2-3,6-7");
  CHECK(filter_by_required_policy(kSpread, available, t).to_string() == "1-4");
  CHECK(filter_by_required_policy(CpuBindPolicy::unset, available, t) == available);
  CHECK(check_required_policy(kFull, CpuSet{0, 4}, t).ok());
  CHECK(check_required_policy(kFull, CpuSet{0, 1}, t).message() ==
        "insufficient CPUs to satisfy required cpu bind policy FullPCPUs");
  CHECK(check_required_policy(kSpread, CpuSet{0, 1}, t).ok());
  CHECK(check_required_policy(kSpread, CpuSet{0, 4}, t).message() ==
        "insufficient CPUs to satisfy required cpu bind policy SpreadByPCPUs");
  auto preferred = take_preferred_cpus(t, t.all_cpus(), CpuSet{3, 7}, {}, 4, kFull, kNone, kLeast);
  REQUIRE(preferred);
  CHECK(preferred->to_string() == "0,3-4,7");
}

TEST_CASE("takeCPUs without hyper-threading", "[numa][accumulator]") {
  CpuTopology t = ht_topology(2, 1, 2, 1);  // cpus 0-3, one per core, nodes {0,1} {2,3}
  auto got = take_cpus(t, t.all_cpus() - CpuSet{0}, {}, 2, kSpread, kNone, kLeast);
  REQUIRE(got);
  CHECK(got->to_string() == "2-3");
}
