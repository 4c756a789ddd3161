#pragma once
// NodeCpus: NodeNUMAResource's per-node state (Koordinator's NodeAllocation
// plus the node's TopologyOptions), NodeInfo's extension in slot kCpus.
//
// Two sources feed it and either may come first:
//  - the node's NodeResourceTopology (apply_topology / clear_topology);
//  - the pods on the node: their resource-status annotation (cpuset and
//    per-NUMA resources) and resource-spec exclusive policy through
//    on_pod_added / on_pod_removed, and Reserve's add_allocation.
// A pod is accounted once under its identity (uid, else namespace/name); a
// second add is ignored and removal undoes exactly what was added. A
// malformed annotation accounts nothing and is counted.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/cpuset.hpp"
#include "model/node_resource_topology.hpp"
#include "model/resources.hpp"
#include "plugins/framework/node_extension.hpp"
#include "plugins/node_numa_resource/cpu_accumulator.hpp"
#include "plugins/node_numa_resource/node_policies.hpp"
#include "plugins/node_numa_resource/pod_annotations.hpp"
#include "plugins/node_numa_resource/topology_options.hpp"
#include "plugins/topology_manager/policy.hpp"

namespace troupe::plugins::numa {

struct PodAllocation {
  std::string name;  // "namespace/name", for summaries
  CpuSet cpus;
  CpuExclusivePolicy exclusive = CpuExclusivePolicy::unset;
  std::vector<NumaNodeResource> numa_resources;

  bool empty() const { return cpus.empty() && numa_resources.empty(); }
};

class NodeCpus final : public NodeExtension {
 public:
  NodeCpus() = default;

  /// Keeps what the NRT gives (TopologyOptions), not the NRT itself: its
  /// annotations and zones would cost kilobytes per node; the options are
  /// shared with the nodes whose NRTs have the same content
  /// (shared_topology_options.hpp). Null clears.
  void apply_topology(std::shared_ptr<const NodeResourceTopology> nrt);
  void clear_topology();
  bool has_topology() const { return has_topology_; }
  bool holds_object() const override { return has_topology(); }
  /// Defaults (no topology, no NUMA nodes) without an NRT.
  const TopologyOptions& options() const;

  void on_pod_added(const PodInfo& pod) override;
  void on_pod_removed(const PodInfo& pod) override;
  /// Keeps the reservedCPUs of the Node's own node.koordinator.sh/reservation
  /// annotation and the policies its labels set, so Filter and Score do not
  /// read them for every pod.
  void on_node_changed(const Node* node) override;
  /// Those CPUs (empty without a node, annotation or when it is malformed).
  const CpuSet& node_reserved_cpus() const;
  /// The node's policies from its labels and NRT (defaults without a node);
  /// kept current by on_node_changed, apply_topology and clear_topology.
  const NodePolicies& policies() const { return policies_; }
  std::unique_ptr<NodeExtension> clone() const override { return std::make_unique<NodeCpus>(*this); }

  /// Accounts an allocation under `pod_key`; false (no change) when the key
  /// is already accounted or the allocation is empty.
  bool add_allocation(std::string_view pod_key, PodAllocation allocation);
  /// Undoes add_allocation; false when the key is not accounted.
  bool remove_allocation(std::string_view pod_key);
  const PodAllocation* allocation(std::string_view pod_key) const;
  const std::map<std::string, PodAllocation, std::less<>>& allocations() const { return pods_; }

  /// Every CPU held by a pod -> the exclusive policy of its holder. A CPU
  /// claimed by two pods (stale annotations) keeps the first holder's policy.
  const AllocatedCpus& allocated_cpus() const { return allocated_; }
  /// Number of pods holding the CPU (more than one only from inconsistent annotations).
  int holders(int cpu) const { return allocated_.holders(cpu); }
  /// Topology CPUs minus reserved and allocated (and `also_reserved`).
  CpuSet available_cpus(const CpuSet& also_reserved = {}) const;
  /// count_for_required_policy(required, available_cpus(node_reserved_cpus()),
  /// topology): how many CPUs a pod requiring the policy could get. Kept
  /// current on every change (topology, Node, allocations) so Filter does not
  /// walk the cores for every pod; 0 without a valid CPU topology.
  int free_cpus_for_required_policy(CpuBindPolicy required) const;
  /// What pods hold per NUMA node.
  const std::map<int, ResourceList>& numa_allocated() const { return numa_allocated_; }
  /// Allocatable minus allocated per NUMA node (never negative), ascending by node.
  std::map<int, ResourceList> numa_available() const;
  /// Per NUMA node id (index): idle, single (only single-NUMA pods) or shared.
  std::vector<topology::NumaNodeStatus> numa_statuses() const;

  size_t malformed_annotations() const { return malformed_; }

 private:
  void account(const PodAllocation& allocation, bool add);
  void refresh_policies() { policies_ = combine_node_policies(policy_labels_, options()); }
  void refresh_free_counts();

  // An NRT was applied (even one giving no valid topology): the node entry
  // must be kept for it (holds_object).
  bool has_topology_ = false;
  std::shared_ptr<const TopologyOptions> options_;  // null without an NRT
  // Null when empty (the usual case): a CpuSet is 128 bytes.
  std::shared_ptr<const CpuSet> node_reserved_cpus_;
  NodePolicyLabels policy_labels_;
  NodePolicies policies_;
  // free_cpus_for_required_policy for FullPCPUs, SpreadByPCPUs and any other policy.
  int free_full_pcpus_ = 0;
  int free_spread_by_pcpus_ = 0;
  int free_any_ = 0;
  std::map<std::string, PodAllocation, std::less<>> pods_;
  AllocatedCpus allocated_;
  std::map<int, ResourceList> numa_allocated_;
  size_t malformed_ = 0;
};

/// The pod's allocation as its annotations tell it: cpuset and NUMA
/// resources from resource-status, exclusive policy from resource-spec.
Result<PodAllocation> pod_allocation_from(const Pod& pod);

}  // namespace troupe::plugins::numa
