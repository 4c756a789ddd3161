#pragma once
// Learns the Fragmentation strategy's task distribution online, from the
// tasks the scheduler is asked to place, with the rule the trace tools apply
// to a whole trace (distribution_rule.hpp: fragmentation_distribution).
//
// A TaskLearner is plain state: the actor that owns it (the SCHEDULING CYCLE,
// actors/task_learning.hpp) counts tasks into it and hands its immutable
// snapshot to the plugins through the CycleState. Header-only so the
// reference simulator (troupe_sim, which does not link troupe_plugins) runs
// the very same learner beside the scheduler's.
//
// What it keeps, and why it is bounded:
//  - one entry per class (cpu, per-card milli, card count, card models), at
//    most TaskLearnerLimits::max_classes: the openb traces have 49-330 keys,
//    so 512 holds any of them whole, and the rule only ever uses the top 95 %
//    plus the multi-GPU classes and the classes bound to card models. When
//    full, the class with the smallest count makes room (it is the one the
//    rule is least likely to use);
//  - a decayed count: every decay_every tasks all counts are multiplied so
//    that a task's weight halves every half_life tasks. The distribution thus
//    follows a workload that changes (a new team's job sizes take over within
//    a few half-lives), and a class not seen for long falls below
//    forget_below and is dropped;
//  - per class the memory of its last memory_samples tasks, whose lower median
//    is the class's memory (the trace rule takes the median over all pods);
//  - the published snapshot. A new one is built only when the class mix moved
//    by at least republish_distance in total variation (half the L1 distance
//    between the shares now and at the last publication): every snapshot
//    invalidates the scores cached under the previous one (evaluation cache,
//    Fragmentation memo), so small drifts keep the old one. Early on every
//    few tasks move the mix that much; later a publication is rare.
// Work per task: one map lookup and one pass over the classes (the distance);
// a publication sorts the classes and computes the card waste table
// (1,001 x single-card classes).

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "plugins/deviceshare/distribution_rule.hpp"
#include "plugins/deviceshare/fragmentation.hpp"
#include "plugins/deviceshare/fragmentation_policy.hpp"

namespace troupe::plugins::deviceshare {

/// One task as the learner counts it.
struct ObservedTask {
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int32_t gpu_milli = 0;  // per card; 0 = CPU-only
  int32_t gpu_count = 0;
  std::vector<std::string> gpu_models;  // card models it may use; empty = any
};

/// A published distribution; immutable once shared.
struct LearnedTasks {
  TaskDistribution tasks;
  /// Unique in the process (never reused): what cached scores are keyed by.
  uint64_t id = 0;
  /// The decayed number of tasks it was built from.
  double observed = 0;
};

struct TaskLearnerLimits {
  size_t max_classes = 512;
  double half_life = 5000;  // tasks
  size_t decay_every = 50;  // tasks between two decay steps
  size_t memory_samples = 31;
  double forget_below = 0.05;
  double republish_distance = 0.02;
};

/// What the learned strategy scores with while it has no snapshot (a plugin
/// called outside a scheduling cycle, such as a dry run): one
/// whole card, half and a quarter of a card, and 2, 4 and 8 whole cards,
/// equally likely, asking for no CPU or memory. Under it the measure keeps
/// whole cards and whole 8-card nodes free and puts shares on cards already
/// in use: packing that assumes nothing about the workload's sizes. In the
/// cycle a pod is counted before it is scored, so the very first pods' own
/// classes are in the distribution they are placed by; later a pod of a new
/// or rare class may not be (a snapshot is published only when the mix moved
/// by 2 %, and only the top 95 % of classes and the kept rare ones are in
/// it).
inline std::vector<GpuTaskClass> prior_task_classes() {
  std::vector<GpuTaskClass> classes;
  for (int32_t milli : {1000, 500, 250}) classes.push_back(GpuTaskClass{0, milli, 1, {}, 1.0, 0});
  for (int32_t cards : {2, 4, 8}) classes.push_back(GpuTaskClass{0, kMilliPerGpu, cards, {}, 1.0, 0});
  return classes;
}

/// A fresh id for a LearnedTasks (process-wide, starts at 1).
inline uint64_t next_learned_tasks_id() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1);
}

class TaskLearner {
 public:
  /// `card_waste_weight` as TaskDistribution::set_card_waste_weight (one that
  /// is not finite or negative counts as 0); limits are clamped to sane
  /// minimums (at least one class, one sample, a positive half-life).
  explicit TaskLearner(double card_waste_weight = kDefaultCardWasteWeight, TaskLearnerLimits limits = {});

  /// Counts one task and publishes a new snapshot when the mix moved enough.
  /// False, and nothing counted, for a task the measure cannot describe:
  /// negative CPU or memory, per-card milli outside [0, 1000], milli without
  /// a card count or a card count without milli.
  bool observe(ObservedTask task);

  /// The last published snapshot; null before the first task.
  const std::shared_ptr<const LearnedTasks>& snapshot() const { return published_; }

  size_t classes() const { return entries_.size(); }
  /// The decayed number of tasks counted.
  double observed() const { return total_; }
  const TaskLearnerLimits& limits() const { return limits_; }

 private:
  using Key = std::tuple<int64_t, int32_t, int32_t, std::string>;  // cpu, milli, cards, models text

  struct Entry {
    ClassTally tally;  // count = the decayed count; task.memory_mib unset until publication
    double published_share = 0;  // count / total at the last publication
    std::vector<int64_t> memory;  // ring of the last memory_samples tasks
    size_t next_memory = 0;
  };

  static bool normalize(ObservedTask& task);
  Entry& entry_for(const ObservedTask& task);
  void remove(size_t index);
  void decay();
  double moved() const;
  void publish();

  double card_waste_weight_;
  TaskLearnerLimits limits_;
  std::vector<Entry> entries_;
  std::map<Key, size_t> index_;  // key -> entries_ index
  double total_ = 0;
  size_t since_decay_ = 0;
  /// Shares (at the last publication) of classes dropped since: they moved too.
  double dropped_published_share_ = 0;
  std::shared_ptr<const LearnedTasks> published_;
};

// ---------------------------------------------------------------------------
// Inline definitions (see the header comment for why they live here).

inline TaskLearner::TaskLearner(double card_waste_weight, TaskLearnerLimits limits)
    : card_waste_weight_(std::isfinite(card_waste_weight) && card_waste_weight > 0 ? card_waste_weight : 0),
      limits_(limits) {
  limits_.max_classes = std::max<size_t>(limits_.max_classes, 1);
  limits_.decay_every = std::max<size_t>(limits_.decay_every, 1);
  limits_.memory_samples = std::max<size_t>(limits_.memory_samples, 1);
  if (!(limits_.half_life > 0)) limits_.half_life = TaskLearnerLimits{}.half_life;
}

inline bool TaskLearner::normalize(ObservedTask& task) {
  if (task.cpu_milli < 0 || task.memory_mib < 0) return false;
  if (task.gpu_milli < 0 || task.gpu_milli > kMilliPerGpu || task.gpu_count < 0) return false;
  if ((task.gpu_milli == 0) != (task.gpu_count == 0)) return false;
  auto& models = task.gpu_models;
  models.erase(std::remove(models.begin(), models.end(), std::string()), models.end());
  std::sort(models.begin(), models.end());
  models.erase(std::unique(models.begin(), models.end()), models.end());
  if (task.gpu_count == 0) models.clear();  // a CPU-only task uses no card
  return true;
}

inline bool TaskLearner::observe(ObservedTask task) {
  if (!normalize(task)) return false;
  Entry& entry = entry_for(task);
  entry.tally.count += 1;
  total_ += 1;
  if (entry.memory.size() < limits_.memory_samples) {
    entry.memory.push_back(task.memory_mib);
  } else {
    entry.memory[entry.next_memory] = task.memory_mib;
    entry.next_memory = (entry.next_memory + 1) % limits_.memory_samples;
  }
  if (++since_decay_ == limits_.decay_every) {
    since_decay_ = 0;
    decay();
  }
  if (!published_ || moved() >= limits_.republish_distance) publish();
  return true;
}

inline TaskLearner::Entry& TaskLearner::entry_for(const ObservedTask& task) {
  std::string text;
  for (const auto& m : task.gpu_models) text += (text.empty() ? "" : "|") + m;
  Key key{task.cpu_milli, task.gpu_milli, task.gpu_count, text};
  if (auto it = index_.find(key); it != index_.end()) return entries_[it->second];
  if (entries_.size() >= limits_.max_classes) {
    size_t smallest = 0;
    for (size_t i = 1; i < entries_.size(); ++i)
      if (entries_[i].tally.count < entries_[smallest].tally.count) smallest = i;
    remove(smallest);
  }
  Entry entry;
  entry.tally.task.cpu_milli = task.cpu_milli;
  entry.tally.task.gpu_milli = task.gpu_milli;
  entry.tally.task.gpu_count = task.gpu_count;
  entry.tally.task.gpu_models = task.gpu_models;
  entry.tally.models_text = std::move(text);
  index_.emplace(std::move(key), entries_.size());
  entries_.push_back(std::move(entry));
  return entries_.back();
}

// Swap-remove: the last entry takes the slot, its index follows.
inline void TaskLearner::remove(size_t index) {
  Entry& gone = entries_[index];
  total_ -= gone.tally.count;
  dropped_published_share_ += gone.published_share;
  const auto& t = gone.tally;
  index_.erase(Key{t.task.cpu_milli, t.task.gpu_milli, t.task.gpu_count, t.models_text});
  if (index != entries_.size() - 1) {
    entries_[index] = std::move(entries_.back());
    const auto& moved = entries_[index].tally;
    index_[Key{moved.task.cpu_milli, moved.task.gpu_milli, moved.task.gpu_count, moved.models_text}] = index;
  }
  entries_.pop_back();
}

inline void TaskLearner::decay() {
  const double factor = std::exp2(-static_cast<double>(limits_.decay_every) / limits_.half_life);
  for (size_t i = entries_.size(); i-- > 0;) {
    entries_[i].tally.count *= factor;
    if (entries_[i].tally.count < limits_.forget_below) remove(i);
  }
  // Summed again rather than scaled, so rounding never accumulates.
  total_ = 0;
  for (const auto& e : entries_) total_ += e.tally.count;
}

inline double TaskLearner::moved() const {
  if (!(total_ > 0)) return 0;
  double l1 = dropped_published_share_;
  for (const auto& e : entries_) l1 += std::abs(e.tally.count / total_ - e.published_share);
  return l1 / 2;
}

inline void TaskLearner::publish() {
  if (!(total_ > 0)) return;
  std::vector<ClassTally> tallies;
  tallies.reserve(entries_.size());
  for (const auto& e : entries_) {
    tallies.push_back(e.tally);
    tallies.back().task.memory_mib = lower_median(e.memory);
  }
  auto made = fragmentation_distribution(std::move(tallies), card_waste_weight_);
  if (!made) return;  // only with nothing counted, which the guard above excludes
  auto snapshot = std::make_shared<LearnedTasks>();
  snapshot->tasks = std::move(*made);
  snapshot->id = next_learned_tasks_id();
  snapshot->observed = total_;
  published_ = std::move(snapshot);
  for (auto& e : entries_) e.published_share = e.tally.count / total_;
  dropped_published_share_ = 0;
}

}  // namespace troupe::plugins::deviceshare
