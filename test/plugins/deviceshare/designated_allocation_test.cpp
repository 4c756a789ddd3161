#include <catch2/catch.hpp>

#include "plugins/deviceshare/designated_allocation.hpp"
#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

constexpr const char* kHint = "internal.scheduling.koordinator.sh/scheduling-hint";

DeviceAllocations allocations(const std::string& json) {
  auto decoded = decode_device_allocations(json);
  REQUIRE(decoded);
  return *decoded;
}

const std::string kWholeGpu2 =
    R"({"gpu":[{"minor":2,"resources":{"koordinator.sh/gpu-core":"100","koordinator.sh/gpu-memory":"80Gi",)"
    R"("koordinator.sh/gpu-memory-ratio":"100"}}]})";
const std::string kHalfGpu2 =
    R"({"gpu":[{"minor":2,"resources":{"koordinator.sh/gpu-core":"50","koordinator.sh/gpu-memory":"40Gi",)"
    R"("koordinator.sh/gpu-memory-ratio":"50"}}]})";

}  // namespace

TEST_CASE("a designated allocation fits only where exactly its devices are free", "[deviceshare][designated]") {
  struct Case {
    const char* name;
    std::string already;  // another pod's allocation on the node first ("" = none)
    std::string designated;
    const char* error;  // nullptr: fits
  };
  const std::vector<Case> cases = {
      {"a free whole GPU", "", kWholeGpu2, nullptr},
      {"a minor the node lacks", "", R"({"gpu":[{"minor":9,"resources":{"koordinator.sh/gpu-core":"100"}}]})",
       "Insufficient gpu devices"},
      {"a whole GPU half taken", kHalfGpu2, kWholeGpu2, "Insufficient gpu devices"},
      {"the other half of it", kHalfGpu2, kHalfGpu2, nullptr},
      {"two GPUs, one taken", kWholeGpu2,
       R"({"gpu":[{"minor":1,"resources":{"koordinator.sh/gpu-core":"100"}},)"
       R"({"minor":2,"resources":{"koordinator.sh/gpu-core":"100"}}]})",
       "Insufficient gpu devices"},
      {"a NIC with a free VF", "",
       R"({"rdma":[{"minor":0,"resources":{"koordinator.sh/rdma":"1"},"extension":{"vfs":[{"busID":"0000:10:00.3"}]}}]})",
       nullptr},
      {"a VF already taken",
       R"({"rdma":[{"minor":0,"resources":{"koordinator.sh/rdma":"1"},"extension":{"vfs":[{"busID":"0000:10:00.3"}]}}]})",
       R"({"rdma":[{"minor":0,"resources":{"koordinator.sh/rdma":"1"},"extension":{"vfs":[{"busID":"0000:10:00.3"}]}}]})",
       "Insufficient rdma VirtualFunctions"},
      {"a VF the NIC does not have", "",
       R"({"rdma":[{"minor":0,"resources":{"koordinator.sh/rdma":"1"},"extension":{"vfs":[{"busID":"0000:99:00.1"}]}}]})",
       "Insufficient rdma VirtualFunctions"},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      NodeDevices node = canonical_node();
      if (!c.already.empty()) node.add_pod("other", pod_devices_from(allocations(c.already)));
      PluginStatus status = designated_fits(node, allocations(c.designated));
      if (c.error == nullptr) {
        CHECK(status.ok());
      } else {
        CHECK(status.message() == c.error);
        CHECK(status.code == Code::unschedulable);
      }
    }
  }
}

TEST_CASE("a designated allocation's NUMA hint is where its devices sit", "[deviceshare][designated]") {
  NodeDevices node = canonical_node();  // GPU m on NUMA node m/4, NIC m on NUMA node m/2
  NumaHints hints;
  REQUIRE(designated_numa_hints(node,
                                allocations(R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"100"}},)"
                                            R"({"minor":5,"resources":{"koordinator.sh/gpu-core":"100"}}],)"
                                            R"("rdma":[{"minor":1,"resources":{"koordinator.sh/rdma":"1"}}]})"),
                                hints)
              .ok());
  CHECK(hints == NumaHints{{"gpu", {NumaHint{0b11, true, 0}}}, {"rdma", {NumaHint{0b01, true, 0}}}});

  NodeDevices flat;  // no topology: no NUMA node to name
  flat.apply_device(device({gpu(0)}));
  PluginStatus lacking =
      designated_numa_hints(flat, allocations(R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"100"}}]})"),
                            hints);
  CHECK(lacking.message() == kErrDesignatedAllocationLackNuma);
}

TEST_CASE("Reserve records a designated allocation with its devices' ids", "[deviceshare][designated]") {
  const NodeDevices node = canonical_node();
  const auto recorded = with_device_ids(node, allocations(kWholeGpu2));
  CHECK(recorded.at("gpu").at(0).id == "GPU-2");
  const auto kept = with_device_ids(node, allocations(R"({"gpu":[{"minor":2,"id":"mine"}]})"));
  CHECK(kept.at("gpu").at(0).id == "mine");
}

TEST_CASE("DeviceShare designates only with the hint's DeviceShare extension", "[deviceshare][designated]") {
  auto plugin = std::make_shared<DeviceShare>(DeviceShareArgs{}, [] { return int64_t{1}; });
  plugin->set_state_slot(0);
  NodeDevices node_devices = canonical_node();
  node_devices.add_pod("other", pod_devices_from(allocations(kHalfGpu2)));  // minor 2 half taken
  Node node;
  node.meta.name = "node-1";
  struct Case {
    const char* name;
    std::string hint;  // "" = none
    const char* filter_error;  // with the annotation designating the whole of minor 2
  };
  const std::vector<Case> cases = {
      // Without the extension the allocator chooses (another GPU is free): the annotation is ignored.
      {"no hint", "", nullptr},
      {"a hint for other plugins", R"({"extensions":{"Reservation":{}}})", nullptr},
      {"a DeviceShare extension", R"({"nodeNames":["node-1"],"extensions":{"DeviceShare":{}}})",
       "Insufficient gpu devices"},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      auto builder = PodSpecBuilder("designated")
                         .requests({{"nvidia.com/gpu", "1"}})
                         .annotation("scheduling.koordinator.sh/device-allocated", kWholeGpu2);
      if (!c.hint.empty()) builder.annotation(kHint, c.hint);
      auto pod = builder.info();
      CycleState state;
      PreFilterResult result;
      REQUIRE(plugin->pre_filter(state, *pod, result).ok());
      PluginStatus filtered = plugin->filter_devices(state, &node, &node_devices);
      if (c.filter_error == nullptr) CHECK(filtered.ok());
      else CHECK(filtered.message() == c.filter_error);
    }
  }
  SECTION("a malformed annotation turns the pod away, naming it") {
    auto pod = PodSpecBuilder("bad")
                   .requests({{"nvidia.com/gpu", "1"}})
                   .annotation(kHint, R"({"extensions":{"DeviceShare":{}}})")
                   .annotation("scheduling.koordinator.sh/device-allocated", "{not json")
                   .info();
    CycleState state;
    PreFilterResult result;
    PluginStatus status = plugin->pre_filter(state, *pod, result);
    INFO(status.message());
    CHECK(status.code == Code::unschedulable_and_unresolvable);  // as every pod with a malformed annotation
    CHECK_THAT(status.message(), Catch::Contains("scheduling.koordinator.sh/device-allocated"));
  }
}
