#include "plugins/node_numa_resource/node_cpus_summary.hpp"

#include "plugins/deviceshare/go_json.hpp"

namespace troupe::plugins::numa {

namespace {

using deviceshare::go_json_string;

std::string resource_list_json(const ResourceList& list) {
  std::string out = "{";
  for (const auto& [name, q] : list) {
    if (out.size() > 1) out += ',';
    out += go_json_string(name) + ":" + go_json_string(q.to_string());
  }
  return out + "}";
}

std::string cpu_info_json(const CpuInfo& c) {
  return "{\"id\":" + std::to_string(c.cpu) + ",\"core\":" + std::to_string(c.core) +
         ",\"socket\":" + std::to_string(c.socket) + ",\"node\":" + std::to_string(c.node);
}

std::string topology_json(const TopologyOptions& options) {
  if (!options.valid_cpu_topology()) return "null";
  const CpuTopology& t = *options.cpu_topology;
  std::string out = "{\"numCPUs\":" + std::to_string(t.num_cpus()) + ",\"numCores\":" + std::to_string(t.num_cores()) +
                    ",\"numNodes\":" + std::to_string(t.num_nodes()) +
                    ",\"numSockets\":" + std::to_string(t.num_sockets()) + ",\"cpuDetails\":{";
  bool first = true;
  for (const CpuInfo& c : t.cpus()) {
    out += first ? "" : ",";
    first = false;
    out += "\"" + std::to_string(c.cpu) + "\":" + cpu_info_json(c) + "}";
  }
  return out + "}}";
}

std::string numa_nodes_json(const NodeCpus& cpus) {
  const auto available = cpus.numa_available();
  std::string out = "[";
  for (const NumaNodeAllocatable& n : cpus.options().numa_nodes) {
    if (out.size() > 1) out += ',';
    auto used = cpus.numa_allocated().find(n.node);
    out += "{\"node\":" + std::to_string(n.node) + ",\"allocatable\":" + resource_list_json(n.allocatable) +
           ",\"allocated\":" + resource_list_json(used == cpus.numa_allocated().end() ? ResourceList{} : used->second) +
           ",\"available\":" + resource_list_json(available.at(n.node)) + "}";
  }
  return out + "]";
}

std::string pod_json(const PodAllocation& pod) {
  std::string out = "{\"cpuset\":" + go_json_string(pod.cpus.to_string()) +
                    ",\"exclusivePolicy\":" + go_json_string(to_string(pod.exclusive)) + ",\"numaNodeResources\":[";
  for (size_t i = 0; i < pod.numa_resources.size(); ++i) {
    out += i > 0 ? "," : "";
    out += "{\"node\":" + std::to_string(pod.numa_resources[i].node) +
           ",\"resources\":" + resource_list_json(pod.numa_resources[i].resources) + "}";
  }
  return out + "]}";
}

std::string pods_json(const NodeCpus& cpus) {
  std::string out = "{";
  for (const auto& [key, pod] : cpus.allocations()) {
    if (out.size() > 1) out += ',';
    // Keyed by namespace/name (what people look for); the uid stays internal.
    out += go_json_string(pod.name.empty() ? key : pod.name) + ":" + pod_json(pod);
  }
  return out + "}";
}

std::string strings_json(const std::vector<std::string>& list) {
  std::string out = "[";
  for (const auto& s : list) {
    if (out.size() > 1) out += ',';
    out += go_json_string(s);
  }
  return out + "]";
}

}  // namespace

std::string node_cpus_summary_json(const NodeCpus& cpus) {
  const TopologyOptions& options = cpus.options();
  return "{\"cpuTopology\":" + topology_json(options) +
         ",\"reservedCPUs\":" + go_json_string(options.reserved_cpus.to_string()) +
         ",\"availableCPUs\":" + go_json_string(cpus.available_cpus(cpus.node_reserved_cpus()).to_string()) +
         ",\"numaTopologyPolicy\":" + go_json_string(topology::to_string(options.numa_policy)) +
         ",\"numaNodes\":" + numa_nodes_json(cpus) + ",\"pods\":" + pods_json(cpus) +
         ",\"malformedAnnotations\":" + std::to_string(cpus.malformed_annotations()) +
         ",\"topologyErrors\":" + strings_json(options.errors) + "}";
}

std::string available_cpus_json(const NodeCpus& cpus) {
  const CpuSet available = cpus.available_cpus(cpus.node_reserved_cpus());
  std::string out = "{\"availableCPUs\":" + go_json_string(available.to_string()) + ",\"allocated\":{";
  const TopologyOptions& options = cpus.options();
  bool first = true;
  cpus.allocated_cpus().for_each([&](int cpu, CpuExclusivePolicy policy) {
    // A pod's annotation may name a CPU the topology does not have.
    if (!options.valid_cpu_topology() || !options.cpu_topology->all_cpus().contains(cpu)) return;
    out += first ? "" : ",";
    first = false;
    out += "\"" + std::to_string(cpu) + "\":" + cpu_info_json(options.cpu_topology->info(cpu)) +
           ",\"refCount\":" + std::to_string(cpus.holders(cpu)) +
           ",\"exclusivePolicy\":" + go_json_string(to_string(policy)) + "}";
  });
  return out + "}}";
}

}  // namespace troupe::plugins::numa
