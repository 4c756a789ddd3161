#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "plugins/node_numa_resource/cpu_topology_cache.hpp"
#include "plugins/node_numa_resource/topology_options.hpp"
#include "test/plugins/node_numa_resource/numa_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins::numa;
using namespace troupe::plugins::numa::testing;

TEST_CASE("CpuTopologyCache shares one topology per annotation text", "[numa][topology][cache]") {
  CpuTopologyCache cache;
  const std::string small = topology_annotation(ht_cpus(1, 1, 2));
  const std::string large = topology_annotation(ht_cpus(2, 1, 4));
  auto a = cache.get(small);
  auto b = cache.get(small);
  auto c = cache.get(large);
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(c);
  CHECK(a->get() == b->get());
  CHECK(a->get() != c->get());
  CHECK((*a)->num_cpus() == 4);
  CHECK((*c)->num_cpus() == 16);
  CHECK(cache.stored() == 2);
  CHECK(cache.in_use() == 2);
  // The same CPUs written differently (spacing) are another text: parsed again, still correct.
  std::string spaced = small;
  spaced.insert(1, " ");
  auto d = cache.get(spaced);
  REQUIRE(d);
  CHECK(d->get() != a->get());
  CHECK((*d)->num_cpus() == 4);
}

TEST_CASE("CpuTopologyCache reports parse errors and keeps nothing for them", "[numa][topology][cache]") {
  CpuTopologyCache cache;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{", "node.koordinator.sh/cpu-topology: invalid JSON"},
      {"[]", "node.koordinator.sh/cpu-topology: expected an object"},
      {R"({"detail":[{"id":0,"core":0,"socket":0,"node":0},{"id":0,"core":1,"socket":0,"node":0}]})",
       "node.koordinator.sh/cpu-topology: cpu 0: listed twice"},
      {R"({"detail":[{"id":-3,"core":0,"socket":0,"node":0}]})",
       "node.koordinator.sh/cpu-topology: detail[0]: id, core, socket or node out of range"},
  };
  for (const auto& [text, want] : cases) {
    INFO(text);
    for (int attempt = 0; attempt < 2; ++attempt) {
      auto t = cache.get(text);
      REQUIRE_FALSE(t);
      CHECK(t.message().rfind(want, 0) == 0);
    }
  }
  CHECK(cache.stored() == 0);
}

TEST_CASE("CpuTopologyCache frees a topology no caller holds and prunes its entry", "[numa][topology][cache]") {
  CpuTopologyCache cache;
  const std::string kept_text = topology_annotation(ht_cpus(1, 1, 1));
  auto kept = cache.get(kept_text);
  REQUIRE(kept);
  std::weak_ptr<const CpuTopology> released;
  {
    auto t = cache.get(topology_annotation(ht_cpus(1, 1, 2)));
    REQUIRE(t);
    released = *t;
  }
  CHECK(released.expired());
  CHECK(cache.in_use() == 1);
  // A released text asked again is parsed again, into the same entry.
  auto again = cache.get(topology_annotation(ht_cpus(1, 1, 2)));
  REQUIRE(again);
  CHECK((*again)->num_cpus() == 4);
  CHECK(cache.stored() == 2);
  again->reset();
  // Many short-lived texts: the stored entries stay bounded by about twice those in use.
  for (int cores = 3; cores < 100; ++cores) {
    auto t = cache.get(topology_annotation(ht_cpus(1, 1, cores)));
    REQUIRE(t);
    CHECK(cache.stored() <= 16);
  }
  CHECK(cache.in_use() == 1);
  auto same = cache.get(kept_text);
  REQUIRE(same);
  CHECK(same->get() == kept->get());
}

TEST_CASE("CpuTopologyCache gives every thread the same topology", "[numa][topology][cache]") {
  CpuTopologyCache cache;
  constexpr int kThreads = 8;
  constexpr int kTexts = 5;
  std::vector<std::string> texts;
  for (int i = 0; i < kTexts; ++i) texts.push_back(topology_annotation(ht_cpus(1, 1, i + 1)));
  std::vector<std::vector<std::shared_ptr<const CpuTopology>>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 50; ++round)
        for (int i = 0; i < kTexts; ++i) {
          auto r = cache.get(texts[(i + t) % kTexts]);
          if (round == 0) got[t].push_back(r ? *r : nullptr);
        }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    REQUIRE(got[t].size() == static_cast<size_t>(kTexts));
    for (int i = 0; i < kTexts; ++i) {
      const auto& mine = got[t][i];
      const auto& first = got[0][(i + t) % kTexts];
      REQUIRE(mine != nullptr);
      CHECK(mine == first);
      CHECK(mine->num_cores() == (i + t) % kTexts + 1);
    }
  }
  CHECK(cache.in_use() == static_cast<size_t>(kTexts));
}

TEST_CASE("Nodes whose NRTs carry the same cpu-topology share its parse", "[numa][topology][cache]") {
  const TopologyOptions a = build_topology_options(*make_nrt(2, 1, 4));
  const TopologyOptions b = build_topology_options(*make_nrt(2, 1, 4, "16Gi"));
  const TopologyOptions c = build_topology_options(*make_nrt(1, 1, 4));
  REQUIRE(a.valid_cpu_topology());
  REQUIRE(c.valid_cpu_topology());
  CHECK(a.cpu_topology == b.cpu_topology);
  CHECK(a.cpu_topology != c.cpu_topology);
  CHECK(b.numa_nodes.at(0).allocatable.at("memory").to_string() == "16Gi");
}
