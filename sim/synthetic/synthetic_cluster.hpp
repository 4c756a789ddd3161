#pragma once
// Synthetic clusters for `troupe bench` (shared/docs/benchmarks.md §1). Every
// node has the benchmark shape: 2 sockets, 2 NUMA nodes (one per socket), 32
// physical cores with 2 hyper-threads each (64 logical CPUs) and 256 GiB, with
// a NodeResourceTopology carrying Koordinator's cpu-topology annotation. GPU
// nodes add a Device object: 8 GPUs on 4 PCIe switches (2 switches per NUMA
// node, 2 GPUs per switch) with gpu-core / gpu-memory / gpu-memory-ratio, and
// 2 RDMA NICs (one per NUMA node, on that node's first switch) with 8 VFs each.
//
// CPU numbering follows Linux on such a machine: logical CPUs 0-31 are the
// first threads of cores 0-31 (cores 0-15 on socket 0), 32-63 their siblings.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/device.hpp"
#include "model/node.hpp"
#include "model/node_resource_topology.hpp"
#include "model/result.hpp"

namespace troupe::sim::synthetic {

inline constexpr int kSockets = 2;
inline constexpr int kCoresPerSocket = 16;
inline constexpr int kThreadsPerCore = 2;
inline constexpr int kLogicalCpus = kSockets * kCoresPerSocket * kThreadsPerCore;  // 64
inline constexpr int64_t kNodeMemoryGiB = 256;
inline constexpr int kGpusPerNode = 8;
inline constexpr int kGpusPerPcieSwitch = 2;
inline constexpr int kRdmaNics = 2;
inline constexpr int kVfsPerNic = 8;
inline constexpr const char* kCpuTopologyAnnotation = "node.koordinator.sh/cpu-topology";

struct ClusterSpec {
  size_t nodes = 1000;
  /// Share of nodes that carry GPUs and NICs (0..1); which ones is drawn from the seed.
  double gpu_node_fraction = 1.0;
  uint64_t seed = 1;
  std::string name_prefix = "node-";
  std::string gpu_model = "A100";
  int64_t gpu_memory_gib = 80;  // per card
};

struct SyntheticNode {
  Node node;
  NodeResourceTopology topology;
  std::optional<Device> device;  // GPU nodes only
};

/// Errors: no nodes, a fraction outside [0, 1], an empty prefix or model,
/// card memory <= 0.
Result<std::vector<SyntheticNode>> make_cluster(const ClusterSpec& spec);

/// The cpu-topology annotation's JSON for the node shape above.
std::string cpu_topology_json();

}  // namespace troupe::sim::synthetic
