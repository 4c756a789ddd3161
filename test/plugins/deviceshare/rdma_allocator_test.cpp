#include <catch2/catch.hpp>

#include "plugins/deviceshare/deviceshare_args.hpp"
#include "plugins/deviceshare/rdma_allocator.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

Pod nic(const std::string& amount, const std::string& hint = "", const std::string& name = "nic") {
  PodSpecBuilder b(name);
  b.requests({{"koordinator.sh/rdma", amount}});
  if (!hint.empty()) b.annotation("scheduling.koordinator.sh/device-allocate-hint", R"({"rdma":)" + hint + "}");
  return b.pod();
}

// Per-instance rdma amount of the plan, as written in the annotation.
std::string per_device(const NodeDevices& n, const Pod& pod) {
  DeviceShareRequest r = prepared(pod);
  AllocationPlan plan;
  REQUIRE(allocate_devices(n, r, {}, plan).ok());
  auto a = to_device_allocations(plan, n, r);
  REQUIRE(a);
  return a->at("rdma").front().resources.to_string();
}

NodeDevices labelled_nics() {
  NodeDevices n;
  n.apply_device(device({rdma(0, std::make_pair(0, "pci0"), 2, {{"type", "a"}}),
                         rdma(1, std::make_pair(0, "pci1"), 2, {{"type", "b"}}),
                         rdma(2, std::make_pair(1, "pci2"), 2, {{"type", "b"}}, {{"pf", "2"}})}));
  return n;
}

}  // namespace

TEST_CASE("RDMA requests: count and amount per device", "[deviceshare][rdma]") {
  NodeDevices n = canonical_node();
  struct Case {
    const char* name;
    Pod pod;
    std::string expected;
    std::string per_device;  // "" when the allocation fails
  };
  const std::vector<Case> cases = {
      {"one whole NIC", nic("100"), "rdma:0", "{koordinator.sh/rdma: 100}"},
      {"part of a NIC, as written", nic("1"), "rdma:0", "{koordinator.sh/rdma: 1}"},
      {"multiples of 100 take whole NICs", nic("200"), "rdma:0,1", "{koordinator.sh/rdma: 100}"},
      {"more NICs than the node has", nic("500"), "Unschedulable: Insufficient rdma devices", ""},
      {"RequestsAsCount", nic("3", R"({"allocateStrategy":"RequestsAsCount"})"), "rdma:0,1,2",
       "{koordinator.sh/rdma: 1}"},
      {"RequestsAsCount, DeviceLevel", nic("2", R"({"allocateStrategy":"RequestsAsCount","exclusivePolicy":"DeviceLevel"})"),
       "rdma:0,1", "{koordinator.sh/rdma: 100}"},
      {"ApplyForAll", nic("1", R"({"allocateStrategy":"ApplyForAll"})"), "rdma:0,1,2,3", "{koordinator.sh/rdma: 1}"},
      {"a multiple of 100 wins over the hint", nic("200", R"({"allocateStrategy":"ApplyForAll"})"), "rdma:0,1",
       "{koordinator.sh/rdma: 100}"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(allocate_text(n, c.pod) == c.expected);
    if (!c.per_device.empty()) CHECK(per_device(n, c.pod) == c.per_device);
  }
}

TEST_CASE("RDMA selectors and ApplyForAll with a selector", "[deviceshare][rdma]") {
  NodeDevices n = labelled_nics();
  CHECK(allocate_text(n, nic("100", R"({"selector":{"matchLabels":{"type":"b"}}})")) == "rdma:1");
  CHECK(allocate_text(n, nic("1", R"({"allocateStrategy":"ApplyForAll","selector":{"matchLabels":{"type":"b"}}})")) ==
        "rdma:1,2");
  CHECK(allocate_text(n, nic("1", R"({"allocateStrategy":"ApplyForAll","selector":{"matchLabels":{"type":"c"}}})")) ==
        "UnschedulableAndUnresolvable: Insufficient rdma devices");
  CHECK(allocate_text(n, nic("100", R"({"selector":{"matchLabels":{"type":"c"}}})")) ==
        "Unschedulable: Insufficient rdma devices");
  CHECK(allocate_text(n, nic("100", R"({"selector":{"matchExpressions":[{"key":"type","operator":"NotIn","values":["a"]}]}})")) ==
        "rdma:1");
}

TEST_CASE("Virtual functions: the smallest free bus id of a matching group", "[deviceshare][rdma]") {
  NodeDevices n = canonical_node(/*vfs_per_nic=*/2);
  const std::string vf = R"({"vfSelector":{}})";
  auto first = reserve(n, nic("1", vf, "a"));
  CHECK(encode_device_allocations(first) ==
        R"({"rdma":[{"minor":0,"resources":{"koordinator.sh/rdma":"1"},"id":"0000:10:00.0",)"
        R"("extension":{"vfs":[{"minor":-1,"busID":"0000:10:00.2"}]}}]})");
  auto second = reserve(n, nic("1", vf, "b"));
  CHECK(second.at("rdma")[0].extension->vfs[0].bus_id == "0000:10:00.3");
  auto third = reserve(n, nic("1", vf, "c"));  // NIC 0 has room but no VF left
  CHECK(third.at("rdma")[0].minor == 1);
  CHECK(third.at("rdma")[0].extension->vfs[0].bus_id == "0000:11:00.2");
  // Releasing a pod frees its VF again.
  REQUIRE(n.remove_pod("uid-a"));
  auto again = reserve(n, nic("1", vf, "d"));
  CHECK(again.at("rdma")[0].minor == 0);
  CHECK(again.at("rdma")[0].extension->vfs[0].bus_id == "0000:10:00.2");

  NodeDevices labelled = labelled_nics();
  CHECK(allocate_text(labelled, nic("1", R"({"vfSelector":{"matchLabels":{"pf":"2"}}})")) == "rdma:2");
  CHECK(allocate_text(labelled, nic("1", R"({"vfSelector":{"matchLabels":{"pf":"3"}}})")) ==
        "Unschedulable: Insufficient rdma devices");
  NodeDevices no_vfs = canonical_node(/*vfs_per_nic=*/0);
  CHECK(allocate_text(no_vfs, nic("1", vf)) == "UnschedulableAndUnresolvable: Insufficient rdma VirtualFunctions");
}

TEST_CASE("PCIe-level exclusivity takes only idle switches", "[deviceshare][rdma]") {
  NodeDevices n = canonical_node();
  reserve(n, nic("1", "", "small"));  // NIC 0 partly used
  const std::string exclusive = R"({"exclusivePolicy":"PCIeLevel"})";
  CHECK(allocate_text(n, nic("100", exclusive)) == "rdma:1");
  CHECK(allocate_text(n, nic("100")) == "rdma:1");  // NIC 0 has only 99 left anyway
  CHECK(allocate_text(n, nic("1")) == "rdma:0");
  CHECK(allocate_text(n, nic("1", exclusive)) == "rdma:1");
  reserve(n, nic("1", "", "s1"));
  reserve(n, nic("1", "", "s2"));
  reserve(n, nic("1", "", "s3"));
  for (const auto& slot : n.devices(DeviceType::rdma).slots) REQUIRE(slot.view_used() == (slot.minor == 0));
  // s1..s3 all went to NIC 0 (minor order without a scorer); NICs 1-3 stay idle
  CHECK(allocate_text(n, nic("300", exclusive)) == "rdma:1,2,3");
  CHECK(allocate_text(n, nic("400", exclusive)) == "Unschedulable: Insufficient rdma devices");
}

TEST_CASE("RDMA device order follows the scoring strategy", "[deviceshare][rdma]") {
  NodeDevices n = canonical_node();
  reserve(n, nic("1", "", "small"));
  const DeviceScorer least(ScoringStrategy::least_allocated, DeviceShareArgs::default_scoring_resources());
  const DeviceScorer most(ScoringStrategy::most_allocated, DeviceShareArgs::default_scoring_resources());
  CHECK(allocate_text(n, nic("1"), scored_by(least)) == "rdma:1");
  CHECK(allocate_text(n, nic("1"), scored_by(most)) == "rdma:0");
  CHECK(allocate_text(n, nic("200"), scored_by(most)) == "rdma:1,2");
}

TEST_CASE("NUMA restriction and missing devices", "[deviceshare][rdma]") {
  NodeDevices n = canonical_node();
  AllocateOptions numa1;
  numa1.numa_nodes = 0x2;
  CHECK(allocate_text(n, nic("100"), numa1) == "rdma:2");
  CHECK(allocate_text(n, nic("300"), numa1) == "Unschedulable: Insufficient rdma devices");

  NodeDevices gpus_only;
  gpus_only.apply_device(device({gpu(0)}));
  CHECK(allocate_text(gpus_only, nic("100")) == "UnschedulableAndUnresolvable: Insufficient rdma devices");

  NodeDevices fpgas;
  DeviceInfo f;
  f.type = "fpga";
  f.minor = 0;
  f.health = true;
  f.resources = list({{"koordinator.sh/fpga", "100"}});
  DeviceInfo f1 = f;
  f1.minor = 1;
  fpgas.apply_device(device({f, f1}));
  CHECK(allocate_text(fpgas, PodSpecBuilder().requests({{"koordinator.sh/fpga", "100"}}).pod()) == "fpga:0");
  CHECK(allocate_text(fpgas, PodSpecBuilder().requests({{"koordinator.sh/fpga", "200"}}).pod()) == "fpga:0,1");
}
