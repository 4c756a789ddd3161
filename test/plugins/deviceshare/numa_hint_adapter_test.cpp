#include <catch2/catch.hpp>

#include <optional>

#include "plugins/deviceshare/numa_hint_adapter.hpp"
#include "plugins/registry.hpp"
#include "test/plugins/builders.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"
#include "test/plugins/deviceshare/gpu_numa_node.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

TEST_CASE("DeviceShare NUMA hints convert field by field", "[deviceshare][numa]") {
  struct Case {
    const char* name;
    NumaHints in;
    topology::NumaHints want;
  };
  const std::vector<Case> cases = {
      {"no preference", {}, {}},
      {"a type without any hint", {{"gpu", {}}}, {{"gpu", {}}}},
      {"one preferred hint", {{"gpu", {{0b10, true, 500}}}}, {{"gpu", {{0b10, true, 500, false}}}}},
      {"several types and hints, order kept",
       {{"gpu", {{0b01, true, 500}, {0b10, true, 0}, {0b11, false, 0}}}, {"rdma", {{0b11, true, 0}}}},
       {{"gpu", {{0b01, true, 500, false}, {0b10, true, 0, false}, {0b11, false, 0, false}}},
        {"rdma", {{0b11, true, 0, false}}}}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(to_topology_hints(c.in) == c.want);
  }
}

namespace {

// Kubelet keeps all of NUMA node 0's CPUs: only NUMA node 1 can hold an LSR pod.
NodeInfo aligned_node() { return gpu_numa_node("0-3,8-11"); }

std::shared_ptr<const PodInfo> gpu_lsr_pod() {
  Pod pod = PodSpecBuilder("train")
                .requests({{"cpu", "2"}, {"memory", "1Gi"}, {"nvidia.com/gpu", "2"}})
                .label("koordinator.sh/qosClass", "LSR")
                .pod();
  pod.spec.priority = 9500;
  return PodInfo::make(std::move(pod));
}

}  // namespace

TEST_CASE("an unattached adapter has no preference and accepts any affinity", "[deviceshare][numa]") {
  DeviceShareNumaHints adapter;
  NodeInfo node = aligned_node();
  auto pod = gpu_lsr_pod();
  CycleState state;
  topology::NumaHints hints{{"stale", {}}};
  CHECK(adapter.numa_hints(state, *pod, node, hints).ok());
  CHECK(hints.empty());
  CHECK(adapter.try_allocate(state, *pod, node, topology::NumaHint{0b01, true, 0, false}).ok());
}

TEST_CASE("the adapter answers for its DeviceShare: hints per NUMA node, trial within the affinity",
          "[deviceshare][numa]") {
  auto built = DeviceShare::make(YAML::Node());
  REQUIRE(built);
  const auto* plugin = dynamic_cast<const DeviceShare*>(built->get());
  DeviceShareNumaHints adapter;
  adapter.attach(plugin);
  NodeInfo node = aligned_node();
  Pod five = PodSpecBuilder("five").requests({{"nvidia.com/gpu", "5"}}).pod();
  auto pod = PodInfo::make(five);
  CycleState state(8);
  PreFilterResult result;
  REQUIRE(plugin->pre_filter(state, *pod, result).ok());
  topology::NumaHints hints;
  REQUIRE(adapter.numa_hints(state, *pod, node, hints).ok());
  // 5 GPUs need both NUMA nodes.
  REQUIRE(hints.count("gpu") == 1);
  REQUIRE(hints["gpu"].size() == 1);
  CHECK(hints["gpu"][0].numa_nodes == 0b11);
  CHECK(adapter.try_allocate(state, *pod, node, topology::NumaHint{0b11, true, 0, false}).ok());
  CHECK(adapter.try_allocate(state, *pod, node, topology::NumaHint{0, true, 0, false}).ok());
  CHECK_FALSE(adapter.try_allocate(state, *pod, node, topology::NumaHint{0b10, true, 0, false}).ok());
}

TEST_CASE("make_frameworks wires NodeNUMAResource and DeviceShare: GPUs follow the CPUs' NUMA node",
          "[deviceshare][numa][registry]") {
  auto config = parse_scheduler_configuration("apiVersion: kubescheduler.config.k8s.io/v1\n"
                                              "kind: KubeSchedulerConfiguration\n");
  REQUIRE(config);
  auto frameworks = make_frameworks(*config);
  REQUIRE(frameworks);
  const Framework& fw = (*frameworks)[0];
  NodeInfo node = aligned_node();
  auto pod = gpu_lsr_pod();
  auto state = fw.new_cycle_state();
  REQUIRE(fw.run_pre_filter(*state, *pod).ok());
  REQUIRE(fw.run_filter(*state, *pod, node).ok());
  REQUIRE(fw.run_reserve(*state, pod, node).ok());
  BindingChanges changes;
  REQUIRE(fw.run_pre_bind(*state, *pod, "node-1", changes).ok());
  // NUMA node 1's CPUs (4-7, siblings 12-15): the first whole core; the GPUs
  // come from NUMA node 1 too, though LeastAllocated alone would take 0 and 1.
  CHECK(changes.annotations.at("scheduling.koordinator.sh/resource-status") ==
        R"({"cpuset":"4,12","numaNodeResources":[{"node":1,"resources":{"cpu":"2","memory":"1Gi"}}]})");
  const std::string allocated = changes.annotations.at("scheduling.koordinator.sh/device-allocated");
  CHECK(allocated.find("\"minor\":4") != std::string::npos);
  CHECK(allocated.find("\"minor\":5") != std::string::npos);

  SECTION("without NodeNUMAResource DeviceShare has no affinity to follow") {
    auto plain = parse_scheduler_configuration(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
        "- schedulerName: p\n  plugins:\n    multiPoint:\n      disabled:\n      - name: NodeNUMAResource\n");
    REQUIRE(plain);
    auto plain_frameworks = make_frameworks(*plain);
    REQUIRE(plain_frameworks);
    const Framework& pf = (*plain_frameworks)[0];
    NodeInfo other = aligned_node();
    auto s = pf.new_cycle_state();
    REQUIRE(pf.run_pre_filter(*s, *pod).ok());
    REQUIRE(pf.run_reserve(*s, pod, other).ok());
    BindingChanges c;
    REQUIRE(pf.run_pre_bind(*s, *pod, "node-1", c).ok());
    CHECK(c.annotations.count("scheduling.koordinator.sh/resource-status") == 0);
    const std::string minors = c.annotations.at("scheduling.koordinator.sh/device-allocated");
    CHECK(minors.find("\"minor\":0") != std::string::npos);
  }
}
