#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "plugins/node_numa_resource/node_cpus.hpp"
#include "plugins/node_numa_resource/shared_topology_options.hpp"
#include "test/plugins/node_numa_resource/numa_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins::numa;
using namespace troupe::plugins::numa::testing;

TEST_CASE("NRTs that differ only in their names share one TopologyOptions", "[numa][topology][shared]") {
  struct Case {
    std::string name;
    void (*change)(NodeResourceTopology&);
    bool shared;
  };
  const std::vector<Case> cases = {
      {"another node's name and uid",
       [](NodeResourceTopology& n) {
         n.meta.name = "other";
         n.meta.uid = "uid-other";
       },
       true},
      {"an annotation", [](NodeResourceTopology& n) { n.meta.annotations["node.koordinator.sh/reservation"] = "{}"; }, false},
      {"a topology policy", [](NodeResourceTopology& n) { n.topology_policies = {"SingleNUMANodePodLevel"}; }, false},
      {"a zone's allocatable", [](NodeResourceTopology& n) { n.zones[1].resources[1].allocatable = *Quantity::parse("4Gi"); }, false},
      {"a zone's name", [](NodeResourceTopology& n) { n.zones[1].name = "node-7"; }, false},
      {"kubelet's pod CPU allocations",
       [](NodeResourceTopology& n) {
         n.meta.annotations["node.koordinator.sh/pod-cpu-allocs"] = R"([{"namespace":"a","name":"b","uid":"u","cpuset":"2"}])";
       },
       false},
      {"the cpu-topology text", [](NodeResourceTopology& n) { n.meta.annotations["node.koordinator.sh/cpu-topology"] = "{"; },
       false},
      // What build_topology_options does not read keeps nodes together: koordlet
      // writes cpu-shared-pools per node, and zone costs or capacity change nothing.
      {"koordlet's cpu-shared-pools",
       [](NodeResourceTopology& n) { n.meta.annotations["node.koordinator.sh/cpu-shared-pools"] = R"([{"socket":0}])"; },
       true},
      {"a zone's capacity", [](NodeResourceTopology& n) { n.zones[1].resources[1].capacity = *Quantity::parse("9Gi"); }, true},
      {"a zone's available", [](NodeResourceTopology& n) { n.zones[1].resources[1].available = *Quantity::parse("1Gi"); }, true},
  };
  const auto base = make_nrt(2, 1, 4);
  const auto shared_base = shared_topology_options(*base);
  for (const auto& c : cases) {
    INFO(c.name);
    NodeResourceTopology other = *base;
    c.change(other);
    CHECK((topology_options_key(other) == topology_options_key(*base)) == c.shared);
    CHECK((shared_topology_options(other) == shared_base) == c.shared);
  }
}

TEST_CASE("NodeCpus reads the shared options as build_topology_options gives them", "[numa][topology][shared]") {
  const auto nrt = make_nrt(2, 1, 4, "16Gi", {{"kubelet.koordinator.sh/cpu-manager-policy", R"({"policy":"static","reservedCPUs":"0-1"})"}},
                            {"BestEffort"});
  const TopologyOptions built = build_topology_options(*nrt);
  NodeCpus a, b;
  a.apply_topology(nrt);
  b.apply_topology(nrt);
  CHECK(&a.options() == &b.options());  // one copy for both nodes
  CHECK(a.options().reserved_cpus == built.reserved_cpus);
  CHECK(a.options().numa_policy == built.numa_policy);
  CHECK(a.options().numa_node_ids() == built.numa_node_ids());
  REQUIRE(a.options().allocatable_of(0) != nullptr);
  CHECK(*a.options().allocatable_of(0) == *built.allocatable_of(0));
  CHECK(a.options().cpu_topology == built.cpu_topology);
  a.clear_topology();
  CHECK_FALSE(a.options().valid_cpu_topology());
  CHECK(a.options().numa_nodes.empty());
  CHECK(b.options().valid_cpu_topology());
}
