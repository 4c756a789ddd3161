#pragma once
// The GPU topology tree of a node (allocator_gpu_helper.go GetGPUTopologyScope):
// Node (level 1) -> NUMA node (level 2, by topology.nodeID, ascending) ->
// PCIe switch (level 3, by pcieID, ascending); each scope lists its GPU
// minors in ascending order. Any GPU without a topology means no tree.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/device.hpp"
#include "plugins/deviceshare/device_types.hpp"

namespace troupe::plugins::deviceshare {

struct GpuScope {
  int level = 0;                // kScopeLevelNode / NumaNode / Pcie
  std::vector<int32_t> minors;  // ascending
  MinorMask mask = 0;           // minors 0..63
  int32_t numa_node = 0;        // NUMA scopes
  std::string pcie_id;          // PCIe scopes
  std::vector<GpuScope> children;
};

/// nullopt when there are no GPUs or one of them has no topology.
std::optional<GpuScope> build_gpu_topology(const std::vector<const DeviceInfo*>& gpus);

}  // namespace troupe::plugins::deviceshare
