#pragma once
// Nodes of one hardware model report the same cpu-topology annotation text,
// so each distinct text is parsed once and its CpuTopology shared by every
// node that has it (the parse was ~30 % of loading a cluster, and a parsed
// topology is kilobytes per node). Entries hold the topology weakly: once
// no node uses it, it is freed, and its entry is pruned on a later insert.
// Node actors run on several threads, so every call takes the cache's lock.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "model/result.hpp"
#include "plugins/node_numa_resource/cpu_topology.hpp"

namespace troupe::plugins::numa {

class CpuTopologyCache {
 public:
  /// The topology parsed from `annotation` (CpuTopology::parse), shared with
  /// every other caller that passed the same text while it is in use. A text
  /// that does not parse gives the parse error and is not kept.
  Result<std::shared_ptr<const CpuTopology>> get(std::string_view annotation);
  /// Entries stored, including released ones not yet pruned.
  size_t stored() const;
  /// Entries whose topology some caller still holds.
  size_t in_use() const;

 private:
  /// The entry's topology when it is still held by someone, else null.
  std::shared_ptr<const CpuTopology> find_locked(std::string_view annotation) const;
  void insert_locked(std::string_view annotation, const std::shared_ptr<const CpuTopology>& topology);

  static constexpr size_t kFirstPrune = 16;
  mutable std::mutex mutex_;
  std::map<std::string, std::weak_ptr<const CpuTopology>, std::less<>> entries_;
  // Released entries are dropped when the map reaches this size, which then
  // doubles the live count, so pruning costs O(1) per insert on average.
  size_t prune_at_ = kFirstPrune;
};

/// The process-wide cache build_topology_options uses.
CpuTopologyCache& process_cpu_topology_cache();

}  // namespace troupe::plugins::numa
