#include "plugins/deviceshare/gpu_topology.hpp"

#include <algorithm>
#include <map>

#include "plugins/deviceshare/device_hints.hpp"

namespace troupe::plugins::deviceshare {

namespace {

void add_minor(GpuScope& scope, int32_t minor) {
  if (std::find(scope.minors.begin(), scope.minors.end(), minor) == scope.minors.end()) scope.minors.push_back(minor);
  scope.mask |= minor_bit(minor);
}

void sort_minors(GpuScope& scope) {
  std::sort(scope.minors.begin(), scope.minors.end());
  for (auto& child : scope.children) sort_minors(child);
}

}  // namespace

std::optional<GpuScope> build_gpu_topology(const std::vector<const DeviceInfo*>& gpus) {
  if (gpus.empty()) return std::nullopt;
  GpuScope root;
  root.level = kScopeLevelNode;
  // Ordered maps give the ascending NUMA id / PCIe id order of the children.
  std::map<int32_t, std::map<std::string, std::vector<int32_t>>> by_numa;
  for (const DeviceInfo* info : gpus) {
    if (!info->topology) return std::nullopt;
    const int32_t minor = info->minor.value_or(0);
    add_minor(root, minor);
    by_numa[info->topology->node_id][info->topology->pcie_id].push_back(minor);
  }
  for (const auto& [numa, pcies] : by_numa) {
    GpuScope numa_scope;
    numa_scope.level = kScopeLevelNumaNode;
    numa_scope.numa_node = numa;
    for (const auto& [pcie, minors] : pcies) {
      GpuScope pcie_scope;
      pcie_scope.level = kScopeLevelPcie;
      pcie_scope.numa_node = numa;
      pcie_scope.pcie_id = pcie;
      for (int32_t m : minors) {
        add_minor(pcie_scope, m);
        add_minor(numa_scope, m);
      }
      numa_scope.children.push_back(std::move(pcie_scope));
    }
    root.children.push_back(std::move(numa_scope));
  }
  sort_minors(root);
  return root;
}

}  // namespace troupe::plugins::deviceshare
