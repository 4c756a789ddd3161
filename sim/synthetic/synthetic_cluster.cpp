#include "sim/synthetic/synthetic_cluster.hpp"

#include <cmath>

#include "model/resource_names.hpp"
#include "sim/trace/trace_rng.hpp"

namespace troupe::sim::synthetic {

namespace rn = resource_names;

namespace {

constexpr int kNumaNodes = kSockets;  // one NUMA node per socket
constexpr int kCoresTotal = kSockets * kCoresPerSocket;
constexpr int64_t kGiB = int64_t{1} << 30;

Quantity gib(int64_t n) { return Quantity::from_value(n * kGiB, Quantity::Format::binary_si); }
Quantity count(int64_t n) { return Quantity::from_value(n); }

int core_of(int cpu) { return cpu % kCoresTotal; }
int socket_of(int cpu) { return core_of(cpu) / kCoresPerSocket; }

std::string two_hex(int n) {
  static const char* digits = "0123456789abcdef";
  return std::string{digits[(n >> 4) & 15], digits[n & 15]};
}

// PCIe switch ids are unique across NUMA nodes; bus ids unique per node.
std::string pcie_id(int switch_index) { return "pci0000:" + two_hex(0x10 + 0x40 * switch_index); }
std::string bus_id(int bus, int function) { return "0000:" + two_hex(bus) + ":00." + std::to_string(function); }

ResourceList node_resources(const ClusterSpec& spec, bool gpu) {
  ResourceList r;
  r[std::string(rn::kCpu)] = count(kLogicalCpus);
  r[std::string(rn::kMemory)] = gib(kNodeMemoryGiB);
  r[std::string(rn::kPods)] = count(110);
  if (gpu) {
    r[std::string(rn::kNvidiaGpu)] = count(kGpusPerNode);
    r[std::string(rn::kKoordGpu)] = count(100 * kGpusPerNode);
    r[std::string(rn::kGpuCore)] = count(100 * kGpusPerNode);
    r[std::string(rn::kGpuMemoryRatio)] = count(100 * kGpusPerNode);
    r[std::string(rn::kGpuMemory)] = gib(spec.gpu_memory_gib * kGpusPerNode);
    r[std::string(rn::kRdma)] = count(100 * kRdmaNics);
  }
  return r;
}

Labels gpu_labels(const ClusterSpec& spec) {
  return {{"node.koordinator.sh/gpu-model", spec.gpu_model}, {"node.koordinator.sh/gpu-vendor", "nvidia"}};
}

Node make_node(const ClusterSpec& spec, const std::string& name, bool gpu) {
  Node node;
  node.meta.name = name;
  node.meta.labels["kubernetes.io/hostname"] = name;
  if (gpu)
    for (auto& [k, v] : gpu_labels(spec)) node.meta.labels[k] = v;
  node.status.capacity = node_resources(spec, gpu);
  node.status.allocatable = node.status.capacity;
  Condition ready;
  ready.type = "Ready";
  ready.status = "True";
  ready.reason = "KubeletReady";
  node.status.conditions.push_back(std::move(ready));
  return node;
}

NrtZone numa_zone(int numa) {
  NrtZone zone;
  zone.name = "node-" + std::to_string(numa);
  zone.type = "Node";
  const Quantity cpu = count(kLogicalCpus / kNumaNodes);
  const Quantity memory = gib(kNodeMemoryGiB / kNumaNodes);
  zone.resources.push_back(NrtResource{"cpu", cpu, cpu, cpu});
  zone.resources.push_back(NrtResource{"memory", memory, memory, memory});
  return zone;
}

NodeResourceTopology make_topology(const std::string& name) {
  NodeResourceTopology nrt;
  nrt.meta.name = name;
  nrt.meta.annotations[kCpuTopologyAnnotation] = cpu_topology_json();
  nrt.topology_policies.push_back("None");
  for (int numa = 0; numa < kNumaNodes; ++numa) nrt.zones.push_back(numa_zone(numa));
  return nrt;
}

DeviceTopology device_topology(int switch_index, const std::string& bus) {
  const int numa = switch_index / (kGpusPerNode / kGpusPerPcieSwitch / kNumaNodes);
  return DeviceTopology{numa, numa, pcie_id(switch_index), bus};
}

DeviceInfo gpu_card(const ClusterSpec& spec, const std::string& node, int minor) {
  DeviceInfo card;
  card.type = std::string(kDeviceTypeGpu);
  card.id = "GPU-" + node + "-" + std::to_string(minor);
  card.minor = minor;
  card.health = true;
  card.resources[std::string(rn::kGpuCore)] = count(100);
  card.resources[std::string(rn::kGpuMemoryRatio)] = count(100);
  card.resources[std::string(rn::kGpuMemory)] = gib(spec.gpu_memory_gib);
  const int switch_index = minor / kGpusPerPcieSwitch;
  card.topology = device_topology(switch_index, bus_id(0x10 + 0x40 * switch_index + 1 + minor % kGpusPerPcieSwitch, 0));
  return card;
}

DeviceInfo rdma_nic(int minor) {
  // NIC i sits on NUMA node i's first PCIe switch.
  const int switch_index = minor * (kGpusPerNode / kGpusPerPcieSwitch / kNumaNodes);
  const int bus = 0x10 + 0x40 * switch_index + 0x0f;
  DeviceInfo nic;
  nic.type = std::string(kDeviceTypeRdma);
  nic.id = bus_id(bus, 0);
  nic.minor = minor;
  nic.health = true;
  nic.resources[std::string(rn::kRdma)] = count(100);
  nic.topology = device_topology(switch_index, nic.id);
  VirtualFunctionGroup group;
  group.labels["type"] = "VF";
  for (int vf = 0; vf < kVfsPerNic; ++vf) group.vfs.push_back(VirtualFunction{vf, bus_id(bus, vf + 1)});
  nic.vf_groups.push_back(std::move(group));
  return nic;
}

Device make_device(const ClusterSpec& spec, const std::string& name) {
  Device device;
  device.meta.name = name;
  device.meta.labels = gpu_labels(spec);
  for (int minor = 0; minor < kGpusPerNode; ++minor) device.devices.push_back(gpu_card(spec, name, minor));
  for (int minor = 0; minor < kRdmaNics; ++minor) device.devices.push_back(rdma_nic(minor));
  return device;
}

std::string padded(size_t i, size_t total) {
  std::string digits = std::to_string(i);
  const size_t width = std::to_string(total > 0 ? total - 1 : 0).size();
  return std::string(width > digits.size() ? width - digits.size() : 0, '0') + digits;
}

}  // namespace

std::string cpu_topology_json() {
  std::string json = R"({"detail":[)";
  for (int cpu = 0; cpu < kLogicalCpus; ++cpu) {
    if (cpu > 0) json += ",";
    json += R"({"id":)" + std::to_string(cpu) + R"(,"core":)" + std::to_string(core_of(cpu)) + R"(,"socket":)" +
            std::to_string(socket_of(cpu)) + R"(,"node":)" + std::to_string(socket_of(cpu)) + "}";
  }
  return json + "]}";
}

Result<std::vector<SyntheticNode>> make_cluster(const ClusterSpec& spec) {
  if (spec.nodes == 0) return Error{"synthetic cluster: nodes must be >= 1"};
  if (!(spec.gpu_node_fraction >= 0 && spec.gpu_node_fraction <= 1))
    return Error{"synthetic cluster: gpu node fraction must be in [0, 1], got " + std::to_string(spec.gpu_node_fraction)};
  if (spec.name_prefix.empty()) return Error{"synthetic cluster: empty node name prefix"};
  if (spec.gpu_model.empty()) return Error{"synthetic cluster: empty GPU model"};
  if (spec.gpu_memory_gib <= 0) return Error{"synthetic cluster: GPU memory must be > 0 GiB"};

  // Which nodes get GPUs: the first round(fraction x N) of a seeded permutation.
  const size_t gpu_nodes = static_cast<size_t>(std::llround(spec.gpu_node_fraction * static_cast<double>(spec.nodes)));
  const std::vector<uint32_t> order = trace::TraceRng(spec.seed).permutation(spec.nodes);
  std::vector<SyntheticNode> cluster;
  cluster.reserve(spec.nodes);
  for (size_t i = 0; i < spec.nodes; ++i) {
    const bool gpu = order[i] < gpu_nodes;
    const std::string name = spec.name_prefix + padded(i, spec.nodes);
    SyntheticNode n{make_node(spec, name, gpu), make_topology(name), std::nullopt};
    if (gpu) n.device = make_device(spec, name);
    cluster.push_back(std::move(n));
  }
  return cluster;
}

}  // namespace troupe::sim::synthetic
