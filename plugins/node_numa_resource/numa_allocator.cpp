#include "plugins/node_numa_resource/numa_allocator.hpp"

#include <algorithm>
#include <set>

namespace troupe::plugins::numa {

namespace {

Quantity get(const ResourceList& list, const std::string& name) {
  auto it = list.find(name);
  return it == list.end() ? Quantity() : it->second;
}

/// splitQuantity: the share of `quantity` for one of `count` NUMA nodes.
Quantity split(const std::string& name, const Quantity& quantity, int64_t count, const AllocateRequest& request,
               int cpus_per_core) {
  if (name != "cpu") return Quantity::from_value(quantity.value() / count, quantity.format());
  if (!request.bind_cpus) return Quantity::from_milli(quantity.milli_value() / count, quantity.format());
  if (request.required && request.bind_policy == CpuBindPolicy::full_pcpus && cpus_per_core > 0) {
    const int64_t cores = quantity.value() / cpus_per_core;
    return Quantity::from_value(cores / count * cpus_per_core, quantity.format());
  }
  return Quantity::from_value(quantity.value() / count, quantity.format());
}

/// tryBestToDistributeEvenly over the affinity's NUMA nodes.
Result<std::vector<NumaNodeResource>> distribute(const std::map<int, ResourceList>& available,
                                                 const AllocateRequest& request, topology::NumaMask affinity,
                                                 int cpus_per_core) {
  std::set<std::string> numa_names;
  for (const auto& [node, list] : available)
    for (const auto& [name, q] : list) numa_names.insert(name);
  const std::vector<int> nodes = topology::mask_bits(affinity);
  std::map<int, NumaNodeResource> out;
  std::vector<std::string> reasons;
  for (const auto& [name, requested] : request.requests) {
    std::vector<int> order = nodes;
    // Smallest availability first, so the even share left for the larger nodes grows.
    // (Captured by a named reference: C++17 lambdas cannot capture a structured binding.)
    const auto& resource = name;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      auto ia = available.find(a), ib = available.find(b);
      Quantity qa = ia == available.end() ? Quantity() : get(ia->second, resource);
      Quantity qb = ib == available.end() ? Quantity() : get(ib->second, resource);
      return qa < qb;
    });
    Quantity remaining = requested;
    for (size_t i = 0; i < order.size(); ++i) {
      auto avail_it = available.find(order[i]);
      const Quantity avail = avail_it == available.end() ? Quantity() : get(avail_it->second, name);
      const Quantity share = split(name, remaining, static_cast<int64_t>(order.size() - i), request, cpus_per_core);
      const Quantity taken = avail < share ? avail : share;
      if (taken.sign() <= 0) continue;
      NumaNodeResource& r = out[order[i]];
      r.node = order[i];
      r.resources[name] = taken;
      remaining -= taken;
    }
    if (numa_names.count(name) != 0 && !remaining.is_zero()) reasons.push_back(kErrInsufficientNuma + name);
  }
  if (!reasons.empty()) {
    std::string message;
    for (const auto& r : reasons) message += (message.empty() ? "" : ", ") + r;
    return Error{message};
  }
  std::vector<NumaNodeResource> result;
  for (auto& [node, r] : out) result.push_back(std::move(r));
  return result;
}

}  // namespace

std::map<int, ResourceList> trimmed_numa_available(const NodeCpus& node, const AllocateRequest& request) {
  std::map<int, ResourceList> available = node.numa_available();
  const bool trim = request.required || (request.bind_cpus && request.numa_cpu_at_most_free);
  if (!trim || !node.options().valid_cpu_topology()) return available;
  const CpuTopology& topology = *node.options().cpu_topology;
  const CpuSet free = node.available_cpus(request.also_reserved);
  for (auto& [numa, list] : available) {
    auto cpu = list.find("cpu");
    if (cpu == list.end() || cpu->second.is_zero()) continue;
    const CpuSet in_node = free & topology.cpus_in_node(numa);
    const CpuSet usable =
        request.required ? filter_by_required_policy(request.bind_policy, in_node, topology) : in_node;
    const int64_t milli = static_cast<int64_t>(usable.size()) * 1000;
    if (milli < cpu->second.milli_value()) cpu->second = Quantity::from_milli(milli, cpu->second.format());
  }
  return available;
}

Result<CpuSet> allocate_cpuset(const NodeCpus& node, const AllocateRequest& request,
                               const std::vector<NumaNodeResource>& numa_resources) {
  if (!node.options().valid_cpu_topology()) return Error{"node(s) invalid CPU Topology"};
  const CpuTopology& topology = *node.options().cpu_topology;
  CpuSet available = node.available_cpus(request.also_reserved);
  if (request.required) available = filter_by_required_policy(request.bind_policy, available, topology);
  if (static_cast<int>(available.size()) < request.num_cpus) return Error{kErrNotEnoughCpus};
  const AllocatedCpus& allocated = node.allocated_cpus();
  CpuSet result;
  int needed = request.num_cpus;
  if (!numa_resources.empty()) {
    for (const NumaNodeResource& r : numa_resources) {
      const CpuSet in_node = available & topology.cpus_in_node(r.node);
      const int wanted = static_cast<int>(get(r.resources, "cpu").milli_value() / 1000);
      const int n = std::min(static_cast<int>(in_node.size()), wanted);
      auto cpus = take_preferred_cpus(topology, in_node, {}, allocated, n, request.bind_policy, request.exclusive,
                                      request.strategy);
      if (!cpus) return cpus;
      result |= *cpus;
    }
    needed -= static_cast<int>(result.size());
    if (needed != 0) return Error{kErrNotEnoughCpus};
  }
  if (needed > 0) {
    auto rest = take_preferred_cpus(topology, available - result, {}, allocated, needed, request.bind_policy,
                                    request.exclusive, request.strategy);
    if (!rest) return rest;
    result |= *rest;
  }
  if (request.required) {
    Status s = check_required_policy(request.bind_policy, result, topology);
    if (!s) return Error{s.message()};
  }
  return result;
}

Result<PodAllocation> allocate_on_node(const NodeCpus& node, const AllocateRequest& request,
                                       topology::NumaMask affinity) {
  PodAllocation allocation;
  allocation.exclusive = request.exclusive;
  if (affinity != 0) {
    if (node.options().numa_nodes.empty()) return Error{kErrInsufficientNumaResources};
    const int per_core = node.options().valid_cpu_topology() ? node.options().cpu_topology->cpus_per_core() : 0;
    auto resources = distribute(trimmed_numa_available(node, request), request, affinity, per_core);
    if (!resources) return resources.error();
    allocation.numa_resources = std::move(*resources);
  }
  if (request.bind_cpus) {
    auto cpus = allocate_cpuset(node, request, allocation.numa_resources);
    if (!cpus) return cpus.error();
    allocation.cpus = *cpus;
  }
  return allocation;
}

namespace {

int64_t amount(const ResourceList& list, const std::string& name) {
  const Quantity q = get(list, name);
  return name == "cpu" ? q.milli_value() : q.value();
}

}  // namespace

Result<topology::NumaHints> generate_hints(const NodeCpus& node, const AllocateRequest& request,
                                           topology::NumaPolicy policy, const NumaScoringStrategy& scoring) {
  const TopologyOptions& options = node.options();
  if (options.numa_nodes.empty()) return Error{kErrInsufficientNumaResources};
  const std::map<int, ResourceList> available = trimmed_numa_available(node, request);
  // NUMA nodes lacking a resource the zones describe cannot hold it.
  std::map<std::string, topology::NumaMask> lacking;
  std::set<std::string> zone_names;
  for (const auto& n : options.numa_nodes)
    for (const auto& [name, q] : n.allocatable) zone_names.insert(name);
  for (const std::string& name : zone_names)
    for (const auto& [numa, list] : available)
      if (get(list, name).sign() <= 0) lacking[name] |= topology::mask_of({numa});

  std::set<std::string> hinted;  // requested resources the zones describe
  for (const auto& [name, q] : request.requests)
    if (zone_names.count(name) != 0) hinted.insert(name);
  topology::NumaHints hints;
  std::map<std::string, int> min_size;
  for (const auto& [name, q] : request.requests) min_size[name] = static_cast<int>(options.numa_nodes.size());

  for (topology::NumaMask mask : topology::numa_subsets(options.numa_node_ids())) {
    ResourceList total, free;
    for (int numa : topology::mask_bits(mask)) {
      if (const ResourceList* a = options.allocatable_of(numa)) total += *a;
      if (auto it = available.find(numa); it != available.end()) free += it->second;
    }
    const int64_t score = strategy_score(
        scoring, [&](const std::string& name) { return amount(request.requests, name); },
        [&](const std::string& name) {
          const int64_t cap = amount(total, name);
          const int64_t used = std::max<int64_t>(cap - amount(free, name), 0);
          return std::pair<int64_t, int64_t>{used + amount(request.requests, name), cap};
        });
    if (!allocate_on_node(node, request, mask)) continue;
    bool lacks = false;
    for (const std::string& name : hinted) lacks = lacks || (lacking[name] & mask) != 0;
    if (lacks) continue;
    for (const std::string& name : hinted) {
      min_size[name] = std::min(min_size[name], topology::mask_count(mask));
      hints[name].push_back(topology::NumaHint{mask, false, score, false});
    }
  }
  for (const std::string& name : hinted) {
    auto& list = hints[name];  // an empty list: no NUMA affinity can hold it
    for (auto& h : list)
      h.preferred = topology::mask_count(h.numa_nodes) == min_size[name] || policy == topology::NumaPolicy::restricted;
  }
  return hints;
}

}  // namespace troupe::plugins::numa
