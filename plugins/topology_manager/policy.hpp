#pragma once
// The topology manager's hint merge (Koordinator frameworkext/topologymanager
// policy*.go, itself kubelet's): every provider's hints per resource are
// crossed, each permutation ANDed into one affinity, and the best one kept:
// preferred over not, then narrower, then on equal width the higher summed
// score. Only the permutations that can merge preferred are crossed first
// (their number is about the hints', not their product); the rest only when
// none does and they are few (policy.cpp). The policy then decides admission:
//   None            admits, no affinity;
//   BestEffort      admits whatever was found (all nodes when unsatisfied);
//   Restricted      admits only a preferred affinity;
//   SingleNUMANode  considers only one-node preferred hints, admits only a
//                   preferred result.
// singleNUMANodeExclusive=Required turns a permutation non-preferred when a
// multi-NUMA affinity touches a node hosting single-NUMA pods, or a
// single-NUMA affinity lands on a node shared by multi-NUMA pods.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.hpp"
#include "plugins/topology_manager/numa_hint.hpp"

namespace troupe::plugins::topology {

enum class NumaPolicy { none, best_effort, restricted, single_numa_node };
enum class NumaExclusive { none, preferred, required };
/// What a NUMA node hosts (apiext.NumaNodeStatus).
enum class NumaNodeStatus { idle, single, shared };

inline constexpr const char* kErrUnsatisfiedNumaResource = "Unsatisfied NUMA ";   // + resource
inline constexpr const char* kErrNumaHintCannotAligned = "Unaligned NUMA Hint cause ";  // + summary

/// "" (None), "BestEffort", "Restricted", "SingleNUMANode" (the pod
/// annotation and node label values); anything else is an error naming it.
Result<NumaPolicy> parse_numa_policy(std::string_view text);
/// NodeResourceTopology topologyPolicies: BestEffort, Restricted,
/// SingleNUMANodePodLevel; every other value (including
/// SingleNUMANodeContainerLevel, as Koordinator's switch) is None.
NumaPolicy numa_policy_from_nrt(std::string_view text);
std::string_view to_string(NumaPolicy policy);
/// "" (unset), "Preferred", "Required".
Result<NumaExclusive> parse_numa_exclusive(std::string_view text);
std::string_view to_string(NumaExclusive exclusive);

/// The pod's policy and the node's (label, else NRT) must agree when both are
/// set; the one that is set wins. nullopt = they conflict.
std::optional<NumaPolicy> merge_numa_policies(NumaPolicy node, NumaPolicy pod);

struct MergeResult {
  NumaHint hint;
  bool admit = false;
  std::vector<std::string> reasons;
};

/// Policy.Merge for the node's NUMA nodes `numa_nodes`. `statuses` is
/// indexed by NUMA node id (missing entries count as idle).
MergeResult merge_hints(NumaPolicy policy, const std::vector<int>& numa_nodes,
                        const std::vector<NumaHints>& providers, NumaExclusive exclusive,
                        const std::vector<NumaNodeStatus>& statuses);

/// mergeFilteredHints' choice among the permutations of `lists` (one list
/// per resource), as merge_hints makes it: exact when a permutation merges
/// preferred or there are at most 200,000 permutations (see policy.cpp).
NumaHint best_permutation(NumaMask all_nodes, const std::vector<std::vector<NumaHint>>& lists,
                          NumaExclusive exclusive, const std::vector<NumaNodeStatus>& statuses);
/// The same by crossing every permutation one by one (the tests' reference).
NumaHint best_of_every_permutation(NumaMask all_nodes, const std::vector<std::vector<NumaHint>>& lists,
                                   NumaExclusive exclusive, const std::vector<NumaNodeStatus>& statuses);

}  // namespace troupe::plugins::topology
