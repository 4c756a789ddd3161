#include "plugins/deviceshare/numa_hints.hpp"

#include <bitset>

#include "plugins/deviceshare/joint_allocator.hpp"
#include "plugins/topology_manager/numa_hint.hpp"

namespace troupe::plugins::deviceshare {

namespace {

void combinations(const std::vector<int32_t>& nodes, size_t start, size_t size, uint64_t accum, size_t taken,
                  std::vector<uint64_t>& out) {
  if (taken == size) {
    out.push_back(accum);
    return;
  }
  for (size_t i = start; i < nodes.size(); ++i)
    combinations(nodes, i + 1, size, accum | (uint64_t{1} << nodes[i]), taken + 1, out);
}

size_t popcount(uint64_t mask) { return std::bitset<64>(mask).count(); }

// calcTotalDevicesByNUMA: devices of each type on the subset's NUMA nodes.
std::array<int64_t, kDeviceTypeCount> devices_on(const NodeDevices& node, uint64_t mask) {
  std::array<int64_t, kDeviceTypeCount> out{};
  for (const auto& [numa, switches] : node.numa_topology()) {
    if (numa < 0 || numa > 63 || (mask >> numa & 1u) == 0) continue;
    for (const PcieSwitch& sw : switches)
      for (DeviceType t : kAllDeviceTypes) out[type_index(t)] += static_cast<int64_t>(sw.minors[type_index(t)].size());
  }
  return out;
}

std::array<bool, kDeviceTypeCount> types_on(const NodeDevices& node, uint64_t mask) {
  std::array<bool, kDeviceTypeCount> out{};
  for (const auto& [numa, switches] : node.numa_topology()) {
    if (numa < 0 || numa > 63 || (mask >> numa & 1u) == 0) continue;
    for (const PcieSwitch& sw : switches)
      for (DeviceType t : kAllDeviceTypes)
        if (!sw.minors[type_index(t)].empty()) out[type_index(t)] = true;
  }
  return out;
}

MinorMask gpu_minors(const AllocationPlan& plan) {
  MinorMask mask = 0;
  for (const PlannedDevice& d : plan.types[type_index(DeviceType::gpu)].devices) mask |= minor_bit(d.minor);
  return mask;
}

struct Feasible {
  uint64_t mask;
  MinorMask gpus;
};

}  // namespace

std::vector<uint64_t> numa_subsets(const std::vector<int32_t>& nodes) {
  std::vector<uint64_t> out;
  for (size_t size = 1; size <= nodes.size(); ++size) combinations(nodes, 0, size, 0, 0, out);
  return out;
}

PluginStatus generate_numa_hints(const NodeDevices& node, const DeviceShareRequest& request,
                                 const AllocateOptions& options, NumaHints& out) {
  out.clear();
  std::vector<int32_t> nodes;
  for (const auto& [numa, switches] : node.numa_topology())
    if (numa >= 0 && numa <= 63) nodes.push_back(numa);  // the map is ordered: ascending ids
  if (nodes.size() > plugins::topology::kMaxAlignedNumaNodes)
    return PluginStatus::unresolvable(plugins::topology::kErrTooManyNumaNodes);

  std::array<std::optional<size_t>, kDeviceTypeCount> min_size;
  bool sizes_set = false;
  PluginStatus full_status;
  MinorMask best_gpus = 0;
  std::vector<Feasible> feasible;
  AllocateOptions restricted = options;
  restricted.scorer = nullptr;

  for (uint64_t mask : numa_subsets(nodes)) {
    const bool full = popcount(mask) == nodes.size();
    restricted.numa_nodes = mask;
    PreparedTypes prepared;
    PluginStatus status = prepare_types(node, request, restricted, prepared);
    AllocationPlan plan;
    if (status.ok()) {
      const auto totals = devices_on(node, mask);
      const auto present = types_on(node, mask);
      for (DeviceType t : kAllDeviceTypes) {
        const PreparedType& p = prepared[type_index(t)];
        if (p.present && present[type_index(t)] && totals[type_index(t)] < p.desired) {
          status = PluginStatus::unresolvable(kErrInsufficientNumaScopedDevices);
          break;
        }
      }
    }
    if (status.ok()) {
      if (!sizes_set) {
        for (DeviceType t : kAllDeviceTypes)
          if (prepared[type_index(t)].present) min_size[type_index(t)] = nodes.size();
        sizes_set = true;
      }
      status = allocate_devices(node, request, restricted, plan);
      if (status.ok() && !plan.empty()) {
        for (auto& size : min_size)
          if (size && popcount(mask) < *size) size = popcount(mask);
        feasible.push_back(Feasible{mask, gpu_minors(plan)});
      }
    }
    if (full) {
      full_status = status;
      best_gpus = status.ok() ? gpu_minors(plan) : 0;
    }
  }

  for (const Feasible& f : feasible) {
    for (DeviceType t : kAllDeviceTypes) {
      if (!min_size[type_index(t)]) continue;
      NumaHint hint;
      hint.numa_nodes = f.mask;
      hint.score = f.gpus == best_gpus ? kDefaultNumaScore : 0;
      hint.preferred = popcount(f.mask) == *min_size[type_index(t)];
      out[std::string(device_type_name(t))].push_back(hint);
    }
  }
  for (DeviceType t : kAllDeviceTypes) {
    if (!min_size[type_index(t)]) continue;
    if (out.count(std::string(device_type_name(t))) == 0) {
      out.clear();
      return full_status;
    }
  }
  if (!full_status.ok()) {
    out.clear();
    return full_status;
  }
  return {};
}

}  // namespace troupe::plugins::deviceshare
