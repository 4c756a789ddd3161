#pragma once
// A NUMA topology hint (Koordinator frameworkext/topologymanager
// NUMATopologyHint, after kubelet's TopologyHint): a set of NUMA nodes that
// can hold a resource of the pod, whether it is preferred, and a score that
// breaks ties between equally wide sets. The shape matches
// deviceshare::NumaHint (bitmask + preferred + score) so DeviceShare's hints
// convert field by field.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace troupe::plugins::topology {

/// Bit i = NUMA node i (node ids 0..63).
using NumaMask = uint64_t;

/// Hints enumerate every subset of a node's NUMA nodes, 2^n of them, each
/// tried by the providers: beyond this many NUMA nodes a pod that needs
/// alignment is not aligned there (kubelet's topology manager itself refuses
/// more than 8 unless told otherwise).
inline constexpr size_t kMaxAlignedNumaNodes = 12;
/// The rejection for such a node (UnschedulableAndUnresolvable).
inline constexpr const char* kErrTooManyNumaNodes = "node(s) had more NUMA nodes than troupe aligns (at most 12)";

struct NumaHint {
  /// 0 = "any NUMA node" (Go's nil affinity): the provider has no preference.
  NumaMask numa_nodes = 0;
  bool preferred = false;
  int64_t score = 0;
  /// Set by the merge when the ANDed affinity is narrower than one of its
  /// inputs (that input's resource would not fit).
  bool unsatisfied = false;

  friend bool operator==(const NumaHint& a, const NumaHint& b) {
    return a.numa_nodes == b.numa_nodes && a.preferred == b.preferred && a.score == b.score &&
           a.unsatisfied == b.unsatisfied;
  }
};

/// One provider's hints: resource name -> its possible NUMA sets. An empty
/// map means "no preference for any resource"; a resource mapped to an empty
/// vector has no possible NUMA affinity at all.
using NumaHints = std::map<std::string, std::vector<NumaHint>>;

int mask_count(NumaMask mask);
/// The NUMA node ids in the mask, ascending.
std::vector<int> mask_bits(NumaMask mask);
NumaMask mask_of(const std::vector<int>& nodes);
/// kubelet's IsNarrowerThan: fewer nodes, or as many with a lower value.
bool is_narrower(NumaMask a, NumaMask b);
/// "[0 1]": the node ids, for messages.
std::string mask_string(NumaMask mask);

/// Every non-empty subset of `nodes`: all of size 1 in order, then size 2 in
/// lexicographic order, and so on (bitmask.IterateBitMasks).
std::vector<NumaMask> numa_subsets(const std::vector<int>& nodes);

}  // namespace troupe::plugins::topology
