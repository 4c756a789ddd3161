#pragma once
// DeviceShare's NUMA topology hints (topology_hint.go generateTopologyHints),
// for the NUMA-aware CPU work that merges hints from several plugins.
//
// For every non-empty subset of the node's NUMA nodes (those of devices with
// a known nodeID), smallest subsets first, the pod's devices are allocated
// restricted to that subset (without a scorer, as Koordinator does); each
// feasible subset becomes a hint for every requested device type ("gpu",
// "rdma", "fpga"). A hint is preferred when its subset is as small as the
// smallest feasible one; the subset whose GPUs equal the allocation over all
// NUMA nodes scores 500 (so the device preference outweighs CPU's), the rest 0.
// A subset holding fewer devices of a type than wanted is skipped
// ("Insufficient NUMA Scoped Devices"). The status of the all-nodes subset is
// returned when it failed, or when some type got no hint at all.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "plugins/deviceshare/allocation_view.hpp"

namespace troupe::plugins::deviceshare {

inline constexpr int64_t kDefaultNumaScore = 500;
inline constexpr const char* kErrInsufficientNumaScopedDevices = "Insufficient NUMA Scoped Devices";

struct NumaHint {
  uint64_t numa_nodes = 0;  // bit i = NUMA node i
  bool preferred = false;
  int64_t score = 0;

  friend bool operator==(const NumaHint& a, const NumaHint& b) {
    return a.numa_nodes == b.numa_nodes && a.preferred == b.preferred && a.score == b.score;
  }
};

/// Device type name -> hints, in subset order.
using NumaHints = std::map<std::string, std::vector<NumaHint>>;

/// `options` gives the node labels; its scorer and NUMA restriction are ignored.
PluginStatus generate_numa_hints(const NodeDevices& node, const DeviceShareRequest& request,
                                 const AllocateOptions& options, NumaHints& out);

/// Every non-empty subset of `nodes` as a bitmask: all subsets of size 1 in
/// order, then size 2 in lexicographic order, and so on (kubelet's
/// bitmask.IterateBitMasks).
std::vector<uint64_t> numa_subsets(const std::vector<int32_t>& nodes);

}  // namespace troupe::plugins::deviceshare
