#include "plugins/deviceshare/gpu_quick_verdict.hpp"

#include <algorithm>

#include "plugins/deviceshare/gpu_memory.hpp"
#include "plugins/deviceshare/gpu_partition.hpp"

namespace troupe::plugins::deviceshare {

namespace {

bool gpu_only_plain(const DeviceShareRequest& request) {
  if (!request.gpu || !request.joint_types.empty() || !request.gpu->required_topology_scope.empty()) return false;
  for (DeviceType type : kAllDeviceTypes) {
    if (request.hint(type) != nullptr) return false;
    if (type != DeviceType::gpu && request.requests.get(type) != nullptr) return false;
  }
  return request.requests.get(DeviceType::gpu) != nullptr;
}

bool plain_options(const AllocateOptions& options) {
  return options.scorer == nullptr && !options.numa_nodes && options.gpu_slot_mask == ~uint64_t{0};
}

// The allocator would reach its per-device allocation: no partition table
// decides (or reports its absence) and no topology tree is there to walk.
bool plain_node(const NodeDevices& node, const GpuRequirements& gpu, const AllocateOptions& options) {
  if (node.devices(DeviceType::gpu).slots.empty() || node.gpu_topology() != nullptr) return false;
  if (node.partition_indexer() != nullptr) return false;
  if (options.node_labels != nullptr && builtin_partition_indexer(*options.node_labels) != nullptr) return false;
  if (gpu.shared) return true;
  // Without a table, honouring partitions is the allocator's "missing table" answer.
  const bool node_honors = options.node_labels != nullptr ? honors_gpu_partitions(*options.node_labels)
                                                          : node.device_honors_partitions();
  return !gpu.honor_partition && !node_honors;
}

}  // namespace

std::optional<PluginStatus> quick_gpu_verdict(const NodeDevices& node, const DeviceShareRequest& request,
                                              const AllocateOptions& options) {
  if (!gpu_only_plain(request) || !plain_options(options) || !plain_node(node, *request.gpu, options))
    return std::nullopt;
  const int64_t wanted = std::max<int64_t>(request.gpu->count, 1);
  const TypeDevices& gpus = node.devices(DeviceType::gpu);
  int64_t fitting = 0;
  // build_view drops the type when nothing is free; then no card is a candidate.
  if (gpus.any_free()) {
    const uint64_t listed = gpus.listed_slots();
    const DeviceAmounts& per_card = request.gpu->per_gpu_amounts;
    for (size_t i = 0; i < gpus.slots.size() && i < kMaxDevicesPerType && fitting < wanted; ++i) {
      const DeviceSlot& slot = gpus.slots[i];
      if ((listed >> i & 1u) == 0 || !slot.has_view_free()) continue;
      if (fill_gpu_memory(per_card, slot.total()).fits_in(slot.view_free())) ++fitting;
    }
  }
  if (fitting >= wanted) return PluginStatus{};
  // Built once: most nodes of a busy cluster fail here for every pod.
  static const std::string kInsufficientGpus = "Insufficient " + std::string(device_type_name(DeviceType::gpu)) + " devices";
  return PluginStatus::unschedulable(kInsufficientGpus);
}

}  // namespace troupe::plugins::deviceshare
