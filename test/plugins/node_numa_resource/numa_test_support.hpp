#pragma once
// Topologies for the NodeNUMAResource tests, numbered as Linux does on
// hyper-threaded machines: cpu = thread * total_cores + core, so the
// siblings of core c are c and c + total_cores.

#include <memory>
#include <string>

#include "model/node_resource_topology.hpp"
#include "plugins/node_numa_resource/cpu_topology.hpp"
#include "plugins/node_numa_resource/node_numa_resource_plugin.hpp"

namespace troupe::plugins::numa::testing {

inline std::vector<CpuInfo> ht_cpus(int sockets, int nodes_per_socket, int cores_per_node, int threads = 2) {
  const int total_cores = sockets * nodes_per_socket * cores_per_node;
  std::vector<CpuInfo> out;
  for (int t = 0; t < threads; ++t)
    for (int core = 0; core < total_cores; ++core) {
      const int node = core / cores_per_node;
      out.push_back({t * total_cores + core, core, node / nodes_per_socket, node});
    }
  return out;
}

inline CpuTopology ht_topology(int sockets, int nodes_per_socket, int cores_per_node, int threads = 2) {
  auto t = CpuTopology::from(ht_cpus(sockets, nodes_per_socket, cores_per_node, threads));
  REQUIRE(t);
  return *t;
}

inline std::string topology_annotation(const std::vector<CpuInfo>& cpus) {
  std::string out = "{\"detail\":[";
  for (size_t i = 0; i < cpus.size(); ++i) {
    const CpuInfo& c = cpus[i];
    out += (i ? "," : "") + std::string("{\"id\":") + std::to_string(c.cpu) + ",\"core\":" + std::to_string(c.core) +
           ",\"socket\":" + std::to_string(c.socket) + ",\"node\":" + std::to_string(c.node) + "}";
  }
  return out + "]}";
}

/// An NRT for the topology with NUMA zones holding their CPUs and `memory_per_node`.
inline std::shared_ptr<const NodeResourceTopology> make_nrt(int sockets, int nodes_per_socket, int cores_per_node,
                                                            const std::string& memory_per_node = "8Gi",
                                                            std::map<std::string, std::string> annotations = {},
                                                            std::vector<std::string> policies = {}) {
  auto cpus = ht_cpus(sockets, nodes_per_socket, cores_per_node);
  NodeResourceTopology nrt;
  nrt.meta.name = "n";
  nrt.meta.annotations = std::move(annotations);
  nrt.meta.annotations["node.koordinator.sh/cpu-topology"] = topology_annotation(cpus);
  nrt.topology_policies = std::move(policies);
  const int nodes = sockets * nodes_per_socket;
  for (int n = 0; n < nodes; ++n) {
    NrtZone z;
    z.name = "node-" + std::to_string(n);
    z.type = "Node";
    z.resources.push_back({"cpu", {}, Quantity::from_value(cores_per_node * 2), {}});
    z.resources.push_back({"memory", {}, *Quantity::parse(memory_per_node), {}});
    nrt.zones.push_back(z);
  }
  return std::make_shared<const NodeResourceTopology>(std::move(nrt));
}

/// A NodeNUMAResource with default args and its cycle state, for tests that
/// drive the plugin's extension points by hand.
struct Run {
  NodeNUMAResource plugin{NodeNumaResourceArgs{}};
  CycleState state;
  PluginStatus pre(const PodInfo& pod) {
    PreFilterResult r;
    return plugin.pre_filter(state, pod, r);
  }
};

}  // namespace troupe::plugins::numa::testing
