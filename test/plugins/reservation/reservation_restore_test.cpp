// RestoreReservation views: a reservation's reserved devices and CPUs given
// back to a pod that may use it (what its other owners took stays used), and
// the restricted view in which nothing else is free.

#include <catch2/catch.hpp>

#include "../deviceshare/device_test_support.hpp"
#include "../node_numa_resource/numa_test_support.hpp"
#include "plugins/deviceshare/reservation_restore.hpp"
#include "plugins/node_numa_resource/reservation_restore.hpp"

using namespace troupe;
using namespace troupe::plugins;

namespace {

constexpr const char* kReservation = "ruid-train";

deviceshare::PodDevices whole_gpus(std::initializer_list<int32_t> minors) {
  deviceshare::PodDevices out;
  for (int32_t m : minors)
    out.by_type[0].push_back(deviceshare::AccountedDevice{
        m, deviceshare::DeviceAmounts::from_list(deviceshare::testing::list({{"koordinator.sh/gpu-core", "100"},
                                                                             {"koordinator.sh/gpu-memory-ratio", "100"},
                                                                             {"koordinator.sh/gpu-memory", "80Gi"}})),
        {}});
  return out;
}

/// Minors of the GPUs with free capacity.
std::set<int32_t> free_gpus(const deviceshare::NodeDevices& devices) {
  std::set<int32_t> out;
  for (const auto& slot : devices.devices(deviceshare::DeviceType::gpu).slots)
    if (slot.has_free()) out.insert(slot.minor);
  return out;
}

}  // namespace

TEST_CASE("restored_devices: the reservation's cards come back, its owners' stay used", "[reservation][restore]") {
  deviceshare::NodeDevices node = deviceshare::testing::canonical_node();
  REQUIRE(node.add_pod(kReservation, whole_gpus({2, 3}), "reserve pod"));
  REQUIRE(node.add_pod("owner", whole_gpus({2}), "default/owner"));
  REQUIRE(node.add_pod("stranger", whole_gpus({0}), "default/stranger"));
  struct Case {
    const char* what;
    std::vector<std::string> uids;
    bool only_reserved;
    std::set<int32_t> free;
  };
  const std::vector<Case> cases = {
      {"no reservation: the node as it is", {}, false, {1, 4, 5, 6, 7}},
      {"unknown reservation: nothing given back", {"ruid-other"}, false, {1, 4, 5, 6, 7}},
      {"given back: card 3 (card 2 is the owner's)", {kReservation}, false, {1, 3, 4, 5, 6, 7}},
      {"restricted: only the reservation's free card", {kReservation}, true, {3}},
      {"restricted, but nothing reserved: no type is restricted", {}, true, {1, 4, 5, 6, 7}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const deviceshare::NodeDevices view = deviceshare::restored_devices(node, c.uids, c.only_reserved);
    CHECK(free_gpus(view) == c.free);
  }
  // The node itself is untouched.
  CHECK(free_gpus(node) == std::set<int32_t>{1, 4, 5, 6, 7});
}

TEST_CASE("restored_devices: a restricted reservation restricts only the device types it holds",
          "[reservation][restore]") {
  deviceshare::NodeDevices node = deviceshare::testing::canonical_node();
  REQUIRE(node.add_pod(kReservation, whole_gpus({2, 3}), "reserve pod"));
  const deviceshare::NodeDevices view = deviceshare::restored_devices(node, {kReservation}, true);
  CHECK(free_gpus(view) == std::set<int32_t>{2, 3});
  for (auto type : {deviceshare::DeviceType::rdma, deviceshare::DeviceType::fpga}) {
    INFO("device type " << static_cast<int>(type));
    size_t free_on_node = 0, free_in_view = 0;
    for (const auto& slot : node.devices(type).slots) free_on_node += slot.has_free() ? 1 : 0;
    for (const auto& slot : view.devices(type).slots) free_in_view += slot.has_free() ? 1 : 0;
    CHECK(free_in_view == free_on_node);
  }
  size_t nics = 0;
  for (const auto& slot : view.devices(deviceshare::DeviceType::rdma).slots) nics += slot.has_free() ? 1 : 0;
  CHECK(nics > 0);  // the case is not vacuous
}

TEST_CASE("restore_cpus: the reservation's cpuset comes back, its owners' CPUs stay taken", "[reservation][restore]") {
  auto make = [] {
    numa::NodeCpus cpus;
    cpus.apply_topology(numa::testing::make_nrt(1, 2, 2));  // 8 CPUs: cores 0-3, siblings 4-7
    numa::PodAllocation reserved;
    reserved.cpus = CpuSet{0, 1, 4, 5};
    REQUIRE(cpus.add_allocation(kReservation, reserved));
    numa::PodAllocation owner;
    owner.cpus = CpuSet{0, 4};
    REQUIRE(cpus.add_allocation("owner", owner));
    return cpus;
  };
  struct Case {
    const char* what;
    std::vector<std::string> uids;
    bool only_reserved;
    CpuSet available;
  };
  const std::vector<Case> cases = {
      {"no reservation", {}, false, CpuSet{2, 3, 6, 7}},
      {"given back: core 1 (core 0 is the owner's)", {kReservation}, false, CpuSet{1, 2, 3, 5, 6, 7}},
      {"restricted: only the reservation's free CPUs", {kReservation}, true, CpuSet{1, 5}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    numa::NodeCpus cpus = make();
    numa::restore_cpus(cpus, c.uids, c.only_reserved);
    CHECK(cpus.available_cpus() == c.available);
  }
}

TEST_CASE("restored_devices: an owner's whole GPU comes from the reservation's free card", "[reservation][restore]") {
  deviceshare::NodeDevices node = deviceshare::testing::canonical_node();
  REQUIRE(node.add_pod(kReservation, whole_gpus({2, 3}), "reserve pod"));
  REQUIRE(node.add_pod("others", whole_gpus({0, 1, 4, 5, 6, 7}), "default/others"));
  REQUIRE(node.add_pod("owner", whole_gpus({2}), "default/owner"));
  const Pod pod = deviceshare::testing::PodSpecBuilder("owner-2").requests({{"nvidia.com/gpu", "1"}}).pod();
  struct Case {
    const char* what;
    std::vector<std::string> uids;
    bool only_reserved;
    std::string allocated;
  };
  const std::vector<Case> cases = {
      {"without the reservation: no card", {}, false, "Unschedulable: Insufficient GPU Devices"},
      {"restored", {kReservation}, false, "gpu:3"},
      {"restricted to the reservation", {kReservation}, true, "gpu:3"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const deviceshare::NodeDevices view = deviceshare::restored_devices(node, c.uids, c.only_reserved);
    CHECK(deviceshare::testing::allocate_text(view, pod) == c.allocated);
  }
}
