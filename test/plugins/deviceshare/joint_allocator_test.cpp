#include <catch2/catch.hpp>

#include "plugins/deviceshare/joint_allocator.hpp"
#include "plugins/deviceshare/numa_hints.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

Pod joint_pod(const Amounts& requests, const std::string& joint, const std::string& hint = "",
              const std::string& name = "joint") {
  PodSpecBuilder b(name);
  b.requests(requests);
  if (!joint.empty()) b.annotation("scheduling.koordinator.sh/device-joint-allocate", joint);
  if (!hint.empty()) b.annotation("scheduling.koordinator.sh/device-allocate-hint", hint);
  return b.pod();
}

const char* kSamePcie = R"({"deviceTypes":["gpu","rdma"],"requiredScope":"SamePCIe"})";
const char* kJointOnly = R"({"deviceTypes":["gpu","rdma"]})";

}  // namespace

TEST_CASE("GPU and RDMA joint allocation on the same PCIe switch", "[deviceshare][joint]") {
  const Amounts one = {{"koordinator.sh/gpu", "100"}, {"koordinator.sh/rdma", "100"}};
  SECTION("empty node") {
    NodeDevices n = canonical_node();
    CHECK(allocate_text(n, joint_pod(one, kSamePcie)) == "gpu:0 rdma:0");
    CHECK(allocate_text(n, joint_pod({{"nvidia.com/gpu", "4"}, {"koordinator.sh/rdma", "100"}}, kSamePcie)) ==
          "gpu:0,1,2,3 rdma:0,1");  // one NIC per switch of the GPUs
    CHECK(allocate_text(n, joint_pod({{"nvidia.com/gpu", "2"}, {"koordinator.sh/rdma", "100"}}, kSamePcie)) ==
          "gpu:0,1 rdma:0");
    CHECK(allocate_text(n, joint_pod(one, kSamePcie, R"({"rdma":{"vfSelector":{}}})")) == "gpu:0 rdma:0");
  }
  SECTION("the NIC follows the GPU") {
    NodeDevices n = canonical_node();
    reserve(n, PodSpecBuilder("busy").requests({{"nvidia.com/gpu", "2"}}).pod());  // GPUs 0, 1
    CHECK(allocate_text(n, joint_pod(one, kSamePcie)) == "gpu:2 rdma:1");
    reserve(n, PodSpecBuilder("nic1").requests({{"koordinator.sh/rdma", "100"}}).annotation(
                   "scheduling.koordinator.sh/device-allocate-hint", R"({"rdma":{"selector":{"matchLabels":{}}}})")
                   .pod());  // takes NIC 0 (first free)
    reserve(n, PodSpecBuilder("nic2").requests({{"koordinator.sh/rdma", "100"}}).pod());  // takes NIC 1
    CHECK(allocate_text(n, joint_pod(one, kSamePcie)) ==
          "Unschedulable: node(s) Device Joint-Allocate rules violation");
    CHECK(allocate_text(n, joint_pod(one, kJointOnly)) == "gpu:2 rdma:2");
    CHECK(allocate_text(n, joint_pod(one, "")) == "gpu:2 rdma:2");
  }
  SECTION("ApplyForAll types leave the joint allocation") {
    NodeDevices n = canonical_node();
    CHECK(allocate_text(n, joint_pod({{"koordinator.sh/gpu", "100"}, {"koordinator.sh/rdma", "1"}}, kSamePcie,
                                     R"({"rdma":{"allocateStrategy":"ApplyForAll"}})")) == "gpu:0 rdma:0,1,2,3");
    CHECK(allocate_text(n, joint_pod({{"koordinator.sh/gpu", "100"}}, kSamePcie)) == "gpu:0");
  }
}

TEST_CASE("Secondary devices of a well-planned node are allocated at Reserve only", "[deviceshare][joint]") {
  NodeDevices n;
  n.apply_device(device(canonical_infos(), {{"node.koordinator.sh/secondary-device-well-planned", "true"}}));
  reserve(n, PodSpecBuilder("all-nics").requests({{"koordinator.sh/rdma", "400"}}).pod());
  const Pod whole = joint_pod({{"koordinator.sh/gpu", "100"}, {"koordinator.sh/rdma", "100"}}, kSamePcie);
  const Pod shared = joint_pod({{"koordinator.sh/gpu", "50"}, {"koordinator.sh/rdma", "100"}}, kSamePcie);
  AllocateOptions reserve_phase;
  reserve_phase.reserve_phase = true;
  CHECK(allocate_text(n, whole) == "gpu:0");
  CHECK(allocate_text(n, whole, reserve_phase) == "Unschedulable: Insufficient rdma devices");
  CHECK(allocate_text(n, shared) == "Unschedulable: Insufficient rdma devices");
}

TEST_CASE("Allocation is deterministic", "[deviceshare][joint]") {
  NodeDevices n = canonical_node();
  reserve(n, PodSpecBuilder("s").requests({{"koordinator.sh/gpu", "30"}}).pod());
  const Pod pod = joint_pod({{"nvidia.com/gpu", "2"}, {"koordinator.sh/rdma", "1"}}, kSamePcie, R"({"rdma":{"vfSelector":{}}})");
  DeviceShareRequest r = prepared(pod);
  AllocationPlan first;
  REQUIRE(allocate_devices(n, r, {}, first).ok());
  for (int i = 0; i < 5; ++i) {
    NodeDevices copy = n;
    AllocationPlan again;
    REQUIRE(allocate_devices(copy, r, {}, again).ok());
    CHECK(again == first);
  }
  CHECK(describe(first) == "gpu:2,3 rdma:1");
}

TEST_CASE("NUMA subsets are enumerated smallest first", "[deviceshare][numa]") {
  CHECK(numa_subsets({}).empty());
  CHECK(numa_subsets({0}) == std::vector<uint64_t>{1});
  CHECK(numa_subsets({0, 1, 2}) == std::vector<uint64_t>{0b001, 0b010, 0b100, 0b011, 0b101, 0b110, 0b111});
  CHECK(numa_subsets({1, 3}) == std::vector<uint64_t>{0b0010, 0b1000, 0b1010});
}

TEST_CASE("NUMA hints for device requests", "[deviceshare][numa]") {
  NodeDevices n = canonical_node();
  auto hints_of = [&](const Pod& pod, NumaHints& out) {
    DeviceShareRequest r = prepared(pod);
    return generate_numa_hints(n, r, {}, out);
  };
  NumaHints hints;
  REQUIRE(hints_of(PodSpecBuilder().requests({{"nvidia.com/gpu", "2"}}).pod(), hints).ok());
  // {0} gives GPUs 0,1 = the allocation over both nodes (score 500); {1} gives 4,5.
  CHECK(hints == NumaHints{{"gpu", {{0b01, true, 500}, {0b10, true, 0}, {0b11, false, 500}}}});

  REQUIRE(hints_of(PodSpecBuilder().requests({{"nvidia.com/gpu", "6"}}).pod(), hints).ok());
  CHECK(hints == NumaHints{{"gpu", {{0b11, true, 500}}}});

  REQUIRE(hints_of(PodSpecBuilder().requests({{"nvidia.com/gpu", "1"}, {"koordinator.sh/rdma", "100"}}).pod(), hints).ok());
  const std::vector<NumaHint> expected = {{0b01, true, 500}, {0b10, true, 0}, {0b11, false, 500}};
  CHECK(hints == NumaHints{{"gpu", expected}, {"rdma", expected}});

  PluginStatus too_many = hints_of(PodSpecBuilder().requests({{"nvidia.com/gpu", "10"}}).pod(), hints);
  CHECK(too_many.code == Code::unschedulable_and_unresolvable);
  CHECK(too_many.message() == "Insufficient NUMA Scoped Devices");
  CHECK(hints.empty());

  // GPUs 0-3 busy: only NUMA node 1 can hold two more
  reserve(n, PodSpecBuilder("busy").requests({{"nvidia.com/gpu", "4"}}).pod());
  REQUIRE(hints_of(PodSpecBuilder().requests({{"nvidia.com/gpu", "2"}}).pod(), hints).ok());
  CHECK(hints == NumaHints{{"gpu", {{0b10, true, 500}, {0b11, false, 500}}}});

  NodeDevices no_topology;
  no_topology.apply_device(device({gpu(0), gpu(1)}));
  DeviceShareRequest r = prepared(PodSpecBuilder().requests({{"nvidia.com/gpu", "1"}}).pod());
  REQUIRE(generate_numa_hints(no_topology, r, {}, hints).ok());
  CHECK(hints.empty());
}
