#include <catch2/catch.hpp>

#include <functional>
#include <random>

#include "plugins/node_numa_resource/node_cpus.hpp"
#include "test/plugins/builders.hpp"
#include "test/plugins/node_numa_resource/numa_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::numa;
using namespace troupe::plugins::numa::testing;
using troupe::plugins::testing::NodeBuilder;

namespace {

constexpr CpuBindPolicy kPolicies[] = {CpuBindPolicy::full_pcpus, CpuBindPolicy::spread_by_pcpus,
                                       CpuBindPolicy::unset, CpuBindPolicy::constrained_burst};

/// What Filter computed per pod before NodeCpus kept the counts.
int recounted(const NodeCpus& cpus, CpuBindPolicy policy) {
  if (!cpus.options().valid_cpu_topology()) return 0;
  return count_for_required_policy(policy, cpus.available_cpus(cpus.node_reserved_cpus()),
                                   *cpus.options().cpu_topology);
}

void check_kept_counts(const NodeCpus& cpus) {
  for (CpuBindPolicy policy : kPolicies) {
    INFO("policy " << static_cast<int>(policy));
    CHECK(cpus.free_cpus_for_required_policy(policy) == recounted(cpus, policy));
  }
}

std::shared_ptr<const Node> node_reserving(const std::string& reserved_cpus) {
  Node node = NodeBuilder("n").allocatable({{"cpu", "16"}}).node();
  if (!reserved_cpus.empty())
    node.meta.annotations[kAnnotationNodeReservation] = R"({"reservedCPUs":")" + reserved_cpus + R"("})";
  return std::make_shared<const Node>(std::move(node));
}

PodAllocation holding(const std::string& cpus) {
  PodAllocation a;
  a.cpus = *CpuSet::parse(cpus);
  return a;
}

NodeCpus& cpus_of(NodeInfo& info) { return *info.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus); }

}  // namespace

TEST_CASE("NodeCpus keeps the free CPU counts of the required policies current", "[numa][free-counts]") {
  // 2 sockets x 1 NUMA node x 2 cores, 2 threads: core c = CPUs c and c + 4.
  struct Step {
    const char* what;
    std::function<void(NodeInfo&)> apply;
    int want_full, want_spread, want_any;
  };
  auto topology = [](std::map<std::string, std::string> annotations) {
    return [annotations](NodeInfo& n) { cpus_of(n).apply_topology(make_nrt(2, 1, 2, "8Gi", annotations)); };
  };
  auto add = [](std::string key, std::string cpus) {
    return [key, cpus](NodeInfo& n) { cpus_of(n).add_allocation(key, holding(cpus)); };
  };
  auto remove = [](std::string key) { return [key](NodeInfo& n) { cpus_of(n).remove_allocation(key); }; };
  auto node = [](std::string reserved) { return [reserved](NodeInfo& n) { n.set_node(node_reserving(reserved)); }; };
  const std::vector<Step> steps = {
      {"no topology", [](NodeInfo&) {}, 0, 0, 0},
      {"an allocation without topology", add("a", "0"), 0, 0, 0},
      {"topology arrives", topology({}), 6, 4, 7},  // CPU 0 held: core 0 half free
      {"a goes", remove("a"), 8, 4, 8},
      {"one full core held", add("b", "1,5"), 6, 3, 6},
      {"half of another core", add("c", "2"), 4, 3, 5},
      {"the node reserves CPU 3", node("3"), 2, 3, 4},
      {"a stale pod holds a CPU already held", add("d", "2,6"), 2, 2, 3},
      {"c goes, d still holds 2", remove("c"), 2, 2, 3},
      {"the node's reservation goes", node(""), 4, 2, 4},
      {"kubelet reserves CPU 0", topology({{kAnnotationKubeletCpuManagerPolicy, R"({"policy":"static","reservedCPUs":"0"})"}}),
       2, 2, 3},
      {"a NUMA-only allocation changes nothing", [](NodeInfo& n) {
         PodAllocation a;
         a.numa_resources.push_back({0, {{"memory", *Quantity::parse("1Gi")}}});
         cpus_of(n).add_allocation("e", a);
       }, 2, 2, 3},
      {"topology deleted", [](NodeInfo& n) { cpus_of(n).clear_topology(); }, 0, 0, 0},
  };
  NodeInfo info;
  info.set_extension(NodeExtensionSlot::kCpus, std::make_unique<NodeCpus>());
  for (const Step& step : steps) {
    INFO(step.what);
    step.apply(info);
    const NodeCpus& cpus = *info.extension<NodeCpus>(NodeExtensionSlot::kCpus);
    CHECK(cpus.free_cpus_for_required_policy(CpuBindPolicy::full_pcpus) == step.want_full);
    CHECK(cpus.free_cpus_for_required_policy(CpuBindPolicy::spread_by_pcpus) == step.want_spread);
    CHECK(cpus.free_cpus_for_required_policy(CpuBindPolicy::unset) == step.want_any);
    check_kept_counts(cpus);
    NodeInfo copy(info);  // simulations copy the node: the copy keeps the counts
    check_kept_counts(*copy.extension<NodeCpus>(NodeExtensionSlot::kCpus));
  }
}

TEST_CASE("kept free CPU counts equal a recount after random changes", "[numa][free-counts][property]") {
  std::mt19937 rng(11);
  NodeInfo info(node_reserving(""));
  info.set_extension(NodeExtensionSlot::kCpus, std::make_unique<NodeCpus>());
  cpus_of(info).apply_topology(make_nrt(2, 2, 4));  // 32 CPUs
  std::vector<std::string> held;
  for (int step = 0; step < 500; ++step) {
    const unsigned what = rng() % 10;
    if (what == 0) {
      info.set_node(node_reserving(rng() % 2 ? std::to_string(rng() % 32) : ""));
    } else if (what < 4 && !held.empty()) {
      const size_t i = rng() % held.size();
      REQUIRE(cpus_of(info).remove_allocation(held[i]));
      held.erase(held.begin() + static_cast<long>(i));
    } else {
      // Random CPUs, possibly overlapping earlier holders (stale annotations).
      PodAllocation a;
      for (int k = 0, n = 1 + static_cast<int>(rng() % 4); k < n; ++k) a.cpus.insert(static_cast<int>(rng() % 32));
      const std::string key = "p" + std::to_string(step);
      REQUIRE(cpus_of(info).add_allocation(key, a));
      held.push_back(key);
    }
    INFO("step " << step);
    check_kept_counts(*info.extension<NodeCpus>(NodeExtensionSlot::kCpus));
  }
}
