#pragma once
// The CPUs pods hold on one node: for each CPU id the number of holders (more
// than one only from inconsistent annotations) and the exclusive policy of
// its first holder. Kept in one flat array indexed by CPU id and sized to the
// largest held id + 1 (4 bytes per id) instead of two maps (~48 bytes per
// held CPU each): every node keeps one, most with few or no CPUs held.

#include <cstdint>
#include <vector>

#include "plugins/node_numa_resource/numa_types.hpp"

namespace troupe::plugins::numa {

class AllocatedCpus {
 public:
  /// One more holder of `cpu` (an id in 0..CpuSet::kMaxCpus-1); the first
  /// holder's policy is kept.
  void add(int cpu, CpuExclusivePolicy policy);
  /// One holder fewer; false (no change) when the CPU has none.
  bool remove(int cpu);

  bool contains(int cpu) const { return holders(cpu) > 0; }
  int holders(int cpu) const;
  /// The first holder's policy; unset when the CPU is not held.
  CpuExclusivePolicy policy(int cpu) const;
  bool empty() const { return entries_.empty(); }
  /// Number of CPUs held.
  int size() const;

  /// Calls f(cpu, policy) for every held CPU, ascending by id.
  template <class F>
  void for_each(F&& f) const {
    for (size_t cpu = 0; cpu < entries_.size(); ++cpu)
      if (entries_[cpu].holders > 0) f(static_cast<int>(cpu), entries_[cpu].policy);
  }

  friend bool operator==(const AllocatedCpus& a, const AllocatedCpus& b);
  friend bool operator!=(const AllocatedCpus& a, const AllocatedCpus& b) { return !(a == b); }

 private:
  struct Entry {
    uint16_t holders = 0;
    CpuExclusivePolicy policy = CpuExclusivePolicy::unset;
  };
  // Trailing unheld entries are dropped, so equal holdings compare equal.
  std::vector<Entry> entries_;
};

}  // namespace troupe::plugins::numa
