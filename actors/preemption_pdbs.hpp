#pragma once
// The PodDisruptionBudgets (policy/v1) preemption honours, kept up to date by
// a sink of the shared reflectors (the reflector's thread applies each change).
// Read only when a pod fits nowhere, so it is a plain mutex-guarded map with a
// cached snapshot rather than actor state: the cycle takes the snapshot and
// hands it to every node partition.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "actors/metrics_registry.hpp"
#include "model/pod_disruption_budget.hpp"
#include "watch/watch_event.hpp"

namespace troupe::actors {

class PdbStore {
 public:
  /// `metrics` (may be null) gets troupe_preemption_pdbs, how many budgets are known.
  explicit PdbStore(std::shared_ptr<MetricsRegistry> metrics = nullptr) : metrics_(std::move(metrics)) {}

  /// One watch event; an object that does not decode is logged and skipped.
  void apply(watch::EventType type, const watch::ObjectPtr& object);
  /// Every known budget (shared: unchanged until the next event).
  std::shared_ptr<const std::vector<PodDisruptionBudget>> snapshot() const;
  size_t size() const;

 private:
  std::shared_ptr<MetricsRegistry> metrics_;
  mutable std::mutex mutex_;
  std::map<std::string, PodDisruptionBudget> by_key_;
  mutable std::shared_ptr<const std::vector<PodDisruptionBudget>> snapshot_;
};

/// The collection the store follows (as the descheduler's view does).
inline constexpr const char* kPdbCollection = "poddisruptionbudgets";
inline constexpr const char* kPdbPath = "/apis/policy/v1/poddisruptionbudgets";

}  // namespace troupe::actors
