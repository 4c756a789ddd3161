// Property test: random GPU / shared-GPU / RDMA / joint requests reserved and
// released on random nodes never over-allocate a card, a share or a VF; the
// accounting rebuilt from the pods' annotations equals what Reserve
// accounted; and releasing everything restores the exact initial state.

#include <catch2/catch.hpp>

#include <random>

#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

using Rng = std::mt19937;

int uniform(Rng& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
bool chance(Rng& rng, double p) { return std::bernoulli_distribution(p)(rng); }

struct RandomNode {
  Node node;
  NodeDevices devices;
  std::shared_ptr<const Device> device;
};

RandomNode random_node(Rng& rng, int index) {
  RandomNode out;
  out.node.meta.name = "node-" + std::to_string(index);
  const bool topology = chance(rng, 0.7);
  const int gpus = uniform(rng, 1, 8);
  const char* memories[] = {"24Gi", "40Gi", "80Gi", "80Gi"};
  const std::string memory = memories[uniform(rng, 0, 3)];
  std::vector<DeviceInfo> infos;
  for (int m = 0; m < gpus; ++m) {
    auto where = topology ? std::optional<std::pair<int32_t, std::string>>(pcie_of_gpu(m)) : std::nullopt;
    infos.push_back(gpu(m, where, memory, /*healthy=*/!chance(rng, 0.05)));
  }
  const int nics = uniform(rng, 0, 4);  // some nodes have none: RDMA pods are rejected there
  for (int m = 0; m < nics; ++m) {
    auto where = topology ? std::optional<std::pair<int32_t, std::string>>(std::make_pair(m / 2, "pci" + std::to_string(m)))
                          : std::nullopt;
    infos.push_back(rdma(m, where, uniform(rng, 0, 4)));
  }
  if (gpus == 8 && chance(rng, 0.3)) {
    out.node.meta.labels = {{"node.koordinator.sh/gpu-model", "H100"}};
    if (chance(rng, 0.5)) out.node.meta.labels["node.koordinator.sh/gpu-partition-policy"] = "Honor";
  }
  out.device = device(std::move(infos));
  out.devices.apply_device(out.device);
  return out;
}

Pod random_pod(Rng& rng, int serial) {
  PodSpecBuilder b("pod-" + std::to_string(serial));
  const int kind = uniform(rng, 0, 8);
  const std::string vf_hint = R"({"rdma":{"vfSelector":{}}})";
  switch (kind) {
    case 0: b.requests({{"nvidia.com/gpu", std::to_string(uniform(rng, 1, 4))}}); break;
    case 1: {
      const char* percents[] = {"10", "25", "50", "75", "100", "200"};
      b.requests({{"koordinator.sh/gpu", percents[uniform(rng, 0, 5)]}});
      break;
    }
    case 2:
      b.requests({{"koordinator.sh/gpu.shared", "1"},
                  {"koordinator.sh/gpu-core", std::to_string(uniform(rng, 1, 10) * 10)},
                  {"koordinator.sh/gpu-memory-ratio", std::to_string(uniform(rng, 1, 10) * 10)}});
      break;
    case 3: b.requests({{"koordinator.sh/gpu-memory", std::to_string(uniform(rng, 1, 40)) + "Gi"}}); break;
    case 4: b.requests({{"koordinator.sh/gpu.shared", "2"}, {"koordinator.sh/gpu-memory-ratio", "100"}}); break;
    case 5: {
      const char* amounts[] = {"1", "50", "100", "200"};
      b.requests({{"koordinator.sh/rdma", amounts[uniform(rng, 0, 3)]}});
      if (chance(rng, 0.5)) b.annotation("scheduling.koordinator.sh/device-allocate-hint", vf_hint);
      break;
    }
    case 6:
      b.requests({{"koordinator.sh/gpu", "100"}, {"koordinator.sh/rdma", "1"}});
      b.annotation("scheduling.koordinator.sh/device-joint-allocate",
                   R"({"deviceTypes":["gpu","rdma"],"requiredScope":"SamePCIe"})");
      b.annotation("scheduling.koordinator.sh/device-allocate-hint", vf_hint);
      break;
    case 7:
      b.requests({{"nvidia.com/gpu", "2"}});
      b.annotation("scheduling.koordinator.sh/device-allocate-hint", R"({"gpu":{"requiredTopologyScope":"PCIe"}})");
      break;
    default:
      b.requests({{"koordinator.sh/rdma", "1"}});
      b.annotation("scheduling.koordinator.sh/device-allocate-hint",
                   R"({"rdma":{"allocateStrategy":"RequestsAsCount","exclusivePolicy":"PCIeLevel"}})");
      break;
  }
  return b.pod();
}

void check_not_over_allocated(const NodeDevices& n) {
  for (DeviceType t : kAllDeviceTypes) {
    for (const DeviceSlot& s : n.devices(t).slots) {
      INFO(device_type_name(t) << " minor " << s.minor);
      if (s.total().is_zero()) {
        CHECK(s.allocations() == 0);  // nothing is ever placed on an unhealthy device
        continue;
      }
      for (DeviceResource r : kAllDeviceResources)
        if (s.total().has(r)) CHECK(s.used().milli(r) <= s.total().milli(r));
      for (const auto& [bus, holders] : s.used_vfs()) CHECK(holders == 1u);
    }
  }
}

void check_same_state(const NodeDevices& a, const NodeDevices& b) {
  CHECK(a.pod_count() == b.pod_count());
  for (DeviceType t : kAllDeviceTypes) {
    const auto& x = a.devices(t).slots;
    const auto& y = b.devices(t).slots;
    REQUIRE(x.size() == y.size());
    for (size_t i = 0; i < x.size(); ++i) {
      CHECK(x[i].minor == y[i].minor);
      CHECK(x[i].used() == y[i].used());
      CHECK(x[i].free() == y[i].free());
      CHECK(x[i].view_free() == y[i].view_free());
      CHECK(x[i].allocations() == y[i].allocations());
      CHECK(x[i].used_refs() == y[i].used_refs());
      CHECK(x[i].used_vfs() == y[i].used_vfs());
    }
  }
}

struct Reserved {
  size_t node;
  std::shared_ptr<const PodInfo> pod;  // carries the device-allocated annotation
  std::unique_ptr<CycleState> state;
};

}  // namespace

TEST_CASE("Random reserve/release never over-allocates and releases exactly", "[deviceshare][property]") {
  Rng rng(20240611);
  std::vector<RandomNode> nodes;
  for (int i = 0; i < 16; ++i) nodes.push_back(random_node(rng, i));
  std::vector<NodeDevices> initial;
  for (const auto& n : nodes) initial.push_back(n.devices);

  DeviceShareArgs least_args;
  least_args.strategy = ScoringStrategy::least_allocated;
  DeviceShare least(least_args);
  DeviceShareArgs most_args;
  most_args.strategy = ScoringStrategy::most_allocated;
  DeviceShare most(most_args);
  std::vector<Reserved> reserved;
  int placed = 0, rejected = 0;

  for (int step = 0; step < 1000; ++step) {
    const Pod pod = random_pod(rng, step);
    const size_t ni = static_cast<size_t>(uniform(rng, 0, static_cast<int>(nodes.size()) - 1));
    RandomNode& target = nodes[ni];
    const DeviceShare& plugin = chance(rng, 0.5) ? least : most;
    INFO("step " << step << " pod " << ResourceList(pod.spec.containers[0].resources.requests).to_string() << " node "
                 << ni);
    auto info = PodInfo::make(pod);
    auto state = std::make_unique<CycleState>();
    PreFilterResult pre;
    REQUIRE(plugin.pre_filter(*state, *info, pre).ok());

    const PluginStatus filtered = plugin.filter_devices(*state, &target.node, &target.devices);
    const NodeDevices before = target.devices;
    const PluginStatus s = plugin.reserve_devices(*state, *info, &target.node, &target.devices);
    // Filter and Reserve agree on feasibility (they differ only in device order).
    CHECK(filtered.ok() == s.ok());
    if (!s.ok()) {
      ++rejected;
      check_same_state(target.devices, before);
      continue;
    }
    ++placed;
    check_not_over_allocated(target.devices);

    // The annotation PreBind writes rebuilds exactly the same accounting.
    BindingChanges changes;
    REQUIRE(plugin.pre_bind(*state, *info, target.node.meta.name, changes).ok());
    Pod bound = pod;
    bound.meta.annotations.insert(changes.annotations.begin(), changes.annotations.end());
    auto bound_info = PodInfo::make(bound);
    NodeDevices rebuilt = before;
    rebuilt.on_pod_added(*bound_info);
    check_same_state(rebuilt, target.devices);

    // Undo and redo: release restores the exact state.
    if (chance(rng, 0.2)) {
      plugin.unreserve_devices(*state, *info, &target.devices);
      check_same_state(target.devices, before);
      target.devices.on_pod_added(*bound_info);
      check_same_state(target.devices, rebuilt);
    }
    reserved.push_back(Reserved{ni, bound_info, std::move(state)});

    // The Device is re-sent, or deleted and re-created: the accounting stays.
    if (chance(rng, 0.05)) {
      const NodeDevices snapshot = target.devices;
      if (chance(rng, 0.5)) {
        target.devices.clear_device();
        for (DeviceType t : kAllDeviceTypes) CHECK_FALSE(target.devices.devices(t).any_free());
      }
      target.devices.apply_device(std::make_shared<const Device>(*target.device));
      check_same_state(target.devices, snapshot);
    }

    // Some pods finish.
    if (!reserved.empty() && chance(rng, 0.7)) {
      const size_t k = static_cast<size_t>(uniform(rng, 0, static_cast<int>(reserved.size()) - 1));
      nodes[reserved[k].node].devices.on_pod_removed(*reserved[k].pod);
      check_not_over_allocated(nodes[reserved[k].node].devices);
      reserved.erase(reserved.begin() + static_cast<long>(k));
    }
  }
  INFO("placed " << placed << ", rejected " << rejected);
  CHECK(placed > 300);
  CHECK(rejected > 50);

  std::shuffle(reserved.begin(), reserved.end(), rng);
  for (const auto& r : reserved) nodes[r.node].devices.on_pod_removed(*r.pod);
  for (size_t i = 0; i < nodes.size(); ++i) {
    INFO("node " << i);
    check_same_state(nodes[i].devices, initial[i]);
  }
}
