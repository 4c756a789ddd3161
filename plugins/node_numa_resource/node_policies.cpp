#include "plugins/node_numa_resource/node_policies.hpp"

namespace troupe::plugins::numa {

namespace {

std::string_view value_of(const Labels& labels, const char* key) {
  auto it = labels.find(key);
  return it == labels.end() ? std::string_view() : std::string_view(it->second);
}

}  // namespace

NodePolicyLabels read_node_policy_labels(const Node& node) {
  NodePolicyLabels out;
  const std::string_view bind = value_of(node.meta.labels, kLabelCpuBindPolicy);
  if (bind == "FullPCPUsOnly") out.cpu_bind = NodeCpuBindPolicy::full_pcpus_only;
  if (bind == "SpreadByPCPUs") out.cpu_bind = NodeCpuBindPolicy::spread_by_pcpus;
  // An unsupported spelling counts as no label, as in Koordinator.
  auto numa = topology::parse_numa_policy(value_of(node.meta.labels, kLabelNumaTopologyPolicy));
  if (numa) out.numa_policy = *numa;
  const std::string_view strategy = value_of(node.meta.labels, kLabelNumaAllocateStrategy);
  if (strategy == "MostAllocated") out.allocate_strategy = NumaAllocateStrategy::most_allocated;
  if (strategy == "LeastAllocated") out.allocate_strategy = NumaAllocateStrategy::least_allocated;
  if (strategy == "DistributeEvenly") out.allocate_strategy = NumaAllocateStrategy::distribute_evenly;
  return out;
}

NodePolicies combine_node_policies(const NodePolicyLabels& labels, const TopologyOptions& options) {
  NodePolicies out;
  // kubelet's full-pcpus-only wins over a SpreadByPCPUs label (GetNodeCPUBindPolicy).
  out.cpu_bind = options.kubelet.full_pcpus_only() ? NodeCpuBindPolicy::full_pcpus_only : labels.cpu_bind;
  out.numa_policy = labels.numa_policy != topology::NumaPolicy::none ? labels.numa_policy : options.numa_policy;
  out.allocate_strategy = labels.allocate_strategy;
  if (!out.allocate_strategy && options.kubelet.distribute_cpus_across_numa())
    out.allocate_strategy = NumaAllocateStrategy::distribute_evenly;
  return out;
}

}  // namespace troupe::plugins::numa
