#pragma once
// The openb GPU cluster trace (Alibaba clusterdata, cluster-trace-gpu-v2023)
// as the FGD method reads it (shared/docs/fgd-method.md §2): node rows
// `sn, cpu_milli, memory_mib, gpu, model` and pod rows `name, cpu_milli,
// memory_mib, num_gpu, gpu_milli[, gpu_spec, qos, ...]`. Columns the method
// ignores (qos, phase, timestamps) are not read.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.hpp"

namespace troupe::sim::trace {

struct TraceNode {
  std::string name;
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int32_t gpu_count = 0;
  std::string model;  // GPU card model ("" on CPU-only nodes)
};

struct TracePod {
  std::string name;
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int32_t num_gpu = 0;
  /// Per GPU, in (0, 1000] for GPU pods (values above 1000 are read as 1000,
  /// as the method does), 0 for CPU-only pods.
  int32_t gpu_milli = 0;
  /// GPU models the pod may use (gpu_spec split on '|', empties and repeats
  /// dropped); empty = any model.
  std::vector<std::string> gpu_spec;

  bool cpu_only() const { return num_gpu == 0; }
  /// One fraction of one GPU.
  bool shares_gpu() const { return num_gpu == 1 && gpu_milli < 1000; }
  int64_t total_gpu_milli() const { return static_cast<int64_t>(num_gpu) * gpu_milli; }
  /// The spec as the trace writes it, '|'-joined ("" when unconstrained).
  std::string gpu_spec_text() const;
};

/// Parses a node list. Errors name origin:line and the column: non-integer or
/// negative numbers, an empty or repeated name.
Result<std::vector<TraceNode>> parse_trace_nodes(std::string_view csv, const std::string& origin);
/// Parses a pod list. Besides number errors: a GPU pod with gpu_milli 0, or a
/// multi-GPU pod asking for less than whole GPUs (neither occurs in the
/// traces; the method has no meaning for them).
Result<std::vector<TracePod>> parse_trace_pods(std::string_view csv, const std::string& origin);

/// Reads and parses a file; errors start with the path.
Result<std::vector<TraceNode>> load_trace_nodes(const std::string& path);
Result<std::vector<TracePod>> load_trace_pods(const std::string& path);

/// Total GPU capacity in milli-GPU (1000 per card).
int64_t cluster_gpu_milli(const std::vector<TraceNode>& nodes);
/// Only the nodes with at least one GPU (the method's cluster).
std::vector<TraceNode> gpu_nodes_only(const std::vector<TraceNode>& nodes);

}  // namespace troupe::sim::trace
