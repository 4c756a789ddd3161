#include "plugins/node_numa_resource/cpu_topology_cache.hpp"

#include <algorithm>

namespace troupe::plugins::numa {

Result<std::shared_ptr<const CpuTopology>> CpuTopologyCache::get(std::string_view annotation) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto shared = find_locked(annotation)) return shared;
  }
  // Parse without the lock so other nodes' look-ups are not held up; when two
  // threads parse the same new text, the first to insert wins and both return it.
  auto parsed = CpuTopology::parse(annotation);
  if (!parsed) return parsed.error();
  auto topology = std::make_shared<const CpuTopology>(std::move(*parsed));
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto shared = find_locked(annotation)) return shared;
  insert_locked(annotation, topology);
  return topology;
}

std::shared_ptr<const CpuTopology> CpuTopologyCache::find_locked(std::string_view annotation) const {
  auto it = entries_.find(annotation);
  return it == entries_.end() ? nullptr : it->second.lock();
}

void CpuTopologyCache::insert_locked(std::string_view annotation, const std::shared_ptr<const CpuTopology>& topology) {
  auto it = entries_.find(annotation);
  if (it != entries_.end()) {
    it->second = topology;  // a released entry for this text
    return;
  }
  if (entries_.size() >= prune_at_) {
    for (auto e = entries_.begin(); e != entries_.end();) e = e->second.expired() ? entries_.erase(e) : std::next(e);
    prune_at_ = std::max(kFirstPrune, 2 * entries_.size());
  }
  entries_.emplace(std::string(annotation), topology);
}

size_t CpuTopologyCache::stored() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

size_t CpuTopologyCache::in_use() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<size_t>(
      std::count_if(entries_.begin(), entries_.end(), [](const auto& e) { return !e.second.expired(); }));
}

CpuTopologyCache& process_cpu_topology_cache() {
  static CpuTopologyCache cache;
  return cache;
}

}  // namespace troupe::plugins::numa
