#include "plugins/node_numa_resource/node_cpus.hpp"

#include <algorithm>

#include "plugins/framework/node_info.hpp"
#include "plugins/node_numa_resource/shared_topology_options.hpp"

namespace troupe::plugins::numa {

Result<PodAllocation> pod_allocation_from(const Pod& pod) {
  auto status = decode_resource_status(pod.meta.annotations);
  if (!status) return status.error();
  auto spec = decode_resource_spec(pod.meta.annotations);
  if (!spec) return spec.error();
  PodAllocation out;
  out.name = pod.meta.namespace_name + "/" + pod.meta.name;
  out.cpus = status->cpuset;
  out.numa_resources = std::move(status->numa_node_resources);
  out.exclusive = spec->exclusive();
  return out;
}

void NodeCpus::apply_topology(std::shared_ptr<const NodeResourceTopology> nrt) {
  has_topology_ = nrt != nullptr;
  options_ = nrt ? shared_topology_options(*nrt) : nullptr;
  refresh_policies();
  refresh_free_counts();
}

void NodeCpus::clear_topology() {
  has_topology_ = false;
  options_ = nullptr;
  refresh_policies();
  refresh_free_counts();
}

const TopologyOptions& NodeCpus::options() const {
  static const TopologyOptions kNone;
  return options_ ? *options_ : kNone;
}

const CpuSet& NodeCpus::node_reserved_cpus() const {
  static const CpuSet kNone;
  return node_reserved_cpus_ ? *node_reserved_cpus_ : kNone;
}

void NodeCpus::on_pod_added(const PodInfo& pod) {
  if (!pod.pod) return;
  auto allocation = pod_allocation_from(*pod.pod);
  if (!allocation) {
    ++malformed_;
    return;
  }
  add_allocation(pod_identity(pod), std::move(*allocation));
}

void NodeCpus::on_node_changed(const Node* node) {
  CpuSet reserved = node != nullptr ? node_annotation_reserved_cpus(*node) : CpuSet{};
  node_reserved_cpus_ = reserved.empty() ? nullptr : std::make_shared<const CpuSet>(reserved);
  policy_labels_ = node != nullptr ? read_node_policy_labels(*node) : NodePolicyLabels{};
  refresh_policies();
  refresh_free_counts();
}

void NodeCpus::on_pod_removed(const PodInfo& pod) { remove_allocation(pod_identity(pod)); }

bool NodeCpus::add_allocation(std::string_view pod_key, PodAllocation allocation) {
  if (allocation.empty() || pods_.count(pod_key) != 0) return false;
  account(allocation, true);
  pods_.emplace(std::string(pod_key), std::move(allocation));
  return true;
}

bool NodeCpus::remove_allocation(std::string_view pod_key) {
  auto it = pods_.find(pod_key);
  if (it == pods_.end()) return false;
  account(it->second, false);
  pods_.erase(it);
  return true;
}

const PodAllocation* NodeCpus::allocation(std::string_view pod_key) const {
  auto it = pods_.find(pod_key);
  return it == pods_.end() ? nullptr : &it->second;
}

void NodeCpus::account(const PodAllocation& allocation, bool add) {
  for (int cpu : allocation.cpus) {
    if (add)
      allocated_.add(cpu, allocation.exclusive);
    else
      allocated_.remove(cpu);
  }
  for (const NumaNodeResource& r : allocation.numa_resources) {
    ResourceList& sum = numa_allocated_[r.node];
    if (add) {
      sum += r.resources;
      continue;
    }
    sum -= r.resources;
    // Drop zeros so a fully released node compares equal to a fresh one.
    for (auto q = sum.begin(); q != sum.end();) q = q->second.is_zero() ? sum.erase(q) : std::next(q);
    if (sum.empty()) numa_allocated_.erase(r.node);
  }
  if (!allocation.cpus.empty()) refresh_free_counts();
}

void NodeCpus::refresh_free_counts() {
  free_full_pcpus_ = free_spread_by_pcpus_ = free_any_ = 0;
  if (!options().valid_cpu_topology()) return;
  const CpuSet available = available_cpus(node_reserved_cpus());
  const CpuTopology& topology = *options().cpu_topology;
  free_full_pcpus_ = count_for_required_policy(CpuBindPolicy::full_pcpus, available, topology);
  free_spread_by_pcpus_ = count_for_required_policy(CpuBindPolicy::spread_by_pcpus, available, topology);
  free_any_ = count_for_required_policy(CpuBindPolicy::unset, available, topology);
}

int NodeCpus::free_cpus_for_required_policy(CpuBindPolicy required) const {
  if (required == CpuBindPolicy::full_pcpus) return free_full_pcpus_;
  if (required == CpuBindPolicy::spread_by_pcpus) return free_spread_by_pcpus_;
  return free_any_;
}

CpuSet NodeCpus::available_cpus(const CpuSet& also_reserved) const {
  if (!options().valid_cpu_topology()) return {};
  CpuSet out = options().cpu_topology->all_cpus() - options().reserved_cpus - also_reserved;
  allocated_.for_each([&out](int cpu, CpuExclusivePolicy) { out.erase(cpu); });
  return out;
}

std::map<int, ResourceList> NodeCpus::numa_available() const {
  std::map<int, ResourceList> out;
  for (const NumaNodeAllocatable& n : options().numa_nodes) {
    ResourceList available = n.allocatable;
    auto used = numa_allocated_.find(n.node);
    if (used != numa_allocated_.end()) {
      for (const auto& [name, q] : used->second) {
        auto a = available.find(name);
        if (a == available.end()) continue;
        a->second -= q;
        if (a->second.sign() < 0) a->second = Quantity();
      }
    }
    out.emplace(n.node, std::move(available));
  }
  return out;
}

std::vector<topology::NumaNodeStatus> NodeCpus::numa_statuses() const {
  std::vector<topology::NumaNodeStatus> out(64, topology::NumaNodeStatus::idle);
  if (!options().valid_cpu_topology()) return out;
  const CpuTopology& topology = *options().cpu_topology;
  // As Koordinator's NodeAllocation: a pod's NUMA nodes are its cpuset's (a pod
  // without a cpuset counts nowhere, whatever NUMA resources it holds).
  for (const auto& [key, pod] : pods_) {
    uint64_t used = 0;
    for (int cpu : pod.cpus.to_vector())
      if (topology.all_cpus().contains(cpu)) used |= uint64_t{1} << topology.info(cpu).node;
    if (used == 0) continue;
    const bool single = (used & (used - 1)) == 0;
    for (int node = 0; node < 64; ++node) {
      if ((used >> node & 1) == 0) continue;
      auto& s = out[static_cast<size_t>(node)];
      if (!single)
        s = topology::NumaNodeStatus::shared;
      else if (s == topology::NumaNodeStatus::idle)
        s = topology::NumaNodeStatus::single;
    }
  }
  return out;
}

}  // namespace troupe::plugins::numa
