#pragma once
// Nodes of one hardware model report the same cpu-topology annotation text,
// so each distinct text is parsed once and its CpuTopology shared by every
// node that has it (the parse was ~30 % of loading a cluster, and a parsed
// topology is kilobytes per node): a SharedByKey keyed by the text, so a
// topology no node uses any more is freed.

#include <memory>
#include <string_view>

#include "model/result.hpp"
#include "plugins/common/shared_by_key.hpp"
#include "plugins/node_numa_resource/cpu_topology.hpp"

namespace troupe::plugins::numa {

class CpuTopologyCache {
 public:
  /// The topology parsed from `annotation` (CpuTopology::parse), shared with
  /// every other caller that passed the same text while it is in use. A text
  /// that does not parse gives the parse error and is not kept.
  Result<std::shared_ptr<const CpuTopology>> get(std::string_view annotation);
  /// Entries stored, including released ones not yet pruned.
  size_t stored() const { return topologies_.stored(); }
  /// Entries whose topology some caller still holds.
  size_t in_use() const { return topologies_.in_use(); }

 private:
  SharedByKey<CpuTopology> topologies_;
};

/// The process-wide cache build_topology_options uses.
CpuTopologyCache& process_cpu_topology_cache();

}  // namespace troupe::plugins::numa
