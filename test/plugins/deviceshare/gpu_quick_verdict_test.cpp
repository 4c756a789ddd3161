// quick_gpu_verdict must answer exactly as allocate_devices (code and
// message) whenever it answers, and step aside (nullopt) outside its case.
// Table-driven cases for each condition, then random nodes, fill levels and
// requests compared against the allocator.

#include <catch2/catch.hpp>

#include <random>

#include "plugins/deviceshare/gpu_quick_verdict.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

/// "ok", "<Code>: <message>", or "allocator" when the quick verdict steps aside.
std::string quick_text(const NodeDevices& node, const Pod& pod, const AllocateOptions& options = {}) {
  DeviceShareRequest r = prepared(pod);
  auto verdict = quick_gpu_verdict(node, r, options);
  if (!verdict) return "allocator";
  if (verdict->ok()) return "ok";
  return std::string(to_string(verdict->code)) + ": " + verdict->message();
}

/// The allocator's verdict in the same form.
std::string full_text(const NodeDevices& node, const Pod& pod, const AllocateOptions& options = {}) {
  DeviceShareRequest r = prepared(pod);
  AllocationPlan plan;
  PluginStatus s = allocate_devices(node, r, options, plan);
  if (!s.ok()) return std::string(to_string(s.code)) + ": " + s.message();
  return "ok";
}

std::vector<DeviceInfo> plain_gpus(int n, const std::string& memory = "24Gi") {
  std::vector<DeviceInfo> out;
  for (int m = 0; m < n; ++m) out.push_back(gpu(m, std::nullopt, memory));
  return out;
}

NodeDevices plain_node(int n, const std::string& memory = "24Gi", Labels labels = {}) {
  NodeDevices node;
  node.apply_device(device(plain_gpus(n, memory), std::move(labels)));
  return node;
}

Pod pod_of(const Amounts& requests, const std::string& name = "p") {
  return PodSpecBuilder(name).requests(requests).pod();
}

/// Takes `percent` of card `minor` (a shared pod placed there by hand).
void use_card(NodeDevices& node, int32_t minor, int percent, const std::string& key) {
  PodDevices d;
  AccountedDevice a;
  a.minor = minor;
  a.amounts.set_value(DeviceResource::gpu_core, percent);
  a.amounts.set_value(DeviceResource::gpu_memory_ratio, percent);
  a.amounts.set_value(DeviceResource::gpu_memory, int64_t{24} * 1024 * 1024 * 1024 * percent / 100);
  d.by_type[type_index(DeviceType::gpu)].push_back(a);
  REQUIRE(node.add_pod(key, d));
}

}  // namespace

TEST_CASE("quick GPU verdict: table of cases against the allocator", "[deviceshare][quick-verdict]") {
  struct Case {
    const char* name;
    std::function<NodeDevices()> node;
    Amounts requests;
    AllocateOptions options;
    std::string expected;  // the quick verdict ("allocator" = steps aside)
  };
  const Labels hopper = {{"node.koordinator.sh/gpu-model", "H100"}};
  const Labels honor = {{"node.koordinator.sh/gpu-partition-policy", "Honor"}};
  AllocateOptions numa;
  numa.numa_nodes = 1;
  AllocateOptions one_slot;
  one_slot.gpu_slot_mask = 1;
  const std::string insufficient = "Unschedulable: Insufficient gpu devices";
  auto half_used = [] {
    NodeDevices n = plain_node(4);
    for (int m = 0; m < 4; ++m) use_card(n, m, 60, "used-" + std::to_string(m));
    return n;
  };

  const std::vector<Case> cases = {
      {"one whole card, empty node", [] { return plain_node(4); }, {{"nvidia.com/gpu", "1"}}, {}, "ok"},
      {"all four cards, empty node", [] { return plain_node(4); }, {{"nvidia.com/gpu", "4"}}, {}, "ok"},
      {"five cards on four", [] { return plain_node(4); }, {{"nvidia.com/gpu", "5"}}, {}, insufficient},
      {"whole card, every card partly used", half_used, {{"nvidia.com/gpu", "1"}}, {}, insufficient},
      {"40% share, every card 60% used", half_used, {{"koordinator.sh/gpu", "40"}}, {}, "ok"},
      {"50% share, every card 60% used", half_used, {{"koordinator.sh/gpu", "50"}}, {}, insufficient},
      {"gpu-memory 20Gi on 24Gi cards", [] { return plain_node(2); }, {{"koordinator.sh/gpu-memory", "20Gi"}}, {}, "ok"},
      {"gpu-memory 30Gi on 24Gi cards", [] { return plain_node(2); }, {{"koordinator.sh/gpu-memory", "30Gi"}}, {},
       insufficient},
      {"core + ratio shared", [] { return plain_node(2); },
       {{"koordinator.sh/gpu.shared", "1"}, {"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory-ratio", "50"}},
       {}, "ok"},
      {"unhealthy cards have no room",
       [] {
         std::vector<DeviceInfo> infos = {gpu(0, std::nullopt, "24Gi", false), gpu(1, std::nullopt, "24Gi", false)};
         NodeDevices n;
         n.apply_device(device(infos));
         return n;
       },
       {{"nvidia.com/gpu", "1"}}, {}, insufficient},
      {"Device deleted: known, nothing free",
       [] {
         NodeDevices n = plain_node(2);
         n.clear_device();
         return n;
       },
       {{"nvidia.com/gpu", "1"}}, {}, insufficient},
      {"two shared cards (gpu.shared 2)", [] { return plain_node(4); },
       {{"koordinator.sh/gpu.shared", "2"}, {"koordinator.sh/gpu-memory-ratio", "100"}}, {}, "ok"},
      // Outside the case: the allocator decides.
      {"node with a topology tree",
       [] {
         NodeDevices n;
         n.apply_device(device({gpu(0, pcie_of_gpu(0)), gpu(1, pcie_of_gpu(1))}));
         return n;
       },
       {{"nvidia.com/gpu", "1"}}, {}, "allocator"},
      {"Device honours partitions, whole card", [] { return plain_node(4, "24Gi", {{"node.koordinator.sh/gpu-partition-policy", "Honor"}}); },
       {{"nvidia.com/gpu", "1"}}, {}, "allocator"},
      {"Device honours partitions, shared card", [] { return plain_node(4, "24Gi", {{"node.koordinator.sh/gpu-partition-policy", "Honor"}}); },
       {{"koordinator.sh/gpu", "50"}}, {}, "ok"},
      {"GPU and RDMA", [] { return plain_node(2); }, {{"nvidia.com/gpu", "1"}, {"koordinator.sh/rdma", "1"}}, {},
       "allocator"},
      {"NUMA restriction", [] { return plain_node(2); }, {{"nvidia.com/gpu", "1"}}, numa, "allocator"},
      {"narrowed to one slot", [] { return plain_node(2); }, {{"koordinator.sh/gpu", "50"}}, one_slot, "allocator"},
      {"no GPU slots", [] { return NodeDevices(); }, {{"nvidia.com/gpu", "1"}}, {}, "allocator"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const NodeDevices node = c.node();
    const Pod pod = pod_of(c.requests);
    const std::string quick = quick_text(node, pod, c.options);
    CHECK(quick == c.expected);
    if (quick != "allocator") CHECK(quick == full_text(node, pod, c.options));
  }

  SECTION("Node labels: Hopper table and Honor policy make the allocator decide whole-card requests") {
    const NodeDevices node = plain_node(8, "80Gi");
    AllocateOptions with_hopper;
    with_hopper.node_labels = &hopper;
    AllocateOptions with_honor;
    with_honor.node_labels = &honor;
    CHECK(quick_text(node, pod_of({{"nvidia.com/gpu", "1"}}), with_hopper) == "allocator");
    CHECK(quick_text(node, pod_of({{"nvidia.com/gpu", "1"}}), with_honor) == "allocator");
    CHECK(quick_text(node, pod_of({{"koordinator.sh/gpu", "50"}}), with_honor) == "ok");
    CHECK(full_text(node, pod_of({{"koordinator.sh/gpu", "50"}}), with_honor) == "ok");
  }
  SECTION("A pod honouring partitions makes the allocator report the missing table") {
    const NodeDevices node = plain_node(4);
    const Pod pod = PodSpecBuilder("p")
                        .requests({{"nvidia.com/gpu", "2"}})
                        .annotation("scheduling.koordinator.sh/gpu-partition-spec", R"({"allocatePolicy":"Restricted"})")
                        .pod();
    CHECK(quick_text(node, pod) == "allocator");
  }
}

TEST_CASE("quick GPU verdict equals the allocator's on random nodes and requests", "[deviceshare][quick-verdict]") {
  std::mt19937 rng(77031);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  const char* memories[] = {"16Gi", "24Gi", "32Gi", "80Gi"};
  int answered = 0, accepted = 0, rejected = 0, stepped_aside = 0;

  for (int round = 0; round < 300; ++round) {
    // A node: 1-8 cards, some unhealthy, sometimes a topology or Device labels.
    const int cards = uniform(1, 8);
    const std::string memory = memories[uniform(0, 3)];
    const bool topology = chance(0.15);
    std::vector<DeviceInfo> infos;
    for (int m = 0; m < cards; ++m)
      infos.push_back(gpu(m, topology ? std::optional<std::pair<int32_t, std::string>>(pcie_of_gpu(m)) : std::nullopt,
                          memory, !chance(0.1)));
    Labels labels;
    if (chance(0.1)) labels["node.koordinator.sh/gpu-partition-policy"] = "Honor";
    NodeDevices node;
    node.apply_device(device(std::move(infos), std::move(labels)));

    // Fill it with random shared and whole-card pods through the allocator.
    const int fills = uniform(0, 12);
    for (int f = 0; f < fills; ++f) {
      const int percent = uniform(1, 10) * 10;
      const Pod filler = pod_of(percent == 100 && chance(0.5) ? Amounts{{"nvidia.com/gpu", "1"}}
                                                              : Amounts{{"koordinator.sh/gpu", std::to_string(percent)}},
                                "fill-" + std::to_string(round) + "-" + std::to_string(f));
      DeviceShareRequest r = prepared(filler);
      AllocationPlan plan;
      if (!allocate_devices(node, r, {}, plan).ok()) continue;
      auto allocations = to_device_allocations(plan, node, r);
      REQUIRE(allocations);
      node.add_pod(filler.meta.uid, pod_devices_from(*allocations));
    }
    if (chance(0.03)) node.clear_device();

    // Requests of every kind the trace and Koordinator know.
    for (int q = 0; q < 20; ++q) {
      Amounts requests;
      switch (uniform(0, 5)) {
        case 0: requests = {{"nvidia.com/gpu", std::to_string(uniform(1, 9))}}; break;
        case 1: requests = {{"koordinator.sh/gpu", std::to_string(uniform(1, 20) * 5)}}; break;
        case 2:
          requests = {{"koordinator.sh/gpu.shared", "1"},
                      {"koordinator.sh/gpu-core", std::to_string(uniform(1, 10) * 10)},
                      {"koordinator.sh/gpu-memory-ratio", std::to_string(uniform(1, 10) * 10)}};
          break;
        case 3: requests = {{"koordinator.sh/gpu-memory", std::to_string(uniform(1, 40)) + "Gi"}}; break;
        case 4: requests = {{"koordinator.sh/gpu", std::to_string(uniform(1, 4) * 100)}}; break;
        default: requests = {{"koordinator.sh/gpu.shared", "2"}, {"koordinator.sh/gpu-memory-ratio", "100"}}; break;
      }
      const Pod pod = pod_of(requests);
      AllocateOptions options;
      if (chance(0.1)) options.gpu_slot_mask = uint64_t{1} << uniform(0, 7);
      INFO("round " << round << " request " << ResourceList(pod.spec.containers[0].resources.requests).to_string());
      const std::string quick = quick_text(node, pod, options);
      if (quick == "allocator") {
        ++stepped_aside;
        continue;
      }
      ++answered;
      (quick == "ok" ? accepted : rejected) += 1;
      CHECK(quick == full_text(node, pod, options));
    }
  }
  // The comparison covered both answers many times, and the cases it must leave alone.
  CHECK(accepted > 500);
  CHECK(rejected > 500);
  CHECK(stepped_aside > 100);
  CHECK(answered + stepped_aside == 300 * 20);
}
