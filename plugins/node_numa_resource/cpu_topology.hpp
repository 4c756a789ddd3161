#pragma once
// A node's CPU topology: every logical CPU with its physical core, socket
// and NUMA node, from the NodeResourceTopology annotation
// node.koordinator.sh/cpu-topology ({"detail":[{"id":0,"core":0,"socket":0,"node":0},...]}).
// Core ids are taken as reported (koordlet makes them node-unique).

#include <string_view>
#include <vector>

#include "model/cpuset.hpp"
#include "model/result.hpp"

namespace troupe::plugins::numa {

inline constexpr const char* kAnnotationCpuTopology = "node.koordinator.sh/cpu-topology";

struct CpuInfo {
  int cpu = 0;
  int core = 0;
  int socket = 0;
  int node = 0;  // NUMA node
};

class CpuTopology {
 public:
  CpuTopology() = default;
  /// CPUs with ids in 0..CpuSet::kMaxCpus-1, each listed once, NUMA nodes in
  /// 0..63; anything else is an error naming the entry.
  static Result<CpuTopology> from(std::vector<CpuInfo> cpus);
  static Result<CpuTopology> parse(std::string_view annotation);

  /// Koordinator's IsValid: at least one CPU, core, socket and NUMA node.
  bool valid() const { return !cpus_.empty(); }
  const CpuSet& all_cpus() const { return all_; }
  /// The CPU's info; the id must be in all_cpus().
  const CpuInfo& info(int cpu) const { return cpus_[index_[cpu]]; }
  /// The CPU's info, or null for any id the topology does not list
  /// (negative, beyond the largest id, or a gap between ids).
  const CpuInfo* find(int cpu) const;
  /// Every CPU ordered by id.
  const std::vector<CpuInfo>& cpus() const { return cpus_; }
  const std::vector<int>& numa_nodes() const { return nodes_; }
  int num_cpus() const { return static_cast<int>(cpus_.size()); }
  int num_cores() const { return num_cores_; }
  int num_sockets() const { return static_cast<int>(sockets_.size()); }
  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  /// Integer divisions as Koordinator's CPUsPerCore / PerNode / PerSocket.
  int cpus_per_core() const { return num_cores_ == 0 ? 0 : num_cpus() / num_cores_; }
  int cpus_per_node() const { return nodes_.empty() ? 0 : num_cpus() / num_nodes(); }
  int cpus_per_socket() const { return sockets_.empty() ? 0 : num_cpus() / num_sockets(); }

  /// The CPUs of each core, cores ascending by id (precomputed: Filter's
  /// required-policy check walks them without allocating).
  const std::vector<std::vector<int>>& core_cpus() const { return core_cpus_; }
  CpuSet cpus_in_node(int node) const;
  CpuSet cpus_in_core(int core) const;
  /// Number of distinct cores among `cpus`.
  int core_count(const CpuSet& cpus) const;

 private:
  std::vector<CpuInfo> cpus_;
  // cpu id -> position in cpus_, -1 when absent; sized to the largest id + 1
  // (not CpuSet::kMaxCpus: 4 KiB per topology for a 64-CPU node).
  std::vector<int> index_;
  std::vector<int> nodes_;
  std::vector<int> sockets_;
  int num_cores_ = 0;
  std::vector<std::vector<int>> core_cpus_;
  CpuSet all_;
};

}  // namespace troupe::plugins::numa
