#include "plugins/descheduler/gpu_inventory.hpp"

#include <map>

#include "model/resource_names.hpp"
#include "plugins/deviceshare/device_allocated.hpp"
#include "plugins/deviceshare/device_requests.hpp"

namespace troupe::plugins::descheduler {

namespace deviceshare = plugins::deviceshare;
using resource_names::kGpuCore;
using resource_names::kGpuMemory;
using resource_names::kGpuMemoryRatio;

namespace {

constexpr int64_t kWholeCardCore = 100;

const std::vector<deviceshare::DeviceAllocation>* gpu_allocations(const deviceshare::DeviceAllocations& all) {
  auto it = all.find(std::string(kDeviceTypeGpu));
  return it == all.end() ? nullptr : &it->second;
}

std::optional<deviceshare::DeviceAllocations> allocations_of(const Pod& pod) {
  auto decoded = deviceshare::device_allocations_from(pod.meta.annotations);
  if (!decoded || !*decoded) return std::nullopt;
  return **decoded;
}

/// gpu-memory of the share; a ratio-only share takes that part of the card.
int64_t share_memory(const ResourceList& resources, int64_t card_memory) {
  if (resources.count(std::string(kGpuMemory))) return resources.get(kGpuMemory).value();
  return resources.get(kGpuMemoryRatio).value() * card_memory / 100;
}

}  // namespace

GpuNode gpu_node_from(const std::string& node_name, const Device& device,
                      const std::vector<std::shared_ptr<const Pod>>& pods) {
  GpuNode node;
  node.name = node_name;
  std::map<int32_t, size_t> card_of_minor;
  for (const DeviceInfo& info : device.devices) {
    if (info.type != kDeviceTypeGpu || !info.minor) continue;
    GpuCard card;
    card.minor = *info.minor;
    card.healthy = info.health;
    card.core_total = info.resources.count(std::string(kGpuCore)) ? info.resources.get(kGpuCore).value() : kWholeCardCore;
    card.memory_total = info.resources.get(kGpuMemory).value();
    card_of_minor[card.minor] = node.cards.size();
    node.cards.push_back(std::move(card));
  }
  for (const auto& pod : pods) {
    auto allocations = allocations_of(*pod);
    if (!allocations) continue;
    const auto* gpus = gpu_allocations(*allocations);
    if (!gpus) continue;
    for (const deviceshare::DeviceAllocation& allocation : *gpus) {
      auto it = card_of_minor.find(allocation.minor);
      if (it == card_of_minor.end()) continue;
      GpuCard& card = node.cards[it->second];
      card.users.push_back({pod, allocation.resources.get(kGpuCore).value(),
                            share_memory(allocation.resources, card.memory_total)});
    }
  }
  return node;
}

std::optional<int32_t> whole_gpu_request(const Pod& pod) {
  auto requests = deviceshare::get_pod_device_requests(pod.spec);
  if (!requests) return std::nullopt;
  const deviceshare::TypeRequest* gpu = requests->get(deviceshare::DeviceType::gpu);
  if (!gpu) return std::nullopt;
  const deviceshare::GpuPerCard per_card = deviceshare::split_gpu_request(gpu->resources);
  if (per_card.shared || per_card.count <= 0 || per_card.count > INT32_MAX) return std::nullopt;
  return static_cast<int32_t>(per_card.count);
}

bool holds_only_gpu_shares(const Pod& pod) {
  auto allocations = allocations_of(pod);
  if (!allocations) return false;
  const auto* gpus = gpu_allocations(*allocations);
  if (!gpus || gpus->empty()) return false;
  for (const deviceshare::DeviceAllocation& allocation : *gpus) {
    if (allocation.resources.get(kGpuCore).value() >= kWholeCardCore) return false;
  }
  return true;
}

}  // namespace troupe::plugins::descheduler
