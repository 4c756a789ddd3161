#include "plugins/node_numa_resource/cpu_accumulator.hpp"

#include <algorithm>
#include <set>
#include <vector>

namespace troupe::plugins::numa {

namespace {

using Cpus = std::vector<int>;

class Accumulator {
 public:
  Accumulator(const CpuTopology& topology, const CpuSet& available, const AllocatedCpus& allocated, int needed,
              CpuExclusivePolicy exclusive, NumaAllocateStrategy strategy)
      : t_(topology), free_(available & topology.all_cpus()), needed_(needed), policy_(exclusive),
        most_(strategy == NumaAllocateStrategy::most_allocated) {
    allocated.for_each([this](int cpu, CpuExclusivePolicy holder) {
      if (!t_.all_cpus().contains(cpu)) return;
      if (holder == CpuExclusivePolicy::pcpu_level) excl_cores_.insert(t_.info(cpu).core);
      if (holder == CpuExclusivePolicy::numa_node_level) excl_nodes_.insert(t_.info(cpu).node);
    });
  }

  bool satisfied() const { return needed_ < 1; }
  bool failed() const { return needed_ > static_cast<int>(free_.size()); }
  bool needs(int n) const { return needed_ >= n; }
  int needed() const { return needed_; }
  const CpuSet& result() const { return result_; }

  void take(const Cpus& cpus) {
    for (int cpu : cpus) {
      result_.insert(cpu);
      free_.erase(cpu);
      if (policy_ == CpuExclusivePolicy::pcpu_level) excl_cores_.insert(t_.info(cpu).core);
      if (policy_ == CpuExclusivePolicy::numa_node_level) excl_nodes_.insert(t_.info(cpu).node);
    }
    needed_ -= static_cast<int>(cpus.size());
  }

  /// Strategy order on free counts: MostAllocated packs (fewest free first).
  bool before(int a, int b) const { return most_ ? a < b : a > b; }

  bool excl_core(const CpuInfo& c) const {
    return policy_ == CpuExclusivePolicy::pcpu_level && excl_cores_.count(c.core) != 0;
  }
  bool excl_node(const CpuInfo& c) const {
    return policy_ == CpuExclusivePolicy::numa_node_level && excl_nodes_.count(c.node) != 0;
  }

  /// Cores (with their free CPUs) keyed by core id, among free CPUs passing `keep`.
  template <class Keep>
  std::map<int, Cpus> cores_where(Keep keep) const {
    std::map<int, Cpus> cores;
    for (int cpu : free_) {
      const CpuInfo& c = t_.info(cpu);
      if (keep(c)) cores[c.core].push_back(cpu);
    }
    return cores;
  }

  /// Cores sorted by free CPU count (desc) then id, flattened.
  Cpus flatten(std::vector<int> cores, const std::map<int, Cpus>& cpus_in_core) const {
    std::stable_sort(cores.begin(), cores.end(), [&](int a, int b) {
      size_t na = cpus_in_core.at(a).size(), nb = cpus_in_core.at(b).size();
      if (na != nb) return na > nb;
      return a < b;
    });
    Cpus out;
    for (int core : cores) out.insert(out.end(), cpus_in_core.at(core).begin(), cpus_in_core.at(core).end());
    return out;
  }

  /// freeCoresInNode(filterFullFreeCore=true, filterExclusive).
  std::vector<Cpus> free_cores_in_nodes(bool filter_exclusive) const {
    std::map<int, int> socket_free;
    auto cores = cores_where([&](const CpuInfo& c) {
      if (filter_exclusive && excl_node(c)) return false;
      ++socket_free[c.socket];
      return true;
    });
    std::map<int, std::vector<int>> cores_in_node;
    for (const auto& [core, cpus] : cores)
      if (static_cast<int>(cpus.size()) == t_.cpus_per_core()) cores_in_node[t_.info(cpus[0]).node].push_back(core);
    struct Group { int node, socket; Cpus cpus; };
    std::vector<Group> groups;
    for (const auto& [node, list] : cores_in_node) {
      Cpus cpus = flatten(list, cores);
      groups.push_back({node, t_.info(cpus[0]).socket, std::move(cpus)});
    }
    std::stable_sort(groups.begin(), groups.end(), [&](const Group& a, const Group& b) {
      if (a.cpus.size() != b.cpus.size()) return before(static_cast<int>(a.cpus.size()), static_cast<int>(b.cpus.size()));
      if (socket_free[a.socket] != socket_free[b.socket]) return before(socket_free[a.socket], socket_free[b.socket]);
      return a.node < b.node;
    });
    std::vector<Cpus> out;
    for (auto& g : groups) out.push_back(std::move(g.cpus));
    return out;
  }

  /// freeCoresInSocket(filterFullFreeCore=true).
  std::vector<Cpus> free_cores_in_sockets() const {
    auto cores = cores_where([](const CpuInfo&) { return true; });
    std::map<int, std::vector<int>> cores_in_socket;
    for (const auto& [core, cpus] : cores)
      if (static_cast<int>(cpus.size()) == t_.cpus_per_core()) cores_in_socket[t_.info(cpus[0]).socket].push_back(core);
    std::vector<std::pair<int, Cpus>> groups;
    for (const auto& [socket, list] : cores_in_socket) groups.emplace_back(socket, flatten(list, cores));
    std::stable_sort(groups.begin(), groups.end(), [&](const auto& a, const auto& b) {
      if (a.second.size() != b.second.size())
        return before(static_cast<int>(a.second.size()), static_cast<int>(b.second.size()));
      return a.first < b.first;
    });
    std::vector<Cpus> out;
    for (auto& g : groups) out.push_back(std::move(g.second));
    return out;
  }

  /// One CPU per core, the lowest (extractCPU on an ascending list).
  Cpus one_per_core(const Cpus& cpus) const {
    std::set<int> seen;
    Cpus out;
    for (int cpu : cpus)
      if (seen.insert(t_.info(cpu).core).second) out.push_back(cpu);
    return out;
  }

  /// freeCPUsInNode(filterExclusive).
  std::vector<Cpus> free_cpus_in_nodes(bool filter_exclusive) const {
    std::map<int, Cpus> in_node;
    std::map<int, int> node_free, socket_free;
    for (int cpu : free_) {
      const CpuInfo& c = t_.info(cpu);
      if (filter_exclusive && (excl_core(c) || excl_node(c))) continue;
      in_node[c.node].push_back(cpu);
      ++node_free[c.node];
      ++socket_free[c.socket];
    }
    struct Group { int node, socket; Cpus cpus; };
    std::vector<Group> groups;
    for (auto& [node, cpus] : in_node)
      groups.push_back({node, t_.info(cpus[0]).socket, filter_exclusive ? one_per_core(cpus) : cpus});
    std::stable_sort(groups.begin(), groups.end(), [&](const Group& a, const Group& b) {
      if (node_free[a.node] != node_free[b.node]) return before(node_free[a.node], node_free[b.node]);
      if (socket_free[a.socket] != socket_free[b.socket]) return before(socket_free[a.socket], socket_free[b.socket]);
      return a.node < b.node;
    });
    std::vector<Cpus> out;
    for (auto& g : groups) out.push_back(std::move(g.cpus));
    return out;
  }

  /// freeCPUsInSocket(filterExclusive): only PCPU-level exclusivity applies.
  std::vector<Cpus> free_cpus_in_sockets(bool filter_exclusive) const {
    std::map<int, Cpus> in_socket;
    for (int cpu : free_) {
      const CpuInfo& c = t_.info(cpu);
      if (filter_exclusive && excl_core(c)) continue;
      in_socket[c.socket].push_back(cpu);
    }
    std::vector<std::pair<int, Cpus>> groups;
    for (auto& [socket, cpus] : in_socket) groups.emplace_back(socket, filter_exclusive ? one_per_core(cpus) : cpus);
    std::stable_sort(groups.begin(), groups.end(), [&](const auto& a, const auto& b) {
      if (a.second.size() != b.second.size())
        return before(static_cast<int>(a.second.size()), static_cast<int>(b.second.size()));
      return a.first < b.first;
    });
    std::vector<Cpus> out;
    for (auto& g : groups) out.push_back(std::move(g.second));
    return out;
  }

  /// freeCPUs(filterExclusive): the global fallback order.
  Cpus free_cpus(bool filter_exclusive) const {
    std::map<int, Cpus> cores;
    std::map<int, int> node_free, socket_free, socket_colo;
    for (int cpu : free_) {
      const CpuInfo& c = t_.info(cpu);
      if (filter_exclusive && (excl_core(c) || excl_node(c))) continue;
      cores[c.core].push_back(cpu);
      ++node_free[c.node];
      ++socket_free[c.socket];
    }
    for (int cpu : result_) ++socket_colo[t_.info(cpu).socket];
    std::vector<int> ids;
    for (const auto& [core, cpus] : cores) ids.push_back(core);
    auto info = [&](int core) -> const CpuInfo& { return t_.info(cores.at(core)[0]); };
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) {
      const CpuInfo& ia = info(a);
      const CpuInfo& ib = info(b);
      if (socket_colo[ia.socket] != socket_colo[ib.socket]) return socket_colo[ia.socket] > socket_colo[ib.socket];
      if (socket_free[ia.socket] != socket_free[ib.socket]) return before(socket_free[ia.socket], socket_free[ib.socket]);
      if (node_free[ia.node] != node_free[ib.node]) return before(node_free[ia.node], node_free[ib.node]);
      if (cores.at(a).size() != cores.at(b).size()) return cores.at(a).size() < cores.at(b).size();
      if (ia.socket != ib.socket) return ia.socket < ib.socket;
      return a < b;
    });
    Cpus out;
    for (int core : ids) out.insert(out.end(), cores.at(core).begin(), cores.at(core).end());
    return out;
  }

  /// spreadCPUs: one CPU per core per round, keeping the given order.
  Cpus spread(Cpus cpus) const {
    if (static_cast<int>(cpus.size()) <= t_.cpus_per_core()) return cpus;
    Cpus out;
    while (!cpus.empty()) {
      Cpus later;
      std::set<int> cores;
      for (int cpu : cpus) {
        if (cores.insert(t_.info(cpu).core).second)
          out.push_back(cpu);
        else
          later.push_back(cpu);
      }
      cpus = std::move(later);
    }
    return out;
  }

  const CpuTopology& topology() const { return t_; }

 private:
  const CpuTopology& t_;
  CpuSet free_;
  CpuSet result_;
  int needed_;
  CpuExclusivePolicy policy_;
  bool most_;
  std::set<int> excl_cores_;
  std::set<int> excl_nodes_;
};

Cpus first_n(const Cpus& cpus, int n) { return Cpus(cpus.begin(), cpus.begin() + n); }

/// Step 2: whole cores. True when the request is satisfied.
bool take_full_cores(Accumulator& acc) {
  const CpuTopology& t = acc.topology();
  if (acc.needed() <= t.cpus_per_node()) {
    for (bool filter : {true, false})
      for (const Cpus& cpus : acc.free_cores_in_nodes(filter))
        if (static_cast<int>(cpus.size()) >= acc.needed()) {
          acc.take(first_n(cpus, acc.needed()));
          return true;
        }
  }
  if (acc.needed() <= t.cpus_per_socket()) {
    for (const Cpus& cpus : acc.free_cores_in_sockets())
      if (static_cast<int>(cpus.size()) >= acc.needed()) {
        acc.take(first_n(cpus, acc.needed()));
        return true;
      }
  }
  // Whole sockets, most free first, while each fits entirely.
  std::vector<Cpus> sockets = acc.free_cores_in_sockets();
  std::stable_sort(sockets.begin(), sockets.end(), [](const Cpus& a, const Cpus& b) { return a.size() > b.size(); });
  std::vector<Cpus> unsatisfied;
  for (const Cpus& cpus : sockets) {
    if (!acc.needs(static_cast<int>(cpus.size()))) {
      unsatisfied.push_back(cpus);
      continue;
    }
    acc.take(cpus);
    if (acc.satisfied()) return true;
  }
  // Then single cores from the sockets with the fewest free cores.
  const int per_core = t.cpus_per_core();
  if (per_core > 0 && acc.needs(per_core)) {
    std::stable_sort(unsatisfied.begin(), unsatisfied.end(),
                     [](const Cpus& a, const Cpus& b) { return a.size() < b.size(); });
    for (const Cpus& cpus : unsatisfied) {
      for (size_t i = 0; i + per_core <= cpus.size(); i += per_core) {
        acc.take(Cpus(cpus.begin() + i, cpus.begin() + i + per_core));
        if (acc.satisfied()) return true;
        if (!acc.needs(per_core)) break;
      }
    }
  }
  return false;
}

/// Step 3: one NUMA node, then one socket, spread over cores.
bool take_spread_in_one_group(Accumulator& acc) {
  const CpuTopology& t = acc.topology();
  if (acc.needed() <= t.cpus_per_node()) {
    for (bool filter : {true, false})
      for (const Cpus& cpus : acc.free_cpus_in_nodes(filter))
        if (static_cast<int>(cpus.size()) >= acc.needed()) {
          acc.take(first_n(acc.spread(cpus), acc.needed()));
          return true;
        }
  }
  if (acc.needed() <= t.cpus_per_socket()) {
    for (bool filter : {true, false})
      for (const Cpus& cpus : acc.free_cpus_in_sockets(filter))
        if (static_cast<int>(cpus.size()) >= acc.needed()) {
          acc.take(first_n(acc.spread(cpus), acc.needed()));
          return true;
        }
  }
  return false;
}

}  // namespace

Result<CpuSet> take_cpus(const CpuTopology& topology, const CpuSet& available, const AllocatedCpus& allocated,
                         int needed, CpuBindPolicy bind, CpuExclusivePolicy exclusive, NumaAllocateStrategy strategy) {
  Accumulator acc(topology, available, allocated, needed, exclusive, strategy);
  if (acc.satisfied()) return acc.result();
  if (acc.failed() || !topology.valid()) return Error{kErrNotEnoughCpus};
  const bool full = bind == CpuBindPolicy::full_pcpus;
  if ((full || topology.cpus_per_core() == 1) && take_full_cores(acc)) return acc.result();
  if (!full && take_spread_in_one_group(acc)) return acc.result();
  for (bool filter : {true, false}) {
    for (int cpu : acc.spread(acc.free_cpus(filter))) {
      if (acc.needs(1)) acc.take({cpu});
      if (acc.satisfied()) return acc.result();
    }
  }
  return Error{kErrFailedToAllocate};
}

Result<CpuSet> take_preferred_cpus(const CpuTopology& topology, const CpuSet& available, const CpuSet& preferred,
                                   const AllocatedCpus& allocated, int needed, CpuBindPolicy bind,
                                   CpuExclusivePolicy exclusive, NumaAllocateStrategy strategy) {
  CpuSet result;
  const CpuSet usable_preferred = preferred & available;
  if (!usable_preferred.empty() && needed > 0) {
    const int n = std::min(needed, static_cast<int>(usable_preferred.size()));
    auto first = take_cpus(topology, usable_preferred, allocated, n, bind, exclusive, strategy);
    if (!first) return first;
    result = *first;
    needed -= static_cast<int>(result.size());
  }
  if (needed > 0) {
    auto rest = take_cpus(topology, available - result, allocated, needed, bind, exclusive, strategy);
    if (!rest) return rest;
    result |= *rest;
  }
  return result;
}

CpuSet filter_by_required_policy(CpuBindPolicy required, const CpuSet& available, const CpuTopology& topology) {
  if (!binds_cpus(required)) return available;
  std::map<int, CpuSet> cores;
  for (int cpu : available & topology.all_cpus()) cores[topology.info(cpu).core].insert(cpu);
  CpuSet out;
  for (const auto& [core, cpus] : cores) {
    if (required == CpuBindPolicy::full_pcpus) {
      if (static_cast<int>(cpus.size()) == topology.cpus_per_core()) out |= cpus;
    } else {
      out.insert(cpus.first());
    }
  }
  return out;
}

int count_for_required_policy(CpuBindPolicy required, const CpuSet& available, const CpuTopology& topology) {
  if (!binds_cpus(required)) return static_cast<int>((available & topology.all_cpus()).size());
  int count = 0;
  for (const std::vector<int>& core : topology.core_cpus()) {
    int free = 0;
    for (int cpu : core) free += available.contains(cpu) ? 1 : 0;
    if (required == CpuBindPolicy::full_pcpus) {
      if (free == topology.cpus_per_core()) count += free;
    } else if (free > 0) {
      ++count;
    }
  }
  return count;
}

Status check_required_policy(CpuBindPolicy required, const CpuSet& cpus, const CpuTopology& topology) {
  bool ok = true;
  const int cores = topology.core_count(cpus);
  if (required == CpuBindPolicy::full_pcpus) ok = cores * topology.cpus_per_core() == static_cast<int>(cpus.size());
  if (required == CpuBindPolicy::spread_by_pcpus) ok = cores == static_cast<int>(cpus.size());
  if (ok) return {};
  return Error{"insufficient CPUs to satisfy required cpu bind policy " + std::string(to_string(required))};
}

}  // namespace troupe::plugins::numa
