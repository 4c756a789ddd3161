// RestoreReservation views: a reservation's reserved devices and CPUs given
// back to a pod that may use it (what its other owners took stays used), and
// the restricted view in which nothing else is free; what Score rates a node
// by.

#include <catch2/catch.hpp>

#include "../deviceshare/device_test_support.hpp"
#include "../node_numa_resource/numa_test_support.hpp"
#include "plugins/deviceshare/reservation_restore.hpp"
#include "plugins/node_numa_resource/reservation_restore.hpp"
#include "reservation_test_support.hpp"

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

namespace {

deviceshare::PodDevices gpu_share(int32_t minor, const char* core) {
  deviceshare::PodDevices out;
  out.by_type[0].push_back(deviceshare::AccountedDevice{
      minor,
      deviceshare::DeviceAmounts::from_list(deviceshare::testing::list(
          {{"koordinator.sh/gpu-core", core}, {"koordinator.sh/gpu-memory-ratio", core}})),
      {}});
  return out;
}

int64_t free_core(const deviceshare::NodeDevices& devices, int32_t minor) {
  for (const auto& slot : devices.devices(deviceshare::DeviceType::gpu).slots)
    if (slot.minor == minor) return slot.free().milli(deviceshare::DeviceResource::gpu_core) / 1000;
  return -1;
}

/// Node n: reservation "train" (only pods labelled job=train may use it)
/// holds half of card 2 and 60% of card 3; its owner uses 30% of card 2 and
/// 70% of card 3 (more than the hold there); a stranger uses 10% of card 2.
NodeInfo node_with_shared_reservation(const std::string& policy = "") {
  using reservation::testing::ReservationBuilder;
  ReservationOwner only_train;
  only_train.label_selector = *parse_label_selector("job=train");
  NodeInfo node = plugins::testing::NodeBuilder("n").info();
  node.set_extension(NodeExtensionSlot::kReservations, std::make_unique<reservation::NodeReservations>());
  auto* held = node.mutable_extension<reservation::NodeReservations>(NodeExtensionSlot::kReservations);
  REQUIRE(held->apply_reservation(
      ReservationBuilder("train").owners({only_train}).allocate_once(false).policy(policy).ptr()));
  REQUIRE(held->assume_pod(kReservation, "owner", {}));
  deviceshare::NodeDevices devices = deviceshare::testing::canonical_node();
  deviceshare::PodDevices hold = gpu_share(2, "50");
  hold.by_type[0].push_back(gpu_share(3, "60").by_type[0][0]);
  deviceshare::PodDevices owner = gpu_share(2, "30");
  owner.by_type[0].push_back(gpu_share(3, "70").by_type[0][0]);
  REQUIRE(devices.add_pod(kReservation, hold, "reserve pod"));
  REQUIRE(devices.add_pod("owner", owner, "default/owner"));
  REQUIRE(devices.add_pod("stranger", gpu_share(2, "10"), "default/stranger"));
  node.set_extension(NodeExtensionSlot::kDevices, std::make_unique<deviceshare::NodeDevices>(devices));
  return node;
}

}  // namespace

TEST_CASE("owners_counted_once: an owner's use inside a shared hold counts once for other pods",
          "[reservation][restore]") {
  const NodeInfo node = node_with_shared_reservation();
  const auto& devices = *node.extension<deviceshare::NodeDevices>(NodeExtensionSlot::kDevices);
  // As accounted: card 2 = 50 held + 30 owner + 10 stranger; card 3 = 60 held + 70 owner (over 100).
  CHECK(free_core(devices, 2) == 10);
  CHECK(free_core(devices, 3) == 0);
  CHECK(deviceshare::owners_use_kept_holds(devices, node, {}));
  CHECK_FALSE(deviceshare::owners_use_kept_holds(devices, node, {kReservation}));  // its hold given back whole

  // Counted once: the hold keeps what its owner left (20 of card 2, none of card 3).
  const deviceshare::NodeDevices once = deviceshare::owners_counted_once(devices, node, {});
  CHECK(free_core(once, 2) == 40);
  CHECK(free_core(once, 3) == 30);
  CHECK(free_core(once, 5) == 100);
  CHECK(once.has_pod("owner"));
  CHECK(once.has_pod("stranger"));

  // A pod that may not use the reservation filters on that view; one that may
  // gets the hold back whole (its owner's use still taken).
  const Pod stranger = plugins::testing::PodBuilder("other").pod();
  auto stranger_view = deviceshare::reserved_filter_view(*PodInfo::make(stranger), node);
  REQUIRE(stranger_view);
  CHECK(free_core(*stranger_view, 2) == 40);
  Pod trainee = plugins::testing::PodBuilder("trainee").pod();
  trainee.meta.labels["job"] = "train";
  auto trainee_view = deviceshare::reserved_filter_view(*PodInfo::make(trainee), node);
  REQUIRE(trainee_view);
  CHECK(free_core(*trainee_view, 2) == 60);
  CHECK(free_core(*trainee_view, 3) == 30);
}

TEST_CASE("owners_counted_once: nothing to change without owners using a hold", "[reservation][restore]") {
  NodeInfo node = node_with_shared_reservation();
  auto* devices = node.mutable_extension<deviceshare::NodeDevices>(NodeExtensionSlot::kDevices);
  REQUIRE(devices->remove_pod("owner"));
  CHECK_FALSE(deviceshare::owners_use_kept_holds(*devices, node, {}));
  const Pod stranger = plugins::testing::PodBuilder("other").pod();
  CHECK_FALSE(deviceshare::reserved_filter_view(*PodInfo::make(stranger), node));
}

TEST_CASE("a Restricted reservation gives an owner no more of a card than its hold has left",
          "[reservation][restore]") {
  const NodeInfo node = node_with_shared_reservation("Restricted");
  Pod trainee = plugins::testing::PodBuilder("trainee").pod();
  trainee.meta.labels["job"] = "train";
  // Card 2: 60 free once the hold is back, but the hold has 50 - 30 = 20 left;
  // card 3: 30 free, nothing left of the hold (its owner took more than it).
  // The other cards are not the reservation's: blocked.
  auto view = deviceshare::reserved_filter_view(*PodInfo::make(trainee), node);
  REQUIRE(view);
  CHECK(free_core(*view, 2) == 20);
  CHECK(free_core(*view, 3) == 0);
  CHECK(free_core(*view, 5) == 0);
  // Aligned: the whole free part of the card.
  auto aligned = deviceshare::reserved_filter_view(*PodInfo::make(trainee), node_with_shared_reservation("Aligned"));
  REQUIRE(aligned);
  CHECK(free_core(*aligned, 2) == 60);
  CHECK(free_core(*aligned, 5) == 100);
}

TEST_CASE("reserved_score_view: what Score rates a node by, reservations given back as upstream's Score",
          "[reservation][restore]") {
  const NodeInfo restricted = node_with_shared_reservation("Restricted");
  const Pod stranger = plugins::testing::PodBuilder("other").pod();
  Pod trainee = plugins::testing::PodBuilder("trainee").pod();
  trainee.meta.labels["job"] = "train";
  // A stranger: the owner's use inside the hold counts once (mergedUnmatchedUsed).
  auto for_stranger = deviceshare::reserved_score_view(*PodInfo::make(stranger), restricted);
  REQUIRE(for_stranger);
  CHECK(free_core(*for_stranger, 2) == 40);
  CHECK(free_core(*for_stranger, 3) == 30);
  // An owner: the hold back whole (mergedMatchedAllocatable), and unlike
  // Filter's Restricted view the rest of the node is not blocked.
  auto for_trainee = deviceshare::reserved_score_view(*PodInfo::make(trainee), restricted);
  REQUIRE(for_trainee);
  CHECK(free_core(*for_trainee, 2) == 60);
  CHECK(free_core(*for_trainee, 3) == 30);
  CHECK(free_core(*for_trainee, 5) == 100);
  // No owner using a hold and no reservation to use: the node as it is.
  NodeInfo plain = node_with_shared_reservation();
  REQUIRE(plain.mutable_extension<deviceshare::NodeDevices>(NodeExtensionSlot::kDevices)->remove_pod("owner"));
  CHECK_FALSE(deviceshare::reserved_score_view(*PodInfo::make(stranger), plain));

  // DeviceShare's Score reads that view, not the node as accounted.
  deviceshare::DeviceShareArgs args = deviceshare::DeviceShareArgs::from_yaml(
      YAML::Load("scoringStrategy: {type: MostAllocated, resources: [{name: koordinator.sh/gpu-core, weight: 1}]}"));
  deviceshare::DeviceShare plugin(args, [] { return int64_t{1700000000000000000}; });
  plugin.set_state_slot(0);
  Pod shared = deviceshare::testing::PodSpecBuilder("half")
                   .requests({{"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory-ratio", "50"}})
                   .pod();
  auto info = PodInfo::make(shared);
  CycleState state;
  PreFilterResult pre;
  REQUIRE(plugin.pre_filter(state, *info, pre).ok());
  const auto& accounted = *restricted.extension<deviceshare::NodeDevices>(NodeExtensionSlot::kDevices);
  auto view = deviceshare::reserved_score_view(*info, restricted);
  REQUIRE(view);
  const int64_t on_view = plugin.score_devices(state, restricted.node(), &*view);
  CHECK(plugin.score(state, *info, restricted).score == on_view);
  CHECK(on_view != plugin.score_devices(state, restricted.node(), &accounted));
}
