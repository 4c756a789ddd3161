#pragma once
// What NodeNUMAResource knows about one node's CPUs and NUMA nodes
// (Koordinator topology_options.go), built from its NodeResourceTopology:
//  - the CPU topology (node.koordinator.sh/cpu-topology);
//  - reserved CPUs = kubelet-managed pod cpusets (node.koordinator.sh/pod-cpu-allocs,
//    managedByKubelet entries with uid and cpuset) ∪ kubelet reservedCPUs
//    (kubelet.koordinator.sh/cpu-manager-policy) ∪ node reservation
//    reservedCPUs (node.koordinator.sh/reservation) ∪ the exclusive
//    system-QoS cpuset (node.koordinator.sh/system-qos-resource);
//  - per NUMA node allocatable from zones of type "Node" named node-<id>,
//    cpu reduced by the reserved CPUs in that NUMA node;
//  - the NRT topology policy.
// The node's own labels (cpu-bind-policy, numa-topology-policy,
// numa-allocate-strategy) are combined with these in node_policies.hpp.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/cpuset.hpp"
#include "model/node.hpp"
#include "model/node_resource_topology.hpp"
#include "model/resources.hpp"
#include "plugins/node_numa_resource/cpu_topology.hpp"
#include "plugins/node_numa_resource/numa_types.hpp"
#include "plugins/topology_manager/policy.hpp"

namespace troupe::plugins::numa {

inline constexpr const char* kAnnotationPodCpuAllocs = "node.koordinator.sh/pod-cpu-allocs";
inline constexpr const char* kAnnotationKubeletCpuManagerPolicy = "kubelet.koordinator.sh/cpu-manager-policy";
inline constexpr const char* kAnnotationNodeReservation = "node.koordinator.sh/reservation";
inline constexpr const char* kAnnotationSystemQos = "node.koordinator.sh/system-qos-resource";
inline constexpr const char* kLabelCpuBindPolicy = "node.koordinator.sh/cpu-bind-policy";
inline constexpr const char* kLabelNumaTopologyPolicy = "node.koordinator.sh/numa-topology-policy";
inline constexpr const char* kLabelNumaAllocateStrategy = "node.koordinator.sh/numa-allocate-strategy";

struct KubeletCpuPolicy {
  std::string policy;  // "static", "none", ""
  std::map<std::string, std::string> options;
  CpuSet reserved_cpus;

  bool full_pcpus_only() const;
  bool distribute_cpus_across_numa() const;
};

/// Each decodes its annotation value; errors name the annotation and field.
/// A reservedCPUs that does not parse loses only the reserved set, as in
/// Koordinator: the policy and options stay; the problem goes to `problems`.
Result<KubeletCpuPolicy> decode_kubelet_cpu_policy(std::string_view text,
                                                   std::vector<std::string>* problems = nullptr);
/// The kubelet-managed pod cpusets (managedByKubelet with uid and cpuset). An
/// entry whose cpuset does not parse is skipped alone (Koordinator's
/// getPodAllocsCPUSet), the others kept; the problem goes to `problems`.
Result<CpuSet> decode_kubelet_pod_cpus(std::string_view text, std::vector<std::string>* problems = nullptr);
/// reservedCPUs of the node reservation.
Result<CpuSet> decode_node_reservation_cpus(std::string_view text);
/// The system-QoS cpuset when it is exclusive (cpusetExclusive defaults to true).
Result<CpuSet> decode_system_qos_cpus(std::string_view text);

struct NumaNodeAllocatable {
  int node = 0;
  ResourceList allocatable;
};

struct TopologyOptions {
  /// Null when the NRT has no (valid) CPU topology; shared with every node
  /// whose annotation has the same text (cpu_topology_cache.hpp).
  std::shared_ptr<const CpuTopology> cpu_topology;
  CpuSet reserved_cpus;
  KubeletCpuPolicy kubelet;
  topology::NumaPolicy numa_policy = topology::NumaPolicy::none;
  /// NUMA nodes with their allocatable, ascending by id.
  std::vector<NumaNodeAllocatable> numa_nodes;
  /// Annotations that did not decode (each left out), for diagnostics.
  std::vector<std::string> errors;

  bool valid_cpu_topology() const { return cpu_topology != nullptr && cpu_topology->valid(); }
  std::vector<int> numa_node_ids() const;
  const ResourceList* allocatable_of(int node) const;
};

TopologyOptions build_topology_options(const NodeResourceTopology& nrt);

/// reservedCPUs of the Node object's own node.koordinator.sh/reservation
/// annotation (empty when absent or malformed).
CpuSet node_annotation_reserved_cpus(const Node& node);

}  // namespace troupe::plugins::numa
