#include <catch2/catch.hpp>

#include "plugins/deviceshare/designated_allocation.hpp"
#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "plugins/registry.hpp"
#include "test/plugins/builders.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"
#include "test/plugins/deviceshare/gpu_numa_node.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

constexpr const char* kHint = "internal.scheduling.koordinator.sh/scheduling-hint";
constexpr const char* kAllocated = "scheduling.koordinator.sh/device-allocated";
constexpr const char* kAllocateHint = "scheduling.koordinator.sh/device-allocate-hint";
constexpr const char* kExtension = R"({"extensions":{"DeviceShare":{}}})";

PodDevices devices_of(const std::string& json) {
  auto decoded = decode_device_allocations(json);
  INFO(json);
  REQUIRE(decoded);
  return pod_devices_from(*decoded);
}

std::string gpu_entry(int minor, const std::string& resources) {
  return R"({"minor":)" + std::to_string(minor) + R"(,"resources":{)" + resources + "}}";
}
const std::string kWhole = R"("koordinator.sh/gpu-core":"100","koordinator.sh/gpu-memory":"80Gi",)"
                           R"("koordinator.sh/gpu-memory-ratio":"100")";
const std::string kHalf = R"("koordinator.sh/gpu-core":"50","koordinator.sh/gpu-memory":"40Gi",)"
                          R"("koordinator.sh/gpu-memory-ratio":"50")";
std::string gpus(const std::vector<std::string>& entries) {
  std::string out = R"({"gpu":[)";
  for (size_t i = 0; i < entries.size(); ++i) out += (i > 0 ? "," : "") + entries[i];
  return out + "]}";
}
std::string nic(int minor, const std::string& vf_bus_id) {
  std::string out = R"({"rdma":[{"minor":)" + std::to_string(minor) + R"(,"resources":{"koordinator.sh/rdma":"1"})";
  if (!vf_bus_id.empty()) out += R"(,"extension":{"vfs":[{"busID":")" + vf_bus_id + R"("}]})";
  return out + "}]}";
}

const Amounts kOneGpu = {{"nvidia.com/gpu", "1"}};
const Amounts kHalfGpu = {{"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory-ratio", "50"}};
const Amounts kOneNic = {{"koordinator.sh/rdma", "1"}};

}  // namespace

TEST_CASE("a designation narrows what the allocator sees; the pod's request still decides",
          "[deviceshare][designated]") {
  struct Case {
    const char* name;
    std::string already;  // another pod's allocation on the node first ("" = none)
    std::string designated;
    Amounts request;
    bool vfs;          // the pod asks for a VF (device-allocate-hint vfSelector)
    const char* want;  // allocate_text: the devices, or "<Code>: <message>"
  };
  const std::vector<Case> cases = {
      {"a free whole GPU", "", gpus({gpu_entry(2, kWhole)}), kOneGpu, false, "gpu:2"},
      {"two named GPUs for two", "", gpus({gpu_entry(6, kWhole), gpu_entry(1, kWhole)}), {{"nvidia.com/gpu", "2"}},
       false, "gpu:1,6"},
      {"more named than asked: the allocator picks among them", "",
       gpus({gpu_entry(6, kWhole), gpu_entry(5, kWhole)}), kOneGpu, false, "gpu:5"},
      {"a minor the node lacks", "", gpus({gpu_entry(9, kWhole)}), kOneGpu, false,
       "Unschedulable: Insufficient GPU Devices"},
      {"a whole GPU half taken", gpus({gpu_entry(2, kHalf)}), gpus({gpu_entry(2, kWhole)}), kOneGpu, false,
       "Unschedulable: Insufficient GPU Devices"},
      {"the other half of it", gpus({gpu_entry(2, kHalf)}), gpus({gpu_entry(2, kHalf)}), kHalfGpu, false, "gpu:2"},
      {"less named than asked", "", gpus({gpu_entry(2, kHalf)}), kOneGpu, false,
       "Unschedulable: Insufficient GPU Devices"},
      {"more named than asked on one card", "", gpus({gpu_entry(2, kWhole)}), kHalfGpu, false, "gpu:2"},
      {"a ratio without memory is completed from the card", "",
       gpus({gpu_entry(3, R"("koordinator.sh/gpu-core":"100","koordinator.sh/gpu-memory-ratio":"100")")}), kOneGpu,
       false, "gpu:3"},
      {"no gpu-core named: none to take", "", gpus({gpu_entry(3, R"("koordinator.sh/gpu-memory-ratio":"100")")}),
       kOneGpu, false, "Unschedulable: Insufficient GPU Devices"},
      {"two named, one taken", gpus({gpu_entry(1, kWhole)}), gpus({gpu_entry(1, kWhole), gpu_entry(6, kWhole)}),
       {{"nvidia.com/gpu", "2"}}, false, "Unschedulable: Insufficient GPU Devices"},
      {"a named NIC", "", nic(3, ""), kOneNic, false, "rdma:3"},
      {"a named NIC and VF", "", nic(1, "0000:11:00.4"), kOneNic, true, "rdma:1"},
      {"a named VF already taken", nic(1, "0000:11:00.4"), nic(1, "0000:11:00.4"), kOneNic, true,
       "Unschedulable: Insufficient rdma devices"},
      {"a VF the NIC does not have", "", nic(1, "0000:99:00.1"), kOneNic, true,
       "Unschedulable: Insufficient rdma devices"},
      {"a type not named is not restricted", "", gpus({gpu_entry(2, kWhole)}), kOneNic, false, "rdma:0"},
      {"a named GPU and any NIC", "", gpus({gpu_entry(6, kWhole)}),
       {{"nvidia.com/gpu", "1"}, {"koordinator.sh/rdma", "1"}}, false, "gpu:6 rdma:0"},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      NodeDevices node = canonical_node();
      if (!c.already.empty()) REQUIRE(node.add_pod("other", devices_of(c.already)));
      PodSpecBuilder builder("designated");
      builder.requests(c.request);
      if (c.vfs) builder.annotation(kAllocateHint, R"({"rdma":{"vfSelector":{}}})");
      const NodeDevices view = designated_view(node, devices_of(c.designated));
      CHECK(allocate_text(view, builder.pod()) == c.want);
      // The node itself is untouched: the view is a copy.
      CHECK(node.pod_count() == (c.already.empty() ? 0u : 1u));
    }
  }
}

TEST_CASE("a designated VF is the one taken; without one the smallest free bus id", "[deviceshare][designated]") {
  NodeDevices node = canonical_node();
  const Pod pod = PodSpecBuilder("vf")
                      .requests(kOneNic)
                      .annotation(kAllocateHint, R"({"rdma":{"vfSelector":{}}})")
                      .pod();
  struct Case {
    std::string designated_vf;
    const char* want;
  };
  for (const Case& c : std::vector<Case>{{"0000:11:00.4", "0000:11:00.4"}, {"", "0000:11:00.2"}}) {
    INFO(c.designated_vf);
    NodeDevices view = designated_view(node, devices_of(nic(1, c.designated_vf)));
    const DeviceAllocations got = reserve(view, pod);
    REQUIRE(got.at("rdma").size() == 1);
    REQUIRE(got.at("rdma")[0].extension);
    REQUIRE(got.at("rdma")[0].extension->vfs.size() == 1);
    CHECK(got.at("rdma")[0].extension->vfs[0].bus_id == c.want);
  }
}

TEST_CASE("a pod designates only with the hint's DeviceShare extension and a readable annotation",
          "[deviceshare][designated]") {
  struct Case {
    const char* name;
    const char* hint;       // nullptr: none
    const char* allocated;  // nullptr: none
    bool designates;
    const char* error;  // a substring of the error, nullptr: none
  };
  const std::string whole2 = gpus({gpu_entry(2, kWhole)});
  const std::vector<Case> cases = {
      {"no hint", nullptr, whole2.c_str(), false, nullptr},
      {"a hint for other plugins", R"({"extensions":{"Reservation":{}}})", whole2.c_str(), false, nullptr},
      {"a hint without extensions", R"({"nodeNames":["node-1"]})", whole2.c_str(), false, nullptr},
      {"the extension and the annotation", kExtension, whole2.c_str(), true, nullptr},
      {"the extension without an annotation", kExtension, nullptr, false, nullptr},
      {"an empty annotation", kExtension, "{}", false, nullptr},
      {"only types troupe does not know", kExtension, R"({"npu":[{"minor":0,"resources":{}}]})", false, nullptr},
      {"a malformed annotation", kExtension, "{not json", false, kAllocated},
      {"a malformed hint is SchedulingHint's to report", R"({"extensions":[]})", whole2.c_str(), false, nullptr},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      ObjectMeta meta;
      if (c.hint != nullptr) meta.annotations[kHint] = c.hint;
      if (c.allocated != nullptr) meta.annotations[kAllocated] = c.allocated;
      auto got = designated_devices_of(meta);
      if (c.error != nullptr) {
        REQUIRE_FALSE(got);
        CHECK_THAT(got.message(), Catch::Contains(c.error));
        continue;
      }
      REQUIRE(got);
      CHECK((*got != nullptr) == c.designates);
    }
  }
}

namespace {

// Kubelet keeps all of NUMA node 0's CPUs: an LSR pod's CPUs and GPUs can
// only be on NUMA node 1 (GPUs 4-7).
NodeInfo aligned_node() { return gpu_numa_node("0-3,8-11"); }

std::shared_ptr<const PodInfo> designated_lsr_pod(const std::string& designated, bool extension = true) {
  PodSpecBuilder builder("train");
  builder.requests({{"cpu", "2"}, {"memory", "1Gi"}, {"nvidia.com/gpu", "1"}})
      .label("koordinator.sh/qosClass", "LSR")
      .annotation(kAllocated, designated);
  if (extension) builder.annotation(kHint, kExtension);
  Pod pod = builder.pod();
  pod.spec.priority = 9500;
  return PodInfo::make(std::move(pod));
}

/// PreFilter, Filter, Reserve and PreBind of the default profile, each required to pass.
BindingChanges place(const Framework& fw, const std::shared_ptr<const PodInfo>& pod, NodeInfo& node) {
  auto state = fw.new_cycle_state();
  REQUIRE(fw.run_pre_filter(*state, *pod).ok());
  REQUIRE(fw.run_filter(*state, *pod, node).ok());
  REQUIRE(fw.run_reserve(*state, pod, node).ok());
  BindingChanges changes;
  REQUIRE(fw.run_pre_bind(*state, *pod, "node-1", changes).ok());
  return changes;
}

const Framework& default_profile() {
  static const auto frameworks = [] {
    auto config = parse_scheduler_configuration("apiVersion: kubescheduler.config.k8s.io/v1\n"
                                                "kind: KubeSchedulerConfiguration\n");
    REQUIRE(config);
    auto built = make_frameworks(*config);
    REQUIRE(built);
    return std::move(*built);
  }();
  return frameworks[0];
}

}  // namespace

TEST_CASE("the default profile places a designated pod on its devices, NUMA alignment included",
          "[deviceshare][designated][numa][registry]") {
  const Framework& fw = default_profile();

  SECTION("a GPU on the NUMA node the CPUs can use: taken, with its id") {
    NodeInfo node = aligned_node();
    auto pod = designated_lsr_pod(gpus({gpu_entry(6, kWhole)}));
    const BindingChanges changes = place(fw, pod, node);
    CHECK(changes.annotations.at(kAllocated) == R"({"gpu":[{"minor":6,"resources":{)" + kWhole + R"(},"id":"GPU-6"}]})");
    // Accounted on the node itself, under the pod.
    const auto* devices = node.extension<NodeDevices>(NodeExtensionSlot::kDevices);
    CHECK(devices->has_pod(pod_identity(*pod)));
    CHECK(devices->pod_count() == 1);
  }
  SECTION("a GPU on the NUMA node whose CPUs kubelet keeps: no aligned placement") {
    NodeInfo node = aligned_node();
    auto pod = designated_lsr_pod(gpus({gpu_entry(1, kWhole)}));
    auto state = fw.new_cycle_state();
    REQUIRE(fw.run_pre_filter(*state, *pod).ok());
    CHECK_FALSE(fw.run_filter(*state, *pod, node).ok());
  }
  SECTION("without the extension the annotation is ignored and the GPUs follow the CPUs") {
    NodeInfo node = aligned_node();
    auto pod = designated_lsr_pod(gpus({gpu_entry(1, kWhole)}), /*extension=*/false);
    const BindingChanges changes = place(fw, pod, node);
    CHECK(changes.annotations.at(kAllocated).find(R"("minor":4)") != std::string::npos);
  }
  SECTION("a designated GPU another pod took: Filter says so, Reserve too") {
    NodeInfo node = aligned_node();
    node.mutable_extension<NodeDevices>(NodeExtensionSlot::kDevices)
        ->add_pod("other", devices_of(gpus({gpu_entry(6, kHalf)})));
    auto pod = designated_lsr_pod(gpus({gpu_entry(6, kWhole)}));
    auto state = fw.new_cycle_state();
    REQUIRE(fw.run_pre_filter(*state, *pod).ok());
    PluginStatus filtered = fw.run_filter(*state, *pod, node);
    CHECK_FALSE(filtered.ok());
    // Reserve (a pod whose node changed after Filter) fails too, and takes nothing.
    CHECK_FALSE(fw.run_reserve(*state, pod, node).ok());
    const auto* devices = node.extension<NodeDevices>(NodeExtensionSlot::kDevices);
    CHECK_FALSE(devices->has_pod(pod_identity(*pod)));
    CHECK(devices->pod_count() == 1);
  }
  SECTION("Unreserve gives the designated devices back") {
    NodeInfo node = aligned_node();
    auto pod = designated_lsr_pod(gpus({gpu_entry(6, kWhole)}));
    auto state = fw.new_cycle_state();
    REQUIRE(fw.run_pre_filter(*state, *pod).ok());
    REQUIRE(fw.run_reserve(*state, pod, node).ok());
    const auto* devices = node.extension<NodeDevices>(NodeExtensionSlot::kDevices);
    REQUIRE(devices->devices(DeviceType::gpu).find(6)->has_free() == false);
    fw.run_unreserve(*state, *pod, node);
    CHECK(devices->pod_count() == 0);
    CHECK(devices->devices(DeviceType::gpu).find(6)->has_free());
  }
}

TEST_CASE("a designated GPU decides the NUMA node of the pod's CPUs", "[deviceshare][designated][numa][registry]") {
  // Both NUMA nodes' CPUs are free: the designated GPU's NUMA hint decides.
  const Framework& fw = default_profile();
  struct Case {
    int minor;
    const char* cpuset;
  };
  for (const Case& c : std::vector<Case>{{6, "4,12"}, {1, "0,8"}}) {
    INFO(c.minor);
    NodeInfo node = gpu_numa_node("");
    auto pod = designated_lsr_pod(gpus({gpu_entry(c.minor, kWhole)}));
    const BindingChanges changes = place(fw, pod, node);
    CHECK_THAT(changes.annotations.at("scheduling.koordinator.sh/resource-status"),
               Catch::StartsWith(std::string(R"({"cpuset":")") + c.cpuset + "\""));
    CHECK_THAT(changes.annotations.at(kAllocated), Catch::Contains(R"("minor":)" + std::to_string(c.minor)));
  }
}
