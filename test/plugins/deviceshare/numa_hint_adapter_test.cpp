#include <catch2/catch.hpp>

#include <optional>

#include "plugins/deviceshare/device_allocated.hpp"
#include "plugins/deviceshare/numa_hint_adapter.hpp"
#include "plugins/registry.hpp"
#include "plugins/reservation/node_reservations.hpp"
#include "plugins/reservation/reserve_pod.hpp"
#include "test/plugins/builders.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"
#include "test/plugins/deviceshare/gpu_numa_node.hpp"
#include "test/plugins/reservation/reservation_test_support.hpp"

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

namespace {

/// The device-allocated annotation of whole GPUs `minors` (canonical 80Gi cards).
std::string whole_gpus_allocated(const std::vector<int32_t>& minors) {
  DeviceAllocations out;
  for (int32_t m : minors)
    out["gpu"].push_back(DeviceAllocation{m,
                                          list({{"koordinator.sh/gpu-core", "100"},
                                                {"koordinator.sh/gpu-memory", "80Gi"},
                                                {"koordinator.sh/gpu-memory-ratio", "100"}}),
                                          "GPU-" + std::to_string(m),
                                          std::nullopt});
  return encode_device_allocations(out);
}

}  // namespace

// RestoreReservation in the NUMA hints: NodeNUMAResource asks DeviceShare where
// a pod's devices can sit, and DeviceShare must answer with the devices its own
// Filter lets the pod take. Node: 8 GPUs (0-3 on NUMA 0, 4-7 on NUMA 1); the
// Available reservation `train-gpus` (owners app=train) holds GPUs 2 and 3 (NUMA
// 0) through its reserve pod's device-allocated annotation; pod `others` holds
// all the remaining GPUs. A 2-GPU owner gets the reservation's cards back: a
// hint for NUMA 0 only, and a trial allocation within NUMA 0 succeeds — on the
// node's own devices (the reservation's cards taken) there is none. A pod the
// reservation does not admit still sees the node full.
TEST_CASE("NUMA hints and trial allocation see the devices of the reservations the pod may use",
          "[deviceshare][numa][reservation]") {
  using reservation::make_reserve_pod_info;
  using reservation::NodeReservations;
  using reservation::testing::ReservationBuilder;
  const std::string policy = GENERATE(std::string(), std::string("Restricted"));
  INFO("allocatePolicy \"" << policy << "\"");

  auto built = DeviceShare::make(YAML::Node());
  REQUIRE(built);
  const auto* plugin = dynamic_cast<const DeviceShare*>(built->get());
  DeviceShareNumaHints adapter;
  adapter.attach(plugin);

  NodeInfo node = gpu_numa_node("");
  ReservationBuilder train("train-gpus", {{"cpu", "4"}, {"memory", "8Gi"}, {"nvidia.com/gpu", "2"}});
  ReservationOwner trainers;
  trainers.label_selector = *parse_label_selector("app=train");
  train.owners({trainers}).policy(policy);
  train.get().status.node_name = "node-1";
  train.get().meta.annotations[std::string(kAnnotationDeviceAllocated)] = whole_gpus_allocated({2, 3});
  REQUIRE(node.add_pod(make_reserve_pod_info(*train.ptr())));
  REQUIRE(node.mutable_extension<NodeReservations>(NodeExtensionSlot::kReservations)->apply_reservation(train.ptr()));
  REQUIRE(node.add_pod(PodSpecBuilder("others")
                           .annotation(std::string(kAnnotationDeviceAllocated), whole_gpus_allocated({0, 1, 4, 5, 6, 7}))
                           .info()));
  const NodeDevices* own = node.extension<NodeDevices>(NodeExtensionSlot::kDevices);
  REQUIRE(own->has_pod("ruid-train-gpus"));  // the reserve pod's GPUs are accounted on the node

  struct Case {
    const char* what;
    const char* app;
    bool hinted;  // a hint for NUMA node 0 (and none for NUMA node 1 alone)
  };
  const std::vector<Case> cases = {
      {"an owner: the reservation's GPUs 2 and 3, on NUMA node 0", "train", true},
      {"not an owner: the node is full", "batch", false},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto pod = PodSpecBuilder(std::string("pod-") + c.app).requests({{"nvidia.com/gpu", "2"}}).label("app", c.app).info();
    CycleState state(8);
    PreFilterResult result;
    REQUIRE(plugin->pre_filter(state, *pod, result).ok());

    // Without the reservation's devices given back, no NUMA node can hold the pod.
    NumaHints plain;
    CHECK_FALSE(plugin->numa_hints(state, node.node(), own, plain).ok());
    CHECK(plain.empty());

    topology::NumaHints hints;
    const PluginStatus status = adapter.numa_hints(state, *pod, node, hints);
    const topology::NumaHint numa0{0b01, true, 0, false}, numa1{0b10, true, 0, false}, both{0b11, true, 0, false};
    if (c.hinted) {
      REQUIRE(status.ok());
      REQUIRE(hints.count("gpu") == 1);
      REQUIRE_FALSE(hints["gpu"].empty());
      CHECK(hints["gpu"][0].numa_nodes == 0b01);
      CHECK(hints["gpu"][0].preferred);
      for (const auto& h : hints["gpu"]) CHECK((h.numa_nodes & 0b01) != 0);
      CHECK(adapter.try_allocate(state, *pod, node, numa0).ok());
      CHECK(adapter.try_allocate(state, *pod, node, both).ok());
      CHECK_FALSE(adapter.try_allocate(state, *pod, node, numa1).ok());
    } else {
      CHECK_FALSE(status.ok());
      CHECK(hints.empty());
      CHECK_FALSE(adapter.try_allocate(state, *pod, node, numa0).ok());
      CHECK_FALSE(adapter.try_allocate(state, *pod, node, both).ok());
    }
  }
}
