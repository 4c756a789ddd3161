#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "plugins/node_numa_resource/allocated_cpus.hpp"

using namespace troupe::plugins::numa;

namespace {

constexpr auto kPcpu = CpuExclusivePolicy::pcpu_level;
constexpr auto kNuma = CpuExclusivePolicy::numa_node_level;
constexpr auto kUnset = CpuExclusivePolicy::unset;

struct Step {
  bool add;
  int cpu;
  CpuExclusivePolicy policy;  // for add
  bool want_removed;          // for remove
};

// What for_each reports, as (cpu, policy) pairs.
std::vector<std::pair<int, CpuExclusivePolicy>> listed(const AllocatedCpus& a) {
  std::vector<std::pair<int, CpuExclusivePolicy>> out;
  a.for_each([&out](int cpu, CpuExclusivePolicy p) { out.emplace_back(cpu, p); });
  return out;
}

}  // namespace

TEST_CASE("AllocatedCpus counts holders and keeps the first holder's policy", "[numa][allocated]") {
  struct Case {
    const char* name;
    std::vector<Step> steps;
    std::vector<std::pair<int, CpuExclusivePolicy>> want;  // held CPUs with policies, ascending
    std::vector<std::pair<int, int>> want_holders;         // cpu -> holders, including unheld ids
  };
  const std::vector<Case> cases = {
      {"nothing held", {}, {}, {{0, 0}, {-1, 0}, {1023, 0}, {5000, 0}}},
      {"one CPU", {{true, 3, kPcpu, false}}, {{3, kPcpu}}, {{3, 1}, {2, 0}, {4, 0}}},
      {"added out of order", {{true, 9, kNuma, false}, {true, 1, kUnset, false}}, {{1, kUnset}, {9, kNuma}}, {{1, 1}, {9, 1}}},
      {"second holder keeps the first policy",
       {{true, 2, kPcpu, false}, {true, 2, kNuma, false}},
       {{2, kPcpu}},
       {{2, 2}}},
      {"one of two holders leaves",
       {{true, 2, kPcpu, false}, {true, 2, kNuma, false}, {false, 2, kUnset, true}},
       {{2, kPcpu}},
       {{2, 1}}},
      {"last holder leaves", {{true, 2, kPcpu, false}, {false, 2, kUnset, true}}, {}, {{2, 0}}},
      {"removing an unheld CPU changes nothing",
       {{true, 2, kPcpu, false}, {false, 5, kUnset, false}, {false, 1, kUnset, false}, {false, -1, kUnset, false}},
       {{2, kPcpu}},
       {{2, 1}, {5, 0}}},
      {"a released CPU takes the next holder's policy",
       {{true, 4, kPcpu, false}, {false, 4, kUnset, true}, {true, 4, kNuma, false}},
       {{4, kNuma}},
       {{4, 1}}},
      {"the largest id", {{true, 1023, kNuma, false}}, {{1023, kNuma}}, {{1023, 1}, {1022, 0}}},
      {"a negative id is ignored", {{true, -1, kPcpu, false}}, {}, {{-1, 0}}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    AllocatedCpus a;
    for (const Step& s : c.steps) {
      if (s.add)
        a.add(s.cpu, s.policy);
      else
        CHECK(a.remove(s.cpu) == s.want_removed);
    }
    CHECK(listed(a) == c.want);
    CHECK(a.size() == static_cast<int>(c.want.size()));
    CHECK(a.empty() == c.want.empty());
    for (const auto& [cpu, policy] : c.want) {
      CHECK(a.contains(cpu));
      CHECK(a.policy(cpu) == policy);
    }
    for (const auto& [cpu, holders] : c.want_holders) {
      CHECK(a.holders(cpu) == holders);
      if (holders == 0) CHECK(a.policy(cpu) == kUnset);
    }
  }
}

TEST_CASE("AllocatedCpus compares by what is held", "[numa][allocated]") {
  AllocatedCpus a, b;
  CHECK(a == b);
  a.add(1, kPcpu);
  CHECK(a != b);
  b.add(1, kNuma);
  CHECK(a != b);  // same CPU, other policy
  b.remove(1);
  b.add(1, kPcpu);
  CHECK(a == b);
  a.add(1, kPcpu);
  CHECK(a != b);  // two holders against one
  a.remove(1);
  // Holding and releasing a high CPU leaves no trace.
  a.add(40, kNuma);
  a.remove(40);
  CHECK(a == b);
  a.remove(1);
  CHECK(a == AllocatedCpus{});
  CHECK(a.empty());
}
