#include "sim/trace/trace_objects.hpp"

#include <utility>

#include "model/resource_names.hpp"

namespace troupe::sim::trace {

namespace rn = resource_names;

namespace {

constexpr int64_t kMiB = 1024 * 1024;

Quantity mebibytes(int64_t mib) { return Quantity::from_value(mib * kMiB, Quantity::Format::binary_si); }
Quantity count(int64_t n) { return Quantity::from_value(n); }

ResourceList node_resources(const TraceNode& node, int64_t card_memory_mib) {
  ResourceList r;
  r[std::string(rn::kCpu)] = Quantity::from_milli(node.cpu_milli);
  r[std::string(rn::kMemory)] = mebibytes(node.memory_mib);
  r[std::string(rn::kPods)] = count(kTracePodsPerNode);
  if (node.gpu_count > 0) {
    const int64_t cards = node.gpu_count;
    r[std::string(rn::kNvidiaGpu)] = count(cards);
    r[std::string(rn::kKoordGpu)] = count(100 * cards);
    r[std::string(rn::kGpuCore)] = count(100 * cards);
    r[std::string(rn::kGpuMemoryRatio)] = count(100 * cards);
    r[std::string(rn::kGpuMemory)] = mebibytes(card_memory_mib * cards);
  }
  return r;
}

Labels gpu_labels(const TraceNode& node) {
  return {{std::string(kGpuModelLabel), node.model}, {std::string(kGpuVendorLabel), "nvidia"}};
}

Result<int64_t> card_memory(const TraceNode& node) {
  if (node.gpu_count == 0) return int64_t{0};
  auto mib = gpu_memory_mib(node.model);
  if (!mib) return Error{"node " + node.name + ": GPU model '" + node.model + "' has no known card memory"};
  return *mib;
}

ResourceList pod_requests(const TracePod& pod) {
  ResourceList r;
  r[std::string(rn::kCpu)] = Quantity::from_milli(pod.cpu_milli);
  if (pod.memory_mib > 0) r[std::string(rn::kMemory)] = mebibytes(pod.memory_mib);
  if (pod.shares_gpu()) {
    // koordinator.sh/gpu is a percentage of one card: 810 milli-GPU = 81.
    r[std::string(rn::kKoordGpu)] = Quantity::from_milli(static_cast<int64_t>(pod.gpu_milli) * 100);
  } else if (pod.num_gpu > 0) {
    r[std::string(rn::kNvidiaGpu)] = count(pod.num_gpu);
  }
  return r;
}

Affinity model_affinity(const std::vector<std::string>& models) {
  LabelRequirement requirement;
  requirement.key = std::string(kGpuModelLabel);
  requirement.op = LabelRequirement::Op::in;
  requirement.values = models;
  NodeSelectorTerm term;
  term.match_expressions.push_back(std::move(requirement));
  NodeAffinity node_affinity;
  node_affinity.required = NodeSelector{{std::move(term)}};
  Affinity affinity;
  affinity.node_affinity = std::move(node_affinity);
  return affinity;
}

}  // namespace

std::optional<int64_t> gpu_memory_mib(std::string_view model) {
  // The simulator's table (bytes / 2^20, truncated). Its G1 entry computes
  // 1048576000 B = 1000 MiB; that value is kept as the simulator has it.
  static const std::pair<std::string_view, int64_t> kTable[] = {
      {"P4", 7611},       {"2080", 11019}, {"1080", 11178}, {"M40", 11448},  {"T4", 15109},
      {"V100M16", 16160}, {"P100", 16280}, {"A10", 22731},  {"3090", 24268}, {"V100M32", 32510},
      {"A100", 81251},    {"G1", 1000},    {"G2", 20000},   {"G3", 30000},
  };
  for (const auto& [name, mib] : kTable)
    if (name == model) return mib;
  return std::nullopt;
}

Result<Node> build_node(const TraceNode& trace_node) {
  auto memory = card_memory(trace_node);
  if (!memory) return memory.error();
  Node node;
  node.meta.name = trace_node.name;
  node.meta.labels["kubernetes.io/hostname"] = trace_node.name;
  if (trace_node.gpu_count > 0)
    for (auto& [key, value] : gpu_labels(trace_node)) node.meta.labels[key] = value;
  node.status.capacity = node_resources(trace_node, *memory);
  node.status.allocatable = node.status.capacity;
  Condition ready;
  ready.type = "Ready";
  ready.status = "True";
  ready.reason = "KubeletReady";
  node.status.conditions.push_back(std::move(ready));
  return node;
}

Result<std::optional<Device>> build_device(const TraceNode& trace_node) {
  if (trace_node.gpu_count == 0) return std::optional<Device>{};
  auto memory = card_memory(trace_node);
  if (!memory) return memory.error();
  Device device;
  device.meta.name = trace_node.name;
  device.meta.labels = gpu_labels(trace_node);
  for (int32_t minor = 0; minor < trace_node.gpu_count; ++minor) {
    DeviceInfo card;
    card.type = std::string(kDeviceTypeGpu);
    card.id = trace_node.name + "-gpu-" + std::to_string(minor);
    card.minor = minor;
    card.health = true;
    card.resources[std::string(rn::kGpuCore)] = count(100);
    card.resources[std::string(rn::kGpuMemoryRatio)] = count(100);
    card.resources[std::string(rn::kGpuMemory)] = mebibytes(*memory);
    device.devices.push_back(std::move(card));
  }
  return std::optional<Device>{std::move(device)};
}

Pod build_pod(const TracePod& trace_pod, const PodBuildOptions& options) {
  Pod pod;
  pod.meta.name = trace_pod.name;
  pod.meta.namespace_name = options.namespace_name;
  pod.spec.scheduler_name = options.scheduler_name;
  Container container;
  container.name = "main";
  container.resources.requests = pod_requests(trace_pod);
  container.resources.limits = container.resources.requests;
  pod.spec.containers.push_back(std::move(container));
  if (!trace_pod.gpu_spec.empty()) pod.spec.affinity = model_affinity(trace_pod.gpu_spec);
  pod.status.phase = "Pending";
  return pod;
}

Result<std::string> trace_cluster_json(const std::vector<TraceNode>& nodes, const std::vector<TracePod>& pods,
                                       const PodBuildOptions& options) {
  std::string items;
  auto append = [&items](const std::string& json) { items += (items.empty() ? "" : ",") + json; };
  for (const auto& trace_node : nodes) {
    auto node = build_node(trace_node);
    if (!node) return node.error();
    append(encode(*node));
    auto device = build_device(trace_node);
    if (!device) return device.error();
    if (*device) append(encode(**device));
  }
  for (const auto& trace_pod : pods) append(encode(build_pod(trace_pod, options)));
  return std::string(R"({"apiVersion":"v1","kind":"List","items":[)") + items + "]}";
}

}  // namespace troupe::sim::trace
