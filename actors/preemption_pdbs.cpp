#include "actors/preemption_pdbs.hpp"

#include <spdlog/spdlog.h>

#include "watch/object_store.hpp"

namespace troupe::actors {

void PdbStore::apply(watch::EventType type, const watch::ObjectPtr& object) {
  const std::string key = watch::ObjectStore::key_of(*object);
  std::lock_guard<std::mutex> lock(mutex_);
  if (type == watch::EventType::deleted) {
    by_key_.erase(key);
  } else {
    auto pdb = decode_pod_disruption_budget(object);
    if (!pdb) {
      spdlog::warn("preemption ignores PodDisruptionBudget {}: {}", key, pdb.message());
      return;
    }
    by_key_[key] = std::move(*pdb);
  }
  snapshot_.reset();
  if (metrics_) metrics_->set("troupe_preemption_pdbs", {}, static_cast<double>(by_key_.size()));
}

std::shared_ptr<const std::vector<PodDisruptionBudget>> PdbStore::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!snapshot_) {
    auto all = std::make_shared<std::vector<PodDisruptionBudget>>();
    for (const auto& [key, pdb] : by_key_) all->push_back(pdb);
    snapshot_ = std::move(all);
  }
  return snapshot_;
}

size_t PdbStore::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return by_key_.size();
}

}  // namespace troupe::actors
