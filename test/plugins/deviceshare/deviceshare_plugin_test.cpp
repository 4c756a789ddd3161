#include <catch2/catch.hpp>

#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

std::shared_ptr<const DeviceShare> make_plugin(const std::string& yaml = "", DeviceShare::Clock clock = {}) {
  DeviceShareArgs args;
  if (!yaml.empty()) args = DeviceShareArgs::from_yaml(YAML::Load(yaml));
  auto plugin = std::make_shared<DeviceShare>(args, clock ? clock : [] { return int64_t{1700000000000000000}; });
  plugin->set_state_slot(0);
  return plugin;
}

std::string args_error(const std::string& yaml) {
  auto plugin = DeviceShare::make(YAML::Load(yaml));
  if (plugin) FAIL("expected an error for " << yaml);
  return plugin.message();
}

Node node_with(Labels labels) {
  Node n;
  n.meta.name = "node-1";
  n.meta.labels = std::move(labels);
  return n;
}

PluginStatus pre_filter(const DeviceShare& p, CycleState& state, const Pod& pod) {
  PreFilterResult result;
  return p.pre_filter(state, *PodInfo::make(pod), result);
}

}  // namespace

TEST_CASE("DeviceShareArgs defaults and decoding", "[deviceshare][plugin]") {
  auto defaults = DeviceShare::make(YAML::Node());
  REQUIRE(defaults);
  const auto& args = std::dynamic_pointer_cast<const DeviceShare>(*defaults)->args();
  // troupe's default strategy: Fragmentation, learning its task classes (Koordinator's: LeastAllocated).
  CHECK(args.strategy == ScoringStrategy::fragmentation);
  CHECK(args.fragmentation.learned());
  CHECK(args.fragmentation.card_waste_weight == kDefaultCardWasteWeight);
  REQUIRE(args.resources.size() == 4);
  CHECK(args.resources[0].name == "koordinator.sh/gpu-memory-ratio");
  CHECK(args.resources[1].name == "koordinator.sh/gpu-memory");
  CHECK_FALSE(args.disable_numa_alignment);
  CHECK(args.templates_namespace == "koordinator-system");
  CHECK(args.template_matched_resources == std::vector<std::string>{"huawei.com/npu-core"});
  CHECK_FALSE(args.device_plugin_adaption);

  auto full = DeviceShareArgs::from_yaml(YAML::Load(R"(
allocator: autopilot
scoringStrategy:
  type: MostAllocated
  resources: [{name: koordinator.sh/gpu-core, weight: 3}]
disableDeviceNUMATopologyAlignment: true
gpuSharedResourceTemplatesConfig: {configMapName: t, matchedResources: []}
gpuShareUnsupportedModels: [{vendor: nvidia, model: A10}]
devicePluginAdaption: true
)"));
  CHECK(full.strategy == ScoringStrategy::most_allocated);
  REQUIRE(full.resources.size() == 1);
  CHECK(full.resources[0].weight == 3);
  CHECK(full.disable_numa_alignment);
  CHECK(full.templates_name == "t");
  CHECK(full.templates_namespace == "koordinator-system");
  CHECK(full.template_matched_resources.empty());
  REQUIRE(full.gpu_share_unsupported_models.size() == 1);
  CHECK(full.gpu_share_unsupported_models[0].model == "A10");
  CHECK(full.device_plugin_adaption);
  // A strategy without resources scores nothing (as Koordinator)
  CHECK(DeviceShareArgs::from_yaml(YAML::Load("scoringStrategy: {type: LeastAllocated}")).resources.empty());

  CHECK(args_error("scoringStrategy: {type: Balanced}") ==
        "scoringStrategy.type: Unsupported value: \"Balanced\": supported values: \"LeastAllocated\", \"MostAllocated\", \"Fragmentation\"");
  CHECK(args_error("scoringStrategy: {resources: []}") ==
        "scoringStrategy.type: Unsupported value: \"\": supported values: \"LeastAllocated\", \"MostAllocated\", \"Fragmentation\"");
  CHECK(args_error("scoringStrategy: {type: MostAllocated, resources: [{name: koordinator.sh/rdma, weight: 0}]}") ==
        "scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of koordinator.sh/rdma not in valid "
        "range (0, 100]");
  CHECK(args_error("scoringStrategy: {type: MostAllocated, resources: [{name: x, weight: 101}]}") ==
        "scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of x not in valid range (0, 100]");
  CHECK_THAT(args_error("unknownField: 1"), Catch::Contains("unknownField"));
  CHECK_THAT(args_error("gpuShareUnsupportedModels: {vendor: x}"), Catch::StartsWith("gpuShareUnsupportedModels"));
  CHECK_THAT(args_error("disableDeviceNUMATopologyAlignment: maybe"),
             Catch::StartsWith("disableDeviceNUMATopologyAlignment"));
}

TEST_CASE("DeviceShare PreFilter", "[deviceshare][plugin]") {
  auto p = make_plugin();
  struct Case {
    const char* name;
    Pod pod;
    Code code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"no device request", PodSpecBuilder().requests({{"cpu", "1"}}).pod(), Code::skip, ""},
      {"valid", PodSpecBuilder().requests({{"nvidia.com/gpu", "1"}}).pod(), Code::success, ""},
      {"invalid unit", PodSpecBuilder().requests({{"koordinator.sh/gpu", "150"}}).pod(),
       Code::unschedulable_and_unresolvable, "invalid resource unit koordinator.sh/gpu: 150"},
      {"invalid combination", PodSpecBuilder().requests({{"koordinator.sh/gpu-core", "10"}}).pod(),
       Code::unschedulable_and_unresolvable, "invalid resource device requests: [koordinator.sh/gpu-core]"},
      {"bad hint JSON",
       PodSpecBuilder().requests({{"nvidia.com/gpu", "1"}}).annotation("scheduling.koordinator.sh/device-allocate-hint", "{").pod(),
       Code::unschedulable_and_unresolvable, ""},
      {"bad hint selector",
       PodSpecBuilder()
           .requests({{"koordinator.sh/rdma", "1"}})
           .annotation("scheduling.koordinator.sh/device-allocate-hint",
                       R"({"rdma":{"selector":{"matchExpressions":[{"key":"a","operator":"Bad"}]}}})")
           .pod(),
       Code::unschedulable_and_unresolvable, ""},
      {"bad joint spec",
       PodSpecBuilder().requests({{"nvidia.com/gpu", "1"}}).annotation("scheduling.koordinator.sh/device-joint-allocate",
                                                                      R"({"deviceTypes":"gpu"})").pod(),
       Code::unschedulable_and_unresolvable,
       "invalid DeviceJointAllocate annotation, err: deviceTypes: expected an array, got string \"gpu\""},
      {"bad partition spec",
       PodSpecBuilder().requests({{"nvidia.com/gpu", "1"}}).annotation("scheduling.koordinator.sh/gpu-partition-spec",
                                                                      R"({"ringBusBandwidth":"fast"})").pod(),
       Code::unschedulable_and_unresolvable, ""},
      {"malformed existing allocation",
       PodSpecBuilder().requests({{"nvidia.com/gpu", "1"}}).annotation("scheduling.koordinator.sh/device-allocated", "[]").pod(),
       Code::unschedulable_and_unresolvable,
       "scheduling.koordinator.sh/device-allocated: expected an object of device types, got array"},
      {"Huawei vNPU without templates",
       PodSpecBuilder()
           .requests({{"koordinator.sh/gpu.shared", "1"}, {"huawei.com/npu-core", "2"}, {"huawei.com/npu-cpu", "1"},
                      {"koordinator.sh/gpu-memory", "4Gi"}})
           .pod(),
       Code::unschedulable_and_unresolvable, "no matched GPU shared resource template"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CycleState state;
    PluginStatus s = pre_filter(*p, state, c.pod);
    INFO(s.message());
    CHECK(s.code == c.code);
    if (!c.message.empty()) CHECK(s.message() == c.message);
    CHECK((p->read_state(state) != nullptr) == (c.code == Code::success));
  }
  CycleState state;
  pre_filter(*p, state, PodSpecBuilder().requests({{"nvidia.com/gpu", "1"}}).annotation(
                             "scheduling.koordinator.sh/device-allocate-hint", "{").pod());
  CHECK_THAT(pre_filter(*p, state, PodSpecBuilder().requests({{"nvidia.com/gpu", "1"}}).annotation(
                                       "scheduling.koordinator.sh/device-allocate-hint", "{").pod()).message(),
             Catch::StartsWith("invalid DeviceAllocateHint annotation, err: invalid JSON"));
  CHECK_THAT(pre_filter(*p, state, PodSpecBuilder().requests({{"koordinator.sh/rdma", "1"}}).annotation(
                                       "scheduling.koordinator.sh/device-allocate-hint",
                                       R"({"rdma":{"selector":{"matchExpressions":[{"key":"a","operator":"Bad"}]}}})")
                                       .pod()).message(),
             Catch::StartsWith("invalid Selector of DeviceHint, deviceType: rdma, err: "));
}

TEST_CASE("DeviceShare Filter", "[deviceshare][plugin]") {
  auto p = make_plugin("gpuShareUnsupportedModels: [{vendor: nvidia, model: A10}]");
  NodeDevices devices = canonical_node();
  const Node plain = node_with({});
  const Node a10 = node_with({{"node.koordinator.sh/gpu-vendor", "nvidia"}, {"node.koordinator.sh/gpu-model", "A10"}});
  const Node hami = node_with({{"koordinator.sh/gpu-isolation-provider", "HAMi-core"}});
  auto filter = [&](const Pod& pod, const Node* node, const NodeDevices* d) {
    CycleState state;
    PluginStatus pf = pre_filter(*p, state, pod);
    if (pf.is_skip()) return std::string("skip");
    REQUIRE(pf.ok());
    PluginStatus s = p->filter_devices(state, node, d);
    return s.ok() ? std::string("ok") : std::string(to_string(s.code)) + ": " + s.message();
  };
  const Pod whole = PodSpecBuilder().requests({{"nvidia.com/gpu", "2"}}).pod();
  const Pod shared = PodSpecBuilder().requests({{"koordinator.sh/gpu", "50"}}).pod();
  const Pod hami_pod =
      PodSpecBuilder().requests({{"koordinator.sh/gpu", "50"}}).label("koordinator.sh/gpu-isolation-provider", "HAMi-core").pod();
  CHECK(filter(whole, &plain, &devices) == "ok");
  CHECK(filter(PodSpecBuilder().requests({{"nvidia.com/gpu", "9"}}).pod(), &plain, &devices) ==
        "Unschedulable: Insufficient GPU Devices");
  CHECK(filter(whole, nullptr, &devices) == "Error: node not found");
  CHECK(filter(whole, &plain, nullptr) == "ok");  // node without device state
  NodeDevices unknown;
  CHECK(filter(whole, &plain, &unknown) == "ok");  // never saw a Device nor an allocated pod
  CHECK(filter(shared, &a10, &devices) ==
        "UnschedulableAndUnresolvable: model \"A10\" of vendor \"nvidia\" does not support GPU Share");
  CHECK(filter(whole, &a10, &devices) == "ok");  // whole cards are fine on that model
  // Upstream returns Error, which would abort the pod's whole cycle; troupe rejects the node.
  CHECK(filter(hami_pod, &plain, &devices) ==
        "UnschedulableAndUnresolvable: GPUIsolationProviderHAMICore not found on the node");
  CHECK(filter(PodSpecBuilder().requests({{"nvidia.com/gpu", "1"}}).label("koordinator.sh/gpu-isolation-provider", "HAMi-core").pod(),
               &plain, &devices) == "ok");  // whole cards need no isolation
  CHECK(filter(hami_pod, &hami, &devices) == "ok");
  CHECK(filter(PodSpecBuilder().requests({{"cpu", "1"}}).pod(), &plain, &devices) == "skip");
}

TEST_CASE("DeviceShare Score", "[deviceshare][plugin]") {
  // Koordinator's default: LeastAllocated over its four resources.
  auto least = make_plugin(
      "scoringStrategy: {type: LeastAllocated, resources: [{name: koordinator.sh/gpu-memory-ratio, weight: 1}, "
      "{name: koordinator.sh/gpu-memory, weight: 1}, {name: koordinator.sh/rdma, weight: 1}, "
      "{name: koordinator.sh/fpga, weight: 1}]}");
  auto most = make_plugin("scoringStrategy: {type: MostAllocated, resources: [{name: koordinator.sh/gpu-memory-ratio, weight: 1}]}");
  NodeDevices empty = canonical_node();
  NodeDevices busy = canonical_node();
  reserve(busy, PodSpecBuilder("b").requests({{"nvidia.com/gpu", "4"}}).pod());
  const Node node = node_with({});
  const Pod pod = PodSpecBuilder().requests({{"nvidia.com/gpu", "2"}}).pod();
  auto score = [&](const DeviceShare& p, const NodeDevices& d) {
    CycleState state;
    REQUIRE(pre_filter(p, state, pod).ok());
    return p.score_devices(state, &node, &d);
  };
  // per-instance request 100 of ratio: total 800
  //   empty: LeastAllocated ratio (800-100)/800 → 87, memory (request 0) → 100: (87+100)/2 = 93
  //   busy (400 used): ratio (800-500)/800 → 37, memory 50: 43
  CHECK(score(*least, empty) == 93);
  CHECK(score(*least, busy) == 43);
  //   MostAllocated over ratio only: 100·100/800 = 12; 500·100/800 = 62
  CHECK(score(*most, empty) == 12);
  CHECK(score(*most, busy) == 62);
  std::vector<int64_t> scores = {12, 62, 0};
  most->normalize(scores);
  CHECK(scores == std::vector<int64_t>{19, 100, 0});
  CycleState no_request;
  CHECK(least->score_devices(no_request, &node, &empty) == 0);
}

TEST_CASE("DeviceShare Reserve, Unreserve and PreBind", "[deviceshare][plugin]") {
  const Node node = node_with({});
  SECTION("annotation only by default") {
    auto p = make_plugin();
    NodeDevices devices = canonical_node();
    const NodeDevices before = devices;
    auto pod = PodSpecBuilder("train")
                   .requests({{"nvidia.com/gpu", "1"}, {"koordinator.sh/rdma", "1"}})
                   .annotation("scheduling.koordinator.sh/device-allocate-hint", R"({"rdma":{"vfSelector":{}}})")
                   .label("koordinator.sh/gpu-isolation-provider", "HAMi-core")
                   .info();
    CycleState state;
    PreFilterResult r;
    REQUIRE(p->pre_filter(state, *pod, r).ok());
    REQUIRE(p->reserve_devices(state, *pod, &node, &devices).ok());
    CHECK(devices.has_pod("uid-train"));
    BindingChanges changes;
    REQUIRE(p->pre_bind(state, *pod, "node-1", changes).ok());
    CHECK(changes.annotations ==
          std::map<std::string, std::string>{
              {"scheduling.koordinator.sh/device-allocated",
               R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"100","koordinator.sh/gpu-memory":"80Gi",)"
               R"("koordinator.sh/gpu-memory-ratio":"100"},"id":"GPU-0"}],)"
               R"("rdma":[{"minor":0,"resources":{"koordinator.sh/rdma":"1"},"id":"0000:10:00.0",)"
               R"("extension":{"vfs":[{"minor":-1,"busID":"0000:10:00.2"}]}}]})"}});
    CHECK(changes.pod_patches.empty());
    // A second Reserve of the same pod (its stale annotation was accounted)
    // replaces the allocation: the pod never holds devices twice.
    PluginStatus twice = p->reserve_devices(state, *pod, &node, &devices);
    CHECK(twice.ok());
    CHECK(devices.pod_count() == 1);
    p->unreserve_devices(state, *pod, &devices);
    CHECK_FALSE(devices.has_pod("uid-train"));
    for (DeviceType t : kAllDeviceTypes)
      for (size_t i = 0; i < before.devices(t).slots.size(); ++i) {
        CHECK(devices.devices(t).slots[i].free() == before.devices(t).slots[i].free());
        CHECK(devices.devices(t).slots[i].used_vfs().empty());
      }
    BindingChanges after_unreserve;
    REQUIRE(p->pre_bind(state, *pod, "node-1", after_unreserve).ok());
    CHECK(after_unreserve.annotations.empty());
  }
  SECTION("device plugin adaption") {
    auto p = make_plugin("devicePluginAdaption: true", [] { return int64_t{42}; });
    NodeDevices devices = canonical_node();
    auto pod = PodSpecBuilder("infer")
                   .requests({{"nvidia.com/gpu", "2"}})
                   .label("koordinator.sh/gpu-isolation-provider", "HAMi-core")
                   .info();
    CycleState state;
    PreFilterResult r;
    REQUIRE(p->pre_filter(state, *pod, r).ok());
    REQUIRE(p->reserve_devices(state, *pod, &node, &devices).ok());
    BindingChanges changes;
    REQUIRE(p->pre_bind(state, *pod, "node-1", changes).ok());
    CHECK(changes.annotations.at("scheduling.koordinator.sh/bind-timestamp") == "42");
    CHECK(changes.annotations.at("scheduling.koordinator.sh/gpu-minors") == "0,1");
    CHECK(changes.annotations.count("predicate-time") == 0);
    CHECK(changes.pod_patches == std::vector<std::string>{R"({"metadata":{"labels":{"hami.io/vgpu-node":"node-1"}}})"});
  }
  SECTION("Huawei NPUs") {
    auto p = make_plugin("devicePluginAdaption: true", [] { return int64_t{7}; });
    NodeDevices devices;
    devices.apply_device(device(canonical_infos(), {{"node.koordinator.sh/gpu-vendor", "huawei"}}));
    auto pod = PodSpecBuilder("npu").requests({{"nvidia.com/gpu", "2"}}).info();
    CycleState state;
    PreFilterResult r;
    REQUIRE(p->pre_filter(state, *pod, r).ok());
    REQUIRE(p->reserve_devices(state, *pod, &node, &devices).ok());
    BindingChanges changes;
    REQUIRE(p->pre_bind(state, *pod, "node-1", changes).ok());
    CHECK(changes.annotations.at("predicate-time") == "7");
    CHECK(changes.annotations.at("huawei.com/npu-core") == "0,1");
    CHECK(changes.pod_patches.empty());
  }
  SECTION("nodes without device state reserve nothing") {
    auto p = make_plugin();
    auto pod = PodSpecBuilder("x").requests({{"nvidia.com/gpu", "1"}}).info();
    CycleState state;
    PreFilterResult r;
    REQUIRE(p->pre_filter(state, *pod, r).ok());
    REQUIRE(p->reserve_devices(state, *pod, &node, nullptr).ok());
    BindingChanges changes;
    REQUIRE(p->pre_bind(state, *pod, "node-1", changes).ok());
    CHECK(changes.annotations.empty());
  }
  SECTION("Reserve fails like Filter") {
    auto p = make_plugin();
    NodeDevices devices = canonical_node();
    auto pod = PodSpecBuilder("x").requests({{"koordinator.sh/rdma", "500"}}).info();
    CycleState state;
    PreFilterResult r;
    REQUIRE(p->pre_filter(state, *pod, r).ok());
    PluginStatus s = p->reserve_devices(state, *pod, &node, &devices);
    CHECK(s.code == Code::unschedulable);
    CHECK(s.message() == "Insufficient rdma devices");
    CHECK(devices.pod_count() == 0);
  }
}

TEST_CASE("DeviceShare registers its requeue events", "[deviceshare][plugin]") {
  auto p = make_plugin();
  auto events = p->events_to_register();
  REQUIRE(events.size() == 2);
  CHECK(events[0].resource == EventResource::pod);
  CHECK(events[0].actions == kDelete);
  CHECK(events[1].label == "devices.v1alpha1.scheduling.koordinator.sh");
}

TEST_CASE("DeviceShare NUMA hints and Reserve within a NUMA affinity", "[deviceshare][plugin]") {
  const Node node = node_with({});
  auto pod = PodSpecBuilder("numa").requests({{"nvidia.com/gpu", "2"}}).info();
  for (const bool disabled : {false, true}) {
    INFO("disableDeviceNUMATopologyAlignment " << disabled);
    auto p = make_plugin(disabled ? "disableDeviceNUMATopologyAlignment: true" : "");
    NodeDevices devices = canonical_node();
    CycleState state;
    PreFilterResult r;
    REQUIRE(p->pre_filter(state, *pod, r).ok());
    NumaHints hints;
    REQUIRE(p->numa_hints(state, &node, &devices, hints).ok());
    CHECK(hints.size() == (disabled ? 0u : 1u));
    REQUIRE(p->reserve_devices(state, *pod, &node, &devices, uint64_t{0b10}).ok());
    BindingChanges changes;
    REQUIRE(p->pre_bind(state, *pod, "node-1", changes).ok());
    const auto allocated = decode_device_allocations(changes.annotations.at("scheduling.koordinator.sh/device-allocated"));
    REQUIRE(allocated);
    CHECK(allocated->at("gpu")[0].minor == (disabled ? 0 : 4));
    CHECK(allocated->at("gpu")[1].minor == (disabled ? 1 : 5));
  }
}
