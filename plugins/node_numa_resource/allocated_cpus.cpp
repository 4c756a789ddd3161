#include "plugins/node_numa_resource/allocated_cpus.hpp"

#include <algorithm>
#include <limits>

namespace troupe::plugins::numa {

void AllocatedCpus::add(int cpu, CpuExclusivePolicy policy) {
  if (cpu < 0) return;
  if (static_cast<size_t>(cpu) >= entries_.size()) entries_.resize(static_cast<size_t>(cpu) + 1);
  Entry& e = entries_[cpu];
  if (e.holders == 0) e.policy = policy;
  if (e.holders < std::numeric_limits<uint16_t>::max()) ++e.holders;
}

bool AllocatedCpus::remove(int cpu) {
  if (!contains(cpu)) return false;
  Entry& e = entries_[cpu];
  if (--e.holders > 0) return true;
  e.policy = CpuExclusivePolicy::unset;
  while (!entries_.empty() && entries_.back().holders == 0) entries_.pop_back();
  return true;
}

int AllocatedCpus::holders(int cpu) const {
  if (cpu < 0 || static_cast<size_t>(cpu) >= entries_.size()) return 0;
  return entries_[cpu].holders;
}

CpuExclusivePolicy AllocatedCpus::policy(int cpu) const {
  return contains(cpu) ? entries_[cpu].policy : CpuExclusivePolicy::unset;
}

int AllocatedCpus::size() const {
  return static_cast<int>(
      std::count_if(entries_.begin(), entries_.end(), [](const Entry& e) { return e.holders > 0; }));
}

bool operator==(const AllocatedCpus& a, const AllocatedCpus& b) {
  return std::equal(a.entries_.begin(), a.entries_.end(), b.entries_.begin(), b.entries_.end(),
                    [](const auto& x, const auto& y) { return x.holders == y.holders && x.policy == y.policy; });
}

}  // namespace troupe::plugins::numa
