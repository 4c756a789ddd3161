#include <catch2/catch.hpp>

#include "plugins/deviceshare/deviceshare_args.hpp"
#include "plugins/deviceshare/gpu_allocator.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

Pod gpus(int n, const std::string& scope = "") {
  PodSpecBuilder b("whole");
  b.requests({{"nvidia.com/gpu", std::to_string(n)}});
  if (!scope.empty())
    b.annotation("scheduling.koordinator.sh/device-allocate-hint", R"({"gpu":{"requiredTopologyScope":")" + scope + "\"}}");
  return b.pod();
}

Pod share(const std::string& percent, const std::string& name = "shared") {
  return PodSpecBuilder(name).requests({{"koordinator.sh/gpu", percent}}).pod();
}

// The canonical node with some GPUs half used by shared pods.
NodeDevices node_with_half_used(std::vector<int32_t> minors, std::vector<DeviceInfo> infos = canonical_infos()) {
  NodeDevices n;
  n.apply_device(device(std::move(infos)));
  for (int32_t m : minors) {
    PodDevices d;
    AccountedDevice a;
    a.minor = m;
    a.amounts = DeviceAmounts::from_list(list({{"koordinator.sh/gpu-core", "50"},
                                               {"koordinator.sh/gpu-memory-ratio", "50"},
                                               {"koordinator.sh/gpu-memory", "40Gi"}}));
    d.by_type[type_index(DeviceType::gpu)].push_back(a);
    REQUIRE(n.add_pod("half-" + std::to_string(m), d));
  }
  return n;
}

std::vector<DeviceInfo> gpus_without_topology(int count) {
  std::vector<DeviceInfo> out;
  for (int32_t m = 0; m < count; ++m) out.push_back(gpu(m));
  return out;
}

const Labels kHopperHonor = {{"node.koordinator.sh/gpu-vendor", "nvidia"},
                             {"node.koordinator.sh/gpu-model", "H100"},
                             {"node.koordinator.sh/gpu-partition-policy", "Honor"}};
const Labels kHopperPrefer = {{"node.koordinator.sh/gpu-model", "H800"}};

}  // namespace

TEST_CASE("GPU topology tree: deepest scope, then the scope already in use", "[deviceshare][gpu]") {
  struct Case {
    const char* name;
    std::vector<int32_t> half_used;
    Pod pod;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"one card on an empty node: first GPU of the first PCIe switch", {}, gpus(1), "gpu:0"},
      {"binpack: the switch hosting a shared pod", {0}, gpus(1), "gpu:1"},
      {"binpack across NUMA nodes", {5}, gpus(1), "gpu:4"},
      {"two cards in one switch", {}, gpus(2), "gpu:0,1"},
      {"two cards: the busy NUMA node's free switch", {0}, gpus(2), "gpu:2,3"},
      {"four cards: one NUMA node", {}, gpus(4), "gpu:0,1,2,3"},
      {"four cards: the other NUMA node", {0}, gpus(4), "gpu:4,5,6,7"},
      {"three cards", {}, gpus(3), "gpu:0,1,2"},
      {"five cards span the node", {}, gpus(5), "gpu:0,1,2,3,4"},
      {"five cards skip used GPUs", {1}, gpus(5), "gpu:0,2,3,4,5"},
      {"more cards than the node has", {}, gpus(9), "Unschedulable: Insufficient GPU Devices"},
      {"required PCIe, two cards", {0}, gpus(2, "PCIe"), "gpu:2,3"},
      {"required PCIe cannot hold four", {}, gpus(4, "PCIe"),
       "Unschedulable: Insufficient Topology Scoped GPU Devices"},
      {"required NUMANode", {0}, gpus(4, "NUMANode"), "gpu:4,5,6,7"},
      {"required NUMANode, both busy", {0, 4}, gpus(4, "NUMANode"),
       "Unschedulable: Insufficient Topology Scoped GPU Devices"},
      {"required Node", {3}, gpus(6, "Node"), "gpu:0,1,2,4,5,6"},
      {"required Node, not enough", {3}, gpus(8, "Node"), "Unschedulable: Insufficient Topology Scoped GPU Devices"},
      {"required Device can never be met", {}, gpus(1, "Device"),
       "Unschedulable: Insufficient Topology Scoped GPU Devices"},
      {"shared pod: first fitting GPU of the busiest switch", {0}, share("50"), "gpu:0"},
      {"shared pod too big for the half-used GPU", {0}, share("60"), "gpu:1"},
      {"multi-card shared request falls through to per-device allocation",
       {},
       PodSpecBuilder().requests({{"koordinator.sh/gpu.shared", "2"}, {"koordinator.sh/gpu-memory-ratio", "100"}}).pod(),
       "gpu:0,1"},
      {"multi-card shared request with a required scope",
       {},
       PodSpecBuilder()
           .requests({{"koordinator.sh/gpu.shared", "2"}, {"koordinator.sh/gpu-memory-ratio", "100"}})
           .annotation("scheduling.koordinator.sh/device-allocate-hint", R"({"gpu":{"requiredTopologyScope":"PCIe"}})")
           .pod(),
       "UnschedulableAndUnresolvable: node(s) Unsupported Multi-Shared GPU"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    NodeDevices n = node_with_half_used(c.half_used);
    CHECK(allocate_text(n, c.pod) == c.expected);
  }
}

TEST_CASE("GPUs without topology use per-device allocation", "[deviceshare][gpu]") {
  NodeDevices n = node_with_half_used({0}, gpus_without_topology(4));
  CHECK(n.gpu_topology() == nullptr);
  CHECK(allocate_text(n, gpus(2)) == "gpu:1,2");
  CHECK(allocate_text(n, gpus(3)) == "gpu:1,2,3");
  CHECK(allocate_text(n, gpus(4)) == "Unschedulable: Insufficient gpu devices");
  CHECK(allocate_text(n, share("50")) == "gpu:0");  // no scorer: minor order
  CHECK(allocate_text(n, gpus(1, "PCIe")) == "UnschedulableAndUnresolvable: node(s) missing GPU Device Topology Tree");
}

TEST_CASE("Shared GPUs: LeastAllocated spreads, MostAllocated packs", "[deviceshare][gpu]") {
  const DeviceScorer least(ScoringStrategy::least_allocated, DeviceShareArgs::default_scoring_resources());
  const DeviceScorer most(ScoringStrategy::most_allocated, DeviceShareArgs::default_scoring_resources());
  // GPU 0 half used. Scores for a 50% pod (ratio and memory weighted 1):
  //   LeastAllocated  GPU 0: (0 + 50) / 2 = 25    free GPUs: (50 + 100) / 2 = 75
  //   MostAllocated   GPU 0: (100 + 50) / 2 = 75  free GPUs: (50 + 0) / 2 = 25
  SECTION("topology tree") {
    NodeDevices n = node_with_half_used({0});
    CHECK(allocate_text(n, share("50"), scored_by(least)) == "gpu:1");
    CHECK(allocate_text(n, share("50"), scored_by(most)) == "gpu:0");
    CHECK(allocate_text(n, share("50"), AllocateOptions{}) == "gpu:0");  // Filter: no scorer
    // MostAllocated keeps packing: GPU 0 full, then the next in the same switch
    reserve(n, share("50", "second"), scored_by(most));
    CHECK(allocate_text(n, share("25"), scored_by(most)) == "gpu:1");
  }
  SECTION("per-device allocation") {
    NodeDevices n = node_with_half_used({0}, gpus_without_topology(4));
    CHECK(allocate_text(n, share("50"), scored_by(least)) == "gpu:1");
    CHECK(allocate_text(n, share("50"), scored_by(most)) == "gpu:0");
  }
  SECTION("memory-sized shared pods") {
    NodeDevices n = node_with_half_used({2}, gpus_without_topology(4));
    const Pod pod = PodSpecBuilder("mem").requests({{"koordinator.sh/gpu-memory", "20Gi"}}).pod();
    CHECK(allocate_text(n, pod, scored_by(most)) == "gpu:2");
    CHECK(allocate_text(n, pod, scored_by(least)) == "gpu:0");
    const Pod big = PodSpecBuilder("big").requests({{"koordinator.sh/gpu-memory", "50Gi"}}).pod();
    CHECK(allocate_text(n, big, scored_by(most)) == "gpu:0");  // GPU 2 has 40Gi left
  }
}

TEST_CASE("GPU partitions", "[deviceshare][gpu]") {
  const auto partitions = [](const char* table) {
    return std::map<std::string, std::string>{{"scheduling.koordinator.sh/gpu-partitions", table}};
  };
  const char* kTwoGroups = R"({"2":[{"minors":[0,1],"allocationScore":1},{"minors":[2,3],"allocationScore":2}]})";
  const char* kBandwidth =
      R"({"1":[{"minors":[0],"ringBusBandwidth":"100Gi","allocationScore":1},)"
      R"({"minors":[1],"ringBusBandwidth":"400Gi","allocationScore":1}, {"minors":[2],"allocationScore":1}]})";
  const std::string kSpecRestricted = R"({"allocatePolicy":"Restricted"})";
  struct Case {
    const char* name;
    Labels node_labels;
    std::map<std::string, std::string> device_annotations;
    std::vector<int32_t> unhealthy;
    std::vector<int32_t> half_used;
    Pod pod;
    std::string expected;
  };
  const auto with_spec = [](Pod pod, const std::string& spec) {
    pod.meta.annotations["scheduling.koordinator.sh/gpu-partition-spec"] = spec;
    return pod;
  };
  const std::vector<Case> cases = {
      {"Hopper: a pair", kHopperHonor, {}, {}, {}, gpus(2), "gpu:0,1"},
      {"Hopper: the pair that keeps a free 4-GPU partition", kHopperHonor, {}, {}, {0}, gpus(2), "gpu:2,3"},
      {"Hopper: the single GPU beside the busy one", kHopperHonor, {}, {}, {0}, gpus(1), "gpu:1"},
      {"Hopper: four", kHopperHonor, {}, {}, {5}, gpus(4), "gpu:0,1,2,3"},
      {"Hopper: all eight", kHopperHonor, {}, {}, {}, gpus(8), "gpu:0,1,2,3,4,5,6,7"},
      {"Hopper honoured: eight with one busy", kHopperHonor, {}, {}, {7}, gpus(8),
       "Unschedulable: Insufficient Partitioned GPU Devices"},
      {"Hopper honoured: three is no partition size", kHopperHonor, {}, {}, {}, gpus(3),
       "UnschedulableAndUnresolvable: node(s) Unsupported number of GPU requests"},
      {"Hopper preferred: three falls through to the topology", kHopperPrefer, {}, {}, {}, gpus(3), "gpu:0,1,2"},
      {"Hopper preferred: eight with one busy falls through", kHopperPrefer, {}, {}, {7}, gpus(8),
       "Unschedulable: Insufficient GPU Devices"},
      {"Hopper: unhealthy GPU breaks its partitions", kHopperHonor, {}, {1}, {}, gpus(2), "gpu:2,3"},
      {"Hopper: a shared pod ignores partitions", kHopperHonor, {}, {}, {0}, share("50"), "gpu:0"},
      {"not NVIDIA: no built-in table",
       {{"node.koordinator.sh/gpu-vendor", "huawei"}, {"node.koordinator.sh/gpu-model", "H100"},
        {"node.koordinator.sh/gpu-partition-policy", "Honor"}},
       {}, {}, {}, gpus(2), "UnschedulableAndUnresolvable: node(s) missing GPU Partition Table"},
      {"pod spec honours partitions, node has none", {}, {}, {}, {}, with_spec(gpus(2), "{}"),
       "UnschedulableAndUnresolvable: node(s) missing GPU Partition Table"},
      {"table: lower score group first", {}, partitions(kTwoGroups), {}, {}, with_spec(gpus(2), "{}"), "gpu:0,1"},
      {"table: BestEffort moves to the next group", {}, partitions(kTwoGroups), {}, {0}, with_spec(gpus(2), "{}"),
       "gpu:2,3"},
      {"table: Restricted stays in the first group", {}, partitions(kTwoGroups), {}, {0},
       with_spec(gpus(2), kSpecRestricted), "Unschedulable: Insufficient Partitioned GPU Devices"},
      {"table without Honor: failure falls through", {}, partitions(kTwoGroups), {}, {0, 2}, gpus(2), "gpu:4,5"},
      {"table: ring bandwidth", {}, partitions(kBandwidth), {}, {}, with_spec(gpus(1), R"({"ringBusBandwidth":"200Gi"})"),
       "gpu:1"},
      {"table: no partition has the bandwidth", {}, partitions(kBandwidth), {}, {},
       with_spec(gpus(1), R"({"ringBusBandwidth":"1Ti"})"), "Unschedulable: Insufficient Partitioned GPU Devices"},
      {"table: minors in table order", {}, partitions(R"({"2":[{"minors":[3,1]}]})"), {}, {}, with_spec(gpus(2), "{}"),
       "gpu:3,1"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto infos = canonical_infos();
    for (int32_t m : c.unhealthy) infos[static_cast<size_t>(m)].health = false;
    NodeDevices n;
    n.apply_device(device(infos, {}, c.device_annotations));
    for (int32_t m : c.half_used) {
      PodDevices d;
      d.by_type[type_index(DeviceType::gpu)].push_back(
          AccountedDevice{m, DeviceAmounts::from_list(list({{"koordinator.sh/gpu-core", "50"},
                                                            {"koordinator.sh/gpu-memory-ratio", "50"}})),
                          {}});
      REQUIRE(n.add_pod("half-" + std::to_string(m), d));
    }
    AllocateOptions options;
    options.node_labels = &c.node_labels;
    CHECK(allocate_text(n, c.pod, options) == c.expected);
  }
}

TEST_CASE("Unhealthy and missing GPUs are never chosen", "[deviceshare][gpu]") {
  auto infos = canonical_infos();
  infos[0].health = false;
  infos[2].health = false;
  NodeDevices n;
  n.apply_device(device(infos));
  CHECK(allocate_text(n, gpus(1)) == "gpu:1");
  CHECK(allocate_text(n, gpus(2)) == "gpu:4,5");
  CHECK(allocate_text(n, gpus(6)) == "gpu:1,3,4,5,6,7");
  CHECK(allocate_text(n, gpus(7)) == "Unschedulable: Insufficient GPU Devices");
  n.clear_device();
  CHECK(allocate_text(n, gpus(1)) == "Unschedulable: Insufficient GPU Devices");
  CHECK(allocate_text(n, share("10")) == "Unschedulable: Insufficient GPU Devices");

  NodeDevices nics_only;
  nics_only.apply_device(device({rdma(0, std::nullopt, 0)}));
  CHECK(allocate_text(nics_only, gpus(1)) == "UnschedulableAndUnresolvable: Insufficient gpu devices");
}

TEST_CASE("GPU allocations carry both memory dimensions and the device id", "[deviceshare][gpu]") {
  NodeDevices n;
  auto infos = gpus_without_topology(2);
  infos[1].resources = list({{"koordinator.sh/gpu-core", "100"},
                             {"koordinator.sh/gpu-memory", "24Gi"},
                             {"koordinator.sh/gpu-memory-ratio", "100"}});
  n.apply_device(device(infos));
  const auto whole = reserve(n, gpus(2));
  CHECK(encode_device_allocations(whole) ==
        R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"100","koordinator.sh/gpu-memory":"80Gi",)"
        R"("koordinator.sh/gpu-memory-ratio":"100"},"id":"GPU-0"},{"minor":1,"resources":{"koordinator.sh/gpu-core":"100",)"
        R"("koordinator.sh/gpu-memory":"24Gi","koordinator.sh/gpu-memory-ratio":"100"},"id":"GPU-1"}]})");
  n.remove_pod("uid-whole");
  // 30Gi of 80Gi: ratio int64(37.5) = 37
  const auto mem = reserve(n, PodSpecBuilder("mem").requests({{"koordinator.sh/gpu-memory", "30Gi"}}).pod());
  CHECK(encode_device_allocations(mem) ==
        R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-memory":"30Gi","koordinator.sh/gpu-memory-ratio":"37"},)"
        R"("id":"GPU-0"}]})");
  // 33% of 80Gi: 85899345920 × 33 / 100 = 28346784153 bytes (truncated)
  n.remove_pod("uid-mem");
  const auto ratio = reserve(n, PodSpecBuilder("ratio")
                                    .requests({{"koordinator.sh/gpu-core", "10"}, {"koordinator.sh/gpu-memory-ratio", "33"}})
                                    .annotation("scheduling.koordinator.sh/device-allocate-hint",
                                                R"({"gpu":{"selector":{"matchLabels":{}}}})")
                                    .pod());
  REQUIRE(ratio.at("gpu").size() == 1);
  CHECK(ratio.at("gpu")[0].minor == 0);
  CHECK(ratio.at("gpu")[0].resources.to_string() ==
        "{koordinator.sh/gpu-core: 10, koordinator.sh/gpu-memory: 28346784153, koordinator.sh/gpu-memory-ratio: 33}");
}

TEST_CASE("A card sized by memory and by ratio is never over-committed", "[deviceshare][gpu]") {
  // 40.5Gi of 80Gi records ratio 50 (50.6 truncated); a ratio-50 pod would then
  // take 40Gi more than the card has left. Koordinator checks only the ratio.
  NodeDevices n;
  n.apply_device(device(gpus_without_topology(1)));
  reserve(n, PodSpecBuilder("mem").requests({{"koordinator.sh/gpu-memory", "41472Mi"}}).pod());
  CHECK(allocate_text(n, PodSpecBuilder("ratio").requests({{"koordinator.sh/gpu-memory-ratio", "50"}}).pod()) ==
        "Unschedulable: Insufficient gpu devices");
  CHECK(allocate_text(n, PodSpecBuilder("ratio").requests({{"koordinator.sh/gpu-memory-ratio", "49"}}).pod()) == "gpu:0");
}
