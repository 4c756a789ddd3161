#pragma once
// The rule that turns counted task classes into a task distribution: ONE
// implementation for the trace tools (sim/trace/typical_tasks.hpp, which
// count a trace's original pods) and for the online learner
// (task_learner.hpp, which counts the pods the scheduler sees).
// Header-only for the reason fragmentation.hpp is: the reference simulator
// (troupe_sim) does not link troupe_plugins.
//
// FGD's typical tasks (fgd-method.md §6.1): classes sorted by count, ties by
// key descending (cpu, milli, card count, models text); the most popular
// prefix covering at least `popularity` of all counted tasks; weights =
// counts. troupe's Fragmentation distribution starts from the same prefix
// (top 95 %) and adds, from experiments on the openb traces
// (docs/benchmarks.md §3):
//  - each class's median memory (the caller's, lower_median), so a node whose
//    memory is used up counts its idle GPUs as fragment;
//  - the next most popular GPU classes, as if in the prefix, while the prefix
//    covers less than kGpuTaskCoverage of the GPU tasks: in a cluster of
//    mostly CPU-only pods the top 95 % may hold no GPU class at all, and the
//    measure would be blind to the tasks it is for (never the case on the
//    openb traces, whose prefixes cover 94-95 % of their GPU tasks);
//  - every multi-GPU class (2+ cards) still left out, at
//    kRareMultiGpuShare of its frequency: rare but large tasks (8 whole GPUs,
//    64-120 cores) otherwise find no node with all cards free;
//  - every class bound to card models (a gpu_spec) still left out, at its
//    full frequency: such a class can use only the nodes of its models, and
//    the rare ones together are a large part of that demand (on gpuspec33,
//    168 classes of 328 pods outside the prefix, a seventh of the typed
//    pods); cut, the measure lets untyped tasks fill the typed tasks' cards;
//  - the expected card waste (card_waste.hpp) at the given weight.
// Counts are doubles so a learner's decayed counts go through the same rule;
// integer counts give the same bits as the integer arithmetic they replace.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "model/result.hpp"
#include "plugins/deviceshare/fragmentation.hpp"

namespace troupe::plugins::deviceshare {

/// The method's threshold: the top 95 % of tasks.
inline constexpr double kTypicalPopularity = 0.95;

/// How much of its frequency a multi-GPU class outside the popular prefix
/// keeps (experiments on the default trace: 0.25-1 all help, 0.5 best).
inline constexpr double kRareMultiGpuShare = 0.5;

/// The share of the GPU tasks (gpu_milli > 0) the popular prefix must cover
/// at least; below the openb traces' 94-95 %, so it changes nothing there.
inline constexpr double kGpuTaskCoverage = 0.9;

/// The share of its frequency a class outside the popular prefix keeps: a
/// class bound to card models all of it, else a multi-GPU class
/// kRareMultiGpuShare of it, else none.
inline double rare_class_share(const GpuTaskClass& task) {
  if (!task.gpu_models.empty() && !task.cpu_only()) return 1.0;
  return task.gpu_count >= 2 ? kRareMultiGpuShare : 0.0;
}

/// One class and how often it was seen.
struct ClassTally {
  /// cpu_milli, gpu_milli, gpu_count, gpu_models and memory_mib (the class's
  /// median; only fragmentation_distribution reads it). The weight is ignored.
  GpuTaskClass task;
  /// gpu_models joined with '|': the last part of the key that orders ties.
  std::string models_text;
  double count = 0;
};

/// The lower median (a value some task really asked for); 0 when empty.
inline int64_t lower_median(std::vector<int64_t> values) {
  if (values.empty()) return 0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

namespace distribution_rule_detail {

inline bool more_popular(const ClassTally& a, const ClassTally& b) {
  if (a.count != b.count) return a.count > b.count;
  return std::tie(a.task.cpu_milli, a.task.gpu_milli, a.task.gpu_count, a.models_text) >
         std::tie(b.task.cpu_milli, b.task.gpu_milli, b.task.gpu_count, b.models_text);
}

/// Sorts by popularity and returns the length of the prefix covering
/// `popularity` of `total`, with the count it covers in `covered`.
inline size_t popular_prefix(std::vector<ClassTally>& tallies, double popularity, double total, double& covered) {
  std::sort(tallies.begin(), tallies.end(), more_popular);
  const double needed = popularity * total;
  size_t popular = 0;
  covered = 0;
  while (popular < tallies.size() && covered < needed) covered += tallies[popular++].count;
  return popular;
}

/// Errors shared by both rules: nothing counted, a negative or non-finite count.
inline Result<double> total_count(const std::vector<ClassTally>& tallies) {
  if (tallies.empty()) return Error{"no task was counted"};
  double total = 0;
  for (const auto& t : tallies) {
    if (!(t.count >= 0) || !std::isfinite(t.count))
      return Error{"a class count must be a finite number >= 0, got " + std::to_string(t.count)};
    total += t.count;
  }
  if (!(total > 0)) return Error{"no task was counted"};
  return total;
}

inline GpuTaskClass with_weight(const ClassTally& tally, double weight, bool keep_memory) {
  GpuTaskClass task = tally.task;
  task.weight = weight;
  if (!keep_memory) task.memory_mib = 0;
  return task;
}

}  // namespace distribution_rule_detail

/// FGD's typical tasks (see the header comment). Errors: nothing counted, a
/// bad count, popularity outside (0, 1], or TaskDistribution::make's.
inline Result<TaskDistribution> typical_distribution(std::vector<ClassTally> tallies, double popularity) {
  namespace detail = distribution_rule_detail;
  if (!(popularity > 0 && popularity <= 1))
    return Error{"popularity must be in (0, 1], got " + std::to_string(popularity)};
  auto total = detail::total_count(tallies);
  if (!total) return total.error();
  double covered = 0;
  const size_t popular = detail::popular_prefix(tallies, popularity, *total, covered);
  std::vector<GpuTaskClass> classes;
  for (size_t i = 0; i < popular; ++i) classes.push_back(detail::with_weight(tallies[i], tallies[i].count, false));
  return TaskDistribution::make(std::move(classes));
}

/// troupe's Fragmentation distribution (see the header comment): the top 95 %
/// with their memory, weights summing to 1 over that prefix, plus the rare
/// classes that rare_class_share keeps, at that part of their share of all
/// tasks (multi-GPU: kRareMultiGpuShare; bound to card models: all), with
/// the expected card waste at `card_waste_weight`. Errors as typical_distribution.
inline Result<TaskDistribution> fragmentation_distribution(std::vector<ClassTally> tallies, double card_waste_weight) {
  namespace detail = distribution_rule_detail;
  auto total = detail::total_count(tallies);
  if (!total) return total.error();
  double covered = 0;
  const size_t popular = detail::popular_prefix(tallies, kTypicalPopularity, *total, covered);
  std::vector<bool> in_prefix(tallies.size(), false);
  double gpu_total = 0, gpu_covered = 0;
  for (size_t i = 0; i < tallies.size(); ++i) {
    if (tallies[i].task.cpu_only()) continue;
    gpu_total += tallies[i].count;
    if (i < popular) gpu_covered += tallies[i].count;
  }
  for (size_t i = 0; i < popular; ++i) in_prefix[i] = true;
  for (size_t i = popular; i < tallies.size() && gpu_covered < kGpuTaskCoverage * gpu_total; ++i) {
    if (tallies[i].task.cpu_only()) continue;
    in_prefix[i] = true;
    gpu_covered += tallies[i].count;
    covered += tallies[i].count;
  }
  std::vector<GpuTaskClass> classes;
  for (size_t i = 0; i < tallies.size(); ++i)
    if (in_prefix[i]) classes.push_back(detail::with_weight(tallies[i], tallies[i].count / covered, true));
  for (size_t i = popular; i < tallies.size(); ++i) {
    if (in_prefix[i]) continue;
    const double share = rare_class_share(tallies[i].task);
    if (share > 0) classes.push_back(detail::with_weight(tallies[i], share * tallies[i].count / *total, true));
  }
  auto made = TaskDistribution::make(std::move(classes));
  if (!made) return made.error();
  if (auto set = made->set_card_waste_weight(card_waste_weight); !set) return Error{set.message()};
  return made;
}

}  // namespace troupe::plugins::deviceshare
