#include <catch2/catch.hpp>

#include "plugins/deviceshare/device_summary.hpp"
#include "plugins/deviceshare/node_devices.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

std::shared_ptr<const PodInfo> allocated_pod(const std::string& name, const std::string& annotation) {
  return PodSpecBuilder(name).annotation("scheduling.koordinator.sh/device-allocated", annotation).info();
}

std::string free_of(const NodeDevices& n, DeviceType t, int32_t minor) {
  const DeviceSlot* s = n.devices(t).find(minor);
  return s == nullptr ? "absent" : s->free().to_list().to_string();
}

}  // namespace

TEST_CASE("NodeDevices builds per-device state from the Device", "[deviceshare][node]") {
  auto infos = canonical_infos();
  infos.push_back(gpu(8, std::nullopt, "40Gi", /*healthy=*/false));
  DeviceInfo other;
  other.type = "npu-unknown";
  other.minor = 0;
  other.health = true;
  infos.push_back(other);
  NodeDevices n;
  CHECK_FALSE(n.known());
  n.apply_device(device(infos, {{"node.koordinator.sh/gpu-partition-policy", "Honor"},
                                {"node.koordinator.sh/secondary-device-well-planned", "true"}}));
  CHECK(n.known());
  CHECK(n.has_device());
  CHECK(n.device_honors_partitions());
  CHECK(n.secondary_device_well_planned());
  REQUIRE(n.devices(DeviceType::gpu).slots.size() == 9);
  REQUIRE(n.devices(DeviceType::rdma).slots.size() == 4);
  CHECK(n.devices(DeviceType::fpga).slots.empty());
  CHECK(free_of(n, DeviceType::gpu, 0) ==
        "{koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: 100}");
  const DeviceSlot* unhealthy = n.devices(DeviceType::gpu).find(8);
  REQUIRE(unhealthy);
  CHECK_FALSE(unhealthy->healthy());
  CHECK(unhealthy->total().empty());
  // VFs sorted by bus id whatever order the Device lists them in
  const DeviceSlot* nic = n.devices(DeviceType::rdma).find(2);
  REQUIRE(nic->vfs().size() == 4);
  CHECK(nic->vfs()[0].bus_id == "0000:12:00.2");
  CHECK(nic->vfs()[3].bus_id == "0000:12:00.5");
  CHECK(n.devices(DeviceType::rdma).has_virtual_functions());
  // NUMA topology: devices with a topology, by NUMA node and PCIe switch
  REQUIRE(n.numa_topology().size() == 2);
  const auto& numa0 = n.numa_topology().at(0);
  REQUIRE(numa0.size() == 2);
  CHECK(numa0[0].pcie_id == "pci0");
  CHECK(numa0[0].minors[type_index(DeviceType::gpu)] == std::vector<int32_t>{0, 1});
  CHECK(numa0[0].minors[type_index(DeviceType::rdma)] == std::vector<int32_t>{0});
  // GPU 8 has no topology: no topology tree at all
  CHECK(n.gpu_topology() == nullptr);
}

TEST_CASE("The GPU topology tree", "[deviceshare][node]") {
  NodeDevices n = canonical_node();
  const GpuScope* root = n.gpu_topology();
  REQUIRE(root);
  CHECK(root->level == 1);
  CHECK(root->minors == std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7});
  REQUIRE(root->children.size() == 2);
  CHECK(root->children[1].numa_node == 1);
  CHECK(root->children[1].minors == std::vector<int32_t>{4, 5, 6, 7});
  REQUIRE(root->children[1].children.size() == 2);
  CHECK(root->children[1].children[0].pcie_id == "pci2");
  CHECK(root->children[1].children[0].mask == 0x30u);
}

TEST_CASE("Pods' device-allocated annotations are accounted and removed exactly", "[deviceshare][node]") {
  NodeDevices n = canonical_node();
  const NodeDevices empty = n;
  auto a = allocated_pod("a", R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"50",)"
                              R"("koordinator.sh/gpu-memory":"40Gi","koordinator.sh/gpu-memory-ratio":"50"}}],)"
                              R"("rdma":[{"minor":1,"resources":{"koordinator.sh/rdma":"1"},)"
                              R"("extension":{"vfs":[{"minor":-1,"busID":"0000:11:00.2"}]}}]})");
  auto b = allocated_pod("b", R"({"gpu":[{"minor":0,"resources":{"kubernetes.io/gpu-core":"25",)"
                              R"("kubernetes.io/gpu-memory-ratio":"25","koordinator.sh/gpu-memory":"20Gi"}}]})");
  n.on_pod_added(*a);
  n.on_pod_added(*a);  // a second add of the same pod is ignored
  n.on_pod_added(*b);
  CHECK(n.pod_count() == 2);
  CHECK(free_of(n, DeviceType::gpu, 0) ==
        "{koordinator.sh/gpu-core: 25, koordinator.sh/gpu-memory: 20Gi, koordinator.sh/gpu-memory-ratio: 25}");
  CHECK(n.devices(DeviceType::rdma).find(1)->vf_taken("0000:11:00.2"));
  CHECK(free_of(n, DeviceType::rdma, 1) == "{koordinator.sh/rdma: 99}");
  n.on_pod_removed(*a);
  CHECK(free_of(n, DeviceType::gpu, 0) ==
        "{koordinator.sh/gpu-core: 75, koordinator.sh/gpu-memory: 60Gi, koordinator.sh/gpu-memory-ratio: 75}");
  CHECK_FALSE(n.devices(DeviceType::rdma).find(1)->vf_taken("0000:11:00.2"));
  n.on_pod_removed(*b);
  n.on_pod_removed(*b);  // removing twice changes nothing
  for (DeviceType t : kAllDeviceTypes) {
    const auto& before = empty.devices(t).slots;
    const auto& after = n.devices(t).slots;
    REQUIRE(before.size() == after.size());
    for (size_t i = 0; i < before.size(); ++i) {
      CHECK(before[i].used() == after[i].used());
      CHECK(before[i].free() == after[i].free());
      CHECK(before[i].used_vfs() == after[i].used_vfs());
      CHECK(after[i].allocations() == 0);
    }
  }
  CHECK(n.known());
}

TEST_CASE("Pods and the Device may arrive in any order", "[deviceshare][node]") {
  NodeDevices n;
  auto a = allocated_pod("a", R"({"gpu":[{"minor":3,"resources":{"koordinator.sh/gpu-core":"100",)"
                              R"("koordinator.sh/gpu-memory":"80Gi","koordinator.sh/gpu-memory-ratio":"100"}}]})");
  n.on_pod_added(*a);
  CHECK(n.known());  // a pod with an allocation makes the node known, Device or not
  CHECK_FALSE(n.has_device());
  const DeviceSlot* phantom = n.devices(DeviceType::gpu).find(3);
  REQUIRE(phantom);
  CHECK(phantom->info == nullptr);
  CHECK(phantom->free().is_zero());
  n.apply_device(device(canonical_infos()));
  CHECK(free_of(n, DeviceType::gpu, 3) ==
        "{koordinator.sh/gpu-core: 0, koordinator.sh/gpu-memory: 0, koordinator.sh/gpu-memory-ratio: 0}");
  CHECK(n.devices(DeviceType::gpu).find(3)->info != nullptr);
  // The Device shrinks: GPU 3 disappears, its pod keeps it as a bare minor
  auto smaller = canonical_infos();
  smaller.erase(smaller.begin() + 3);
  n.apply_device(device(smaller));
  REQUIRE(n.devices(DeviceType::gpu).find(3));
  CHECK(n.devices(DeviceType::gpu).find(3)->info == nullptr);
  n.on_pod_removed(*a);
  CHECK(n.devices(DeviceType::gpu).find(3) == nullptr);  // nothing left to remember
  CHECK(n.devices(DeviceType::gpu).slots.size() == 7);
}

TEST_CASE("A deleted Device leaves its devices known but unusable", "[deviceshare][node]") {
  NodeDevices n = canonical_node();
  auto a = allocated_pod("a", R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"100",)"
                              R"("koordinator.sh/gpu-memory":"80Gi","koordinator.sh/gpu-memory-ratio":"100"}}]})");
  n.on_pod_added(*a);
  n.clear_device();
  CHECK(n.known());
  CHECK_FALSE(n.has_device());
  for (const auto& s : n.devices(DeviceType::gpu).slots) CHECK(s.total().empty());
  CHECK_FALSE(n.devices(DeviceType::gpu).any_free());
  CHECK(n.devices(DeviceType::gpu).slots.size() == 8);
  CHECK(n.gpu_topology() != nullptr);  // topology kept, as Koordinator keeps it
  n.apply_device(device(canonical_infos()));
  CHECK(free_of(n, DeviceType::gpu, 0) ==
        "{koordinator.sh/gpu-core: 0, koordinator.sh/gpu-memory: 0, koordinator.sh/gpu-memory-ratio: 0}");
  CHECK(free_of(n, DeviceType::gpu, 1) ==
        "{koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: 100}");
}

TEST_CASE("Malformed annotations account nothing", "[deviceshare][node]") {
  NodeDevices n = canonical_node();
  n.on_pod_added(*allocated_pod("bad", R"({"gpu":[{"minor":"x"}]})"));
  n.on_pod_added(*allocated_pod("types", R"({"npu":[{"minor":0,"resources":{"x":"1"}}]})"));
  n.on_pod_added(*PodSpecBuilder("plain").info());
  CHECK(n.malformed_annotations() == 1);
  CHECK(n.pod_count() == 0);
}

TEST_CASE("The GPU partition table annotation", "[deviceshare][node]") {
  NodeDevices n;
  n.apply_device(device(canonical_infos(), {},
                        {{"scheduling.koordinator.sh/gpu-partitions",
                          R"({"2":[{"minors":[0,1],"gpuLinkType":"NVLink","ringBusBandwidth":"400Gi","allocationScore":2},)"
                          R"({"minors":[2,3],"allocationScore":1},{"minors":[4,5],"allocationScore":2}],)"
                          R"("1":[{"minors":[7],"allocationScore":1}]})"}}));
  REQUIRE(n.partition_indexer());
  const auto& two = n.partition_indexer()->at(2);
  REQUIRE(two.size() == 2);
  CHECK(two[0].allocation_score == 1);  // groups by ascending score
  CHECK(two[0].partitions.size() == 1);
  CHECK(two[1].partitions.size() == 2);
  CHECK(two[1].partitions[0].mask == 0x3u);
  CHECK(two[1].partitions[0].ring_bus_bandwidth->to_string() == "400Gi");
  CHECK(n.partition_table_error().empty());

  struct Bad {
    const char* table;
    const char* error;
  };
  const std::vector<Bad> bad = {
      {"null", "invalid gpu partitions in device cr: null"},
      {R"({"two":[]})", "key \"two\" is not an integer"},
      {R"({"1":[{"minors":[0],"allocationScore":"1"}]})", "1[0].allocationScore: expected an integer, got string \"1\""},
      {R"({"1":{}})", "1: expected an array, got object"},
  };
  for (const auto& b : bad) {
    INFO(b.table);
    n.apply_device(device(canonical_infos(), {}, {{"scheduling.koordinator.sh/gpu-partitions", b.table}}));
    CHECK(n.partition_indexer() == nullptr);
    CHECK(n.partition_table_error() == b.error);
  }
}

TEST_CASE("The node device summary of the debug endpoint", "[deviceshare][node]") {
  NodeDevices n;
  n.apply_device(device({gpu(0), gpu(1), rdma(0, std::nullopt, 0)}));
  n.on_pod_added(*allocated_pod("a", R"({"gpu":[{"minor":1,"resources":{"koordinator.sh/gpu-core":"50",)"
                                     R"("koordinator.sh/gpu-memory":"40Gi","koordinator.sh/gpu-memory-ratio":"50"}}]})"));
  const std::string full = R"({"koordinator.sh/gpu-core":"100","koordinator.sh/gpu-memory":"80Gi","koordinator.sh/gpu-memory-ratio":"100"})";
  const std::string half = R"({"koordinator.sh/gpu-core":"50","koordinator.sh/gpu-memory":"40Gi","koordinator.sh/gpu-memory-ratio":"50"})";
  const std::string nic = R"({"koordinator.sh/rdma":"100"})";
  CHECK(node_device_summary_json(n) ==
        R"({"deviceTotal":{"koordinator.sh/gpu-core":"200","koordinator.sh/gpu-memory":"160Gi",)"
        R"("koordinator.sh/gpu-memory-ratio":"200","koordinator.sh/rdma":"100"},)"
        R"("deviceFree":{"koordinator.sh/gpu-core":"150","koordinator.sh/gpu-memory":"120Gi",)"
        R"("koordinator.sh/gpu-memory-ratio":"150","koordinator.sh/rdma":"100"},)"
        R"("deviceUsed":)" + half + "," +
        R"("deviceTotalDetail":{"gpu":{"0":)" + full + R"(,"1":)" + full + R"(},"rdma":{"0":)" + nic + "}}," +
        R"("deviceFreeDetail":{"gpu":{"0":)" + full + R"(,"1":)" + half + R"(},"rdma":{"0":)" + nic + "}}," +
        R"("deviceUsedDetail":{"gpu":{"1":)" + half + "}}," +
        R"("allocateSet":{"gpu":{"default/a":{"1":)" + half + "}}}}");
}

TEST_CASE("The card model: the Device's label, else the Node's; a change clears the score memo",
          "[deviceshare][node]") {
  const std::string model_key = "node.koordinator.sh/gpu-model";
  Node t4;
  t4.meta.labels[model_key] = "T4";
  Node unlabelled;
  const FragmentationStateKey state = *FragmentationStateKey::of(1, 0, 0, NodeGpuFree{1000, {1000}, 100});
  const GpuRequest request{1000, 500, 1, 0};

  struct Case {
    const char* name;
    const Node* node;       // on_node_changed
    bool device;            // apply a Device
    std::string device_model;
    bool deleted;           // then delete the Device
    std::string want;
  };
  const std::vector<Case> cases = {
      {"nothing known", nullptr, false, "", false, ""},
      {"Node label only", &t4, false, "", false, "T4"},
      {"Device without label: the Node's", &t4, true, "", false, "T4"},
      {"Device label wins", &t4, true, "A100", false, "A100"},
      {"Device label, Node without", &unlabelled, true, "A100", false, "A100"},
      {"deleted Device keeps its label", &t4, true, "A100", true, "A100"},
      {"Node without label, no Device", &unlabelled, false, "", false, ""},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    NodeDevices n;
    n.on_node_changed(c.node);
    if (c.device) {
      Labels labels;
      if (!c.device_model.empty()) labels[model_key] = c.device_model;
      n.apply_device(device({gpu(0)}, labels));
    }
    if (c.deleted) n.clear_device();
    CHECK(n.card_model() == c.want);
    CHECK(n.card_model_hash() == std::hash<std::string>{}(c.want));
  }

  NodeDevices n;
  n.on_node_changed(&t4);
  n.fragmentation_cache().store(state, request, {50, 0});
  n.on_node_changed(&t4);  // same model: the memo stays
  CHECK(n.fragmentation_cache().find(state, request));
  Node a100 = t4;
  a100.meta.labels[model_key] = "A100";
  n.on_node_changed(&a100);
  CHECK(n.card_model() == "A100");
  CHECK_FALSE(n.fragmentation_cache().find(state, request));
}

TEST_CASE("The Fragmentation memo is allocated on first use, freed when cleared, not copied", "[deviceshare][node]") {
  NodeDevices n = canonical_node();
  CHECK_FALSE(n.has_fragmentation_cache());  // nodes the strategy never scores carry none
  FragmentationStateKey state;
  state.cards = 1;
  GpuRequest request;
  request.gpu_count = 1;
  request.gpu_milli = 500;
  n.fragmentation_cache().store(state, request, {70, 0});
  CHECK(n.has_fragmentation_cache());
  CHECK(n.fragmentation_cache().find(state, request));

  const NodeDevices copy = n;  // a Reservation restore view: decides the same from an empty memo
  CHECK_FALSE(copy.has_fragmentation_cache());
  CHECK(n.fragmentation_cache().find(state, request));

  n.apply_device(device(canonical_infos()));  // a Device update forgets the decisions and the storage
  CHECK_FALSE(n.has_fragmentation_cache());
  CHECK_FALSE(n.fragmentation_cache().find(state, request));
}
