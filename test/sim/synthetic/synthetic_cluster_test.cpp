#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "model/json.hpp"
#include "sim/synthetic/synthetic_cluster.hpp"

using namespace troupe;
using namespace troupe::sim::synthetic;

namespace {

std::set<std::string> gpu_node_names(const std::vector<SyntheticNode>& cluster) {
  std::set<std::string> names;
  for (const auto& n : cluster)
    if (n.device) names.insert(n.node.meta.name);
  return names;
}

}  // namespace

TEST_CASE("synthetic cluster: node shape", "[synthetic][cluster]") {
  ClusterSpec spec;
  spec.nodes = 12;
  spec.gpu_node_fraction = 0.5;
  auto cluster = make_cluster(spec);
  REQUIRE(cluster.ok());
  REQUIRE(cluster->size() == 12);
  CHECK(gpu_node_names(*cluster).size() == 6);
  CHECK((*cluster)[0].node.meta.name == "node-00");
  CHECK((*cluster)[11].node.meta.name == "node-11");
  for (const auto& n : *cluster) {
    INFO(n.node.meta.name);
    const auto& cap = n.node.status.capacity;
    CHECK(cap.get("cpu").value() == 64);
    CHECK(cap.get("memory").value() == int64_t{256} << 30);
    CHECK(n.node.status.allocatable == cap);
    CHECK(n.topology.meta.name == n.node.meta.name);
    REQUIRE(n.topology.zones.size() == 2);
    CHECK(n.topology.zones[1].name == "node-1");
    CHECK(n.topology.zones[1].resources[0].allocatable.value() == 32);
    CHECK(n.topology.zones[1].resources[1].allocatable.value() == int64_t{128} << 30);
    // The objects re-decode through the model types.
    CHECK(decode_node_json(encode(n.node)).ok());
    CHECK(decode_node_resource_topology_json(encode(n.topology)).ok());
    if (n.device) {
      CHECK(cap.get("nvidia.com/gpu").value() == 8);
      CHECK(cap.get("koordinator.sh/gpu-core").value() == 800);
      CHECK(cap.get("koordinator.sh/gpu-memory").value() == int64_t{640} << 30);
      CHECK(cap.get("koordinator.sh/rdma").value() == 200);
      CHECK(*n.node.meta.label("node.koordinator.sh/gpu-model") == "A100");
      CHECK(decode_device_json(encode(*n.device)).ok());
    } else {
      CHECK(cap.get("nvidia.com/gpu").value() == 0);
      CHECK(n.node.meta.label("node.koordinator.sh/gpu-model") == nullptr);
    }
  }
}

TEST_CASE("synthetic cluster: CPU topology annotation", "[synthetic][cluster]") {
  auto doc = parse_json(cpu_topology_json());
  REQUIRE(doc.ok());
  const auto& detail = (**doc)["detail"];
  REQUIRE(detail.Size() == 64);
  std::map<int, std::set<int>> cpus_of_core;
  std::map<int, std::set<int>> cores_of_socket;
  for (const auto& cpu : detail.GetArray()) {
    const int id = cpu["id"].GetInt(), core = cpu["core"].GetInt(), socket = cpu["socket"].GetInt();
    CHECK(cpu["node"].GetInt() == socket);  // one NUMA node per socket
    cpus_of_core[core].insert(id);
    cores_of_socket[socket].insert(core);
  }
  CHECK(cpus_of_core.size() == 32);
  for (const auto& [core, cpus] : cpus_of_core) {
    INFO("core " << core);
    CHECK(cpus == std::set<int>{core, core + 32});  // hyper-thread siblings, Linux numbering
  }
  REQUIRE(cores_of_socket.size() == 2);
  CHECK(cores_of_socket[0].size() == 16);
  CHECK(*cores_of_socket[1].begin() == 16);
  ClusterSpec spec;
  spec.nodes = 1;
  auto cluster = make_cluster(spec);
  REQUIRE(cluster.ok());
  CHECK(*(*cluster)[0].topology.meta.annotation("node.koordinator.sh/cpu-topology") == cpu_topology_json());
}

TEST_CASE("synthetic cluster: device topology", "[synthetic][cluster]") {
  ClusterSpec spec;
  spec.nodes = 1;
  auto cluster = make_cluster(spec);
  REQUIRE(cluster.ok());
  REQUIRE((*cluster)[0].device.has_value());
  const Device& device = *(*cluster)[0].device;
  std::map<std::string, std::set<int>> gpus_by_switch;
  std::map<std::string, int> numa_of_switch;
  std::set<std::string> bus_ids;
  int gpus = 0, nics = 0;
  for (const auto& d : device.devices) {
    REQUIRE(d.topology.has_value());
    REQUIRE(d.minor.has_value());
    CHECK(d.health);
    CHECK(bus_ids.insert(d.topology->bus_id).second);
    CHECK(d.topology->socket_id == d.topology->node_id);
    if (d.type == "gpu") {
      ++gpus;
      CHECK(d.resources.get("koordinator.sh/gpu-core").value() == 100);
      CHECK(d.resources.get("koordinator.sh/gpu-memory-ratio").value() == 100);
      CHECK(d.resources.get("koordinator.sh/gpu-memory").value() == int64_t{80} << 30);
      gpus_by_switch[d.topology->pcie_id].insert(*d.minor);
      numa_of_switch[d.topology->pcie_id] = d.topology->node_id;
      CHECK(d.topology->node_id == *d.minor / 4);
    } else {
      REQUIRE(d.type == "rdma");
      ++nics;
      CHECK(d.resources.get("koordinator.sh/rdma").value() == 100);
      CHECK(d.topology->node_id == *d.minor);
      // A NIC shares its NUMA node's first switch with two GPUs.
      CHECK(gpus_by_switch.count(d.topology->pcie_id) == 1);
      REQUIRE(d.vf_groups.size() == 1);
      REQUIRE(d.vf_groups[0].vfs.size() == 8);
      for (const auto& vf : d.vf_groups[0].vfs) CHECK(bus_ids.insert(vf.bus_id).second);
    }
  }
  CHECK(gpus == 8);
  CHECK(nics == 2);
  REQUIRE(gpus_by_switch.size() == 4);
  int per_numa[2] = {0, 0};
  for (const auto& [pcie, minors] : gpus_by_switch) {
    CHECK(minors.size() == 2);
    ++per_numa[numa_of_switch[pcie]];
  }
  CHECK(per_numa[0] == 2);
  CHECK(per_numa[1] == 2);
}

TEST_CASE("synthetic cluster: deterministic by seed; errors", "[synthetic][cluster]") {
  ClusterSpec spec;
  spec.nodes = 200;
  spec.gpu_node_fraction = 0.3;
  spec.seed = 5;
  auto a = make_cluster(spec), b = make_cluster(spec);
  spec.seed = 6;
  auto c = make_cluster(spec);
  REQUIRE((a.ok() && b.ok() && c.ok()));
  CHECK(gpu_node_names(*a).size() == 60);
  CHECK(gpu_node_names(*a) == gpu_node_names(*b));
  CHECK(gpu_node_names(*a) != gpu_node_names(*c));
  CHECK(encode((*a)[0].node) == encode((*b)[0].node));

  struct Case {
    ClusterSpec spec;
    const char* error;
  };
  auto with = [](auto change) {
    ClusterSpec s;
    change(s);
    return s;
  };
  const std::vector<Case> cases = {
      {with([](ClusterSpec& s) { s.nodes = 0; }), "nodes must be >= 1"},
      {with([](ClusterSpec& s) { s.gpu_node_fraction = 1.5; }), "gpu node fraction must be in [0, 1]"},
      {with([](ClusterSpec& s) { s.gpu_node_fraction = -0.1; }), "gpu node fraction must be in [0, 1]"},
      {with([](ClusterSpec& s) { s.name_prefix = ""; }), "empty node name prefix"},
      {with([](ClusterSpec& s) { s.gpu_model = ""; }), "empty GPU model"},
      {with([](ClusterSpec& s) { s.gpu_memory_gib = 0; }), "GPU memory must be > 0"},
  };
  for (const auto& c : cases) {
    auto r = make_cluster(c.spec);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.message(), Catch::Contains(c.error));
  }
}
