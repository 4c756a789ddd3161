#pragma once
// EvaluationCache: what Filter and Score said about each node of a partition,
// for the last few pod classes (plugins/framework/scheduling_class.hpp).
//
// Why: pods come in classes (the replicas of a ReplicaSet or Job, a
// benchmark's few shapes), and between two pods of a class only the nodes
// that took a pod in the meantime have changed. Every entry is stamped with
// the node's generation (NodeInfo::generation, bumped by every change), and is
// used only while the node still has that generation, so a reused verdict or
// raw score is exactly what a fresh evaluation would give: the scan order,
// percentageOfNodesToScore, normalisation and selectHost are untouched.
// Nodes whose results depend on who the pod is (reservations' owners) are
// never cached.
//
// Memory: per class, (2 + 1 + normalizing score plugins) words per node of
// the partition; 32 classes of the default profile ≈ 1.5 KB per node.

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <vector>

#include "plugins/framework/framework.hpp"
#include "plugins/framework/scheduling_class.hpp"
#include "plugins/framework/status.hpp"

namespace troupe::actors {

/// One class's entries, indexed like the partition's node order.
class ClassEvaluations {
 public:
  ClassEvaluations(const plugins::Framework& framework, std::shared_ptr<const plugins::SchedulingClass> cls,
                   size_t nodes);

  bool is_for(const plugins::Framework& framework, const plugins::SchedulingClass& cls) const {
    return framework_ == &framework && *class_ == cls;
  }
  /// The same pod of the same profile under inputs no Filter reads.
  bool verdicts_hold_for(const plugins::Framework& framework, const plugins::SchedulingClass& cls) const {
    return framework_ == &framework && class_->same_filter_inputs(cls);
  }
  /// Becomes `cls`'s entries: the verdicts stay, the scores go (they read the inputs).
  void rebase(std::shared_ptr<const plugins::SchedulingClass> cls);

  /// Node `at`'s Filter verdict when it was evaluated at `generation`
  /// (success for a feasible node); nullptr when not known.
  const plugins::PluginStatus* verdict(size_t at, uint64_t generation) const;
  /// Records a rejection or success (errors are not cached: they are retried).
  void remember_verdict(size_t at, uint64_t generation, const plugins::PluginStatus& status);

  /// Node `at`'s raw scores (weighted_sum and raw[], not the name or total)
  /// into `out` when they were computed at `generation`.
  bool scores(size_t at, uint64_t generation, plugins::NodeScore& out) const;
  void remember_scores(size_t at, uint64_t generation, const plugins::NodeScore& score);

 private:
  static constexpr uint64_t kUnknown = UINT64_MAX;
  /// A class whose nodes fail for more distinct reasons than this stops
  /// caching new rejections (the list is searched linearly on a miss).
  static constexpr size_t kMaxDistinctRejections = 64;

  const plugins::Framework* framework_;
  std::shared_ptr<const plugins::SchedulingClass> class_;
  size_t stride_;  // weighted_sum + the normalizing plugins' raw scores
  std::vector<uint64_t> verdict_generation_;
  std::vector<uint32_t> verdict_;  // 0 = feasible, i + 1 = rejections_[i]
  std::vector<plugins::PluginStatus> rejections_;
  std::vector<uint64_t> score_generation_;
  std::vector<int64_t> scores_;  // stride_ per node
};

class EvaluationCache {
 public:
  /// Enough for the 25 shapes of troupe bench's cpu mix and a burst of
  /// different workloads; the least recently used class makes room.
  static constexpr size_t kDefaultClasses = 32;

  explicit EvaluationCache(size_t max_classes = kDefaultClasses) : max_classes_(max_classes) {}

  /// The entries of the class; created empty for `nodes` nodes the second
  /// time a class is asked for (a pod unlike any other costs no table);
  /// nullptr the first time. A class that differs from a cached one only in
  /// inputs no Filter reads (a new learned snapshot) takes over its verdicts.
  ClassEvaluations* of(const plugins::Framework& framework, const std::shared_ptr<const plugins::SchedulingClass>& cls,
                       size_t nodes);
  /// The node order changed: entries are indexed by it, so all go.
  void clear() { classes_.clear(); }
  size_t classes() const { return classes_.size(); }

 private:
  /// Classes asked for once, remembered by hash (a collision only admits a class early).
  static constexpr size_t kSeenOnce = 128;

  size_t max_classes_;
  std::list<ClassEvaluations> classes_;  // most recently used first
  std::vector<uint64_t> seen_once_;      // ring of kSeenOnce hashes
  size_t seen_next_ = 0;
};

}  // namespace troupe::actors
