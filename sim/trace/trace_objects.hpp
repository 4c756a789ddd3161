#pragma once
// Kubernetes objects for a trace, as fgd-method.md §2 describes the cluster
// and the pods, spelled the way troupe's scheduler reads them (Koordinator's
// resource names and labels, koordinator-api.md §1-2):
// - Node: capacity = allocatable = cpu, memory, pods 1001 and, on GPU nodes,
//   nvidia.com/gpu, koordinator.sh/gpu (= gpu-core), gpu-core, gpu-memory,
//   gpu-memory-ratio; labels kubernetes.io/hostname and, on GPU nodes,
//   node.koordinator.sh/gpu-model and gpu-vendor (nvidia); Ready.
// - Device (GPU nodes only, named after the node): one healthy `gpu` entry per
//   card, minor = index, gpu-core 100, gpu-memory-ratio 100 and the model's
//   per-card memory.
// - Pod: one container, requests = limits = cpu/memory; a shared GPU
//   (num_gpu 1, gpu_milli < 1000) asks koordinator.sh/gpu = gpu_milli / 10
//   percent of one card; whole GPUs ask nvidia.com/gpu = num_gpu; a gpu_spec
//   becomes a required node affinity on node.koordinator.sh/gpu-model.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/device.hpp"
#include "model/node.hpp"
#include "model/pod.hpp"
#include "model/result.hpp"
#include "sim/trace/openb_trace.hpp"

namespace troupe::sim::trace {

inline constexpr std::string_view kGpuModelLabel = "node.koordinator.sh/gpu-model";
inline constexpr std::string_view kGpuVendorLabel = "node.koordinator.sh/gpu-vendor";
/// The method's maximum pods per node.
inline constexpr int64_t kTracePodsPerNode = 1001;

/// Per-card memory of a GPU model in MiB (the FGD simulator's
/// MapGpuTypeMemoryMiB); nullopt for a model it does not know.
std::optional<int64_t> gpu_memory_mib(std::string_view model);

struct PodBuildOptions {
  std::string namespace_name = "paib-gpu";  // the method's namespace
  std::string scheduler_name = "troupe";
};

/// Errors: a GPU node whose model has no known card memory.
Result<Node> build_node(const TraceNode& node);
/// nullopt for a node without GPUs; errors as build_node.
Result<std::optional<Device>> build_device(const TraceNode& node);
Pod build_pod(const TracePod& pod, const PodBuildOptions& options = {});

/// Every node, Device and pod as one JSON `List` (kind List, apiVersion v1)
/// that `troupe apiserver --load` accepts.
Result<std::string> trace_cluster_json(const std::vector<TraceNode>& nodes, const std::vector<TracePod>& pods,
                                       const PodBuildOptions& options = {});

}  // namespace troupe::sim::trace
