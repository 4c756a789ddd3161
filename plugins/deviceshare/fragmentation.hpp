#pragma once
// GPU fragmentation (FGD, "Beware of Fragmentation", ATC'23; see
// shared/docs/fgd-method.md §6): the fragmentation of a node for a task-size
// distribution is the expected idle GPU capacity (milli-GPU) that a randomly
// drawn task cannot use there. A placement is scored by how much it changes
// that expectation: less growth (or a drop) is better.
//
// Everything the hot paths need is inline in this header on purpose: the
// scheduler (troupe_plugins) and the reference simulator (troupe_sim, which
// does not link troupe_plugins) share this one definition. The .cpp holds the
// plugin-argument parsing only.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/result.hpp"
#include "plugins/deviceshare/card_waste.hpp"
#include "plugins/deviceshare/fixed_vector.hpp"

namespace YAML {
class Node;
}

namespace troupe::plugins::deviceshare {

/// Capacity of one card in milli-GPU.
inline constexpr int32_t kMilliPerGpu = 1000;

/// One class of the task-size distribution: what a task asks for and how
/// likely it is. gpu_milli is per card; a CPU-only task has gpu_milli 0 and
/// gpu_count 0. gpu_models lists the card models it may use (empty = any).
struct GpuTaskClass {
  int64_t cpu_milli = 0;
  int32_t gpu_milli = 0;
  int32_t gpu_count = 0;
  std::vector<std::string> gpu_models;
  double weight = 0;
  /// Host memory a task of the class needs (MiB); 0 = memory is not checked
  /// (the published method ignores memory).
  int64_t memory_mib = 0;

  bool cpu_only() const { return gpu_milli == 0; }
  bool may_use(std::string_view model) const {
    if (gpu_models.empty()) return true;
    for (const auto& m : gpu_models)
      if (m == model) return true;
    return false;
  }
};

/// Validated classes with weights normalised to probabilities (sum 1), kept
/// in the order given: the order fixes floating-point summation, which the
/// reference simulator needs to be bit-exact.
class TaskDistribution {
 public:
  /// Errors name the class index and field: weights must be finite and >= 0
  /// with a positive sum; gpu_milli in [0, 1000]; gpu_count >= 1 iff
  /// gpu_milli > 0; cpu_milli >= 0. A class of several partial cards (the
  /// method's "num x milli") is allowed: it needs num cards with milli free.
  static Result<TaskDistribution> make(std::vector<GpuTaskClass> classes);

  const std::vector<GpuTaskClass>& classes() const { return classes_; }
  size_t size() const { return classes_.size(); }
  /// The distinct per-card milli the GPU classes ask, in first-seen order.
  const std::vector<int32_t>& gpu_sizes() const { return gpu_sizes_; }

  /// Adds `weight` x the expected waste of every card (card_waste.hpp) to
  /// node_fragmentation; 0 (the default, and FGD's measure) leaves it out.
  /// Errors: weight not finite or negative.
  Status set_card_waste_weight(double weight);
  double card_waste_weight() const { return card_waste_weight_; }
  /// Expected waste of a card with `free_milli` free (clamped to 0..1000);
  /// only valid while the weight is not 0.
  double card_waste(int32_t free_milli) const {
    return card_waste_[static_cast<size_t>(std::clamp(free_milli, 0, kMilliPerGpu))];
  }

  /// Per class: may a task of that class use cards of `model`? Compute once
  /// per node model and pass to the overloads below that take it.
  std::vector<uint8_t> access_for_model(std::string_view model) const {
    std::vector<uint8_t> access(classes_.size());
    for (size_t i = 0; i < classes_.size(); ++i) access[i] = classes_[i].may_use(model) ? 1 : 0;
    return access;
  }

 private:
  std::vector<GpuTaskClass> classes_;
  std::vector<int32_t> gpu_sizes_;
  double card_waste_weight_ = 0;
  std::vector<double> card_waste_;  // V(0..1000), filled while the weight is not 0
};

/// What fragmentation reads of a node: free CPU and the free milli-GPU of each
/// card (index = card minor), and free host memory (MiB; only classes with a
/// memory_mib read it, so "unknown" is as good as unlimited).
struct NodeGpuFree {
  int64_t cpu_free_milli = 0;
  std::vector<int32_t> card_free_milli;
  int64_t memory_free_mib = std::numeric_limits<int64_t>::max();

  int64_t idle_gpu_milli() const {
    int64_t total = 0;
    for (int32_t f : card_free_milli) total += f;
    return total;
  }
};

/// The seven categories of the paper's Fig. 4, in the simulator's order.
enum class FragCategory : int { q1_lack_both, q2_lack_gpu, q3_satisfied, q4_lack_cpu, x_satisfied, x_lack_cpu, no_access };

/// Expected fragmentation F(n) in milli-GPU. `access` comes from
/// TaskDistribution::access_for_model for this node's card model.
double node_fragmentation(const NodeGpuFree& node, const TaskDistribution& tasks, const std::vector<uint8_t>& access);

/// Same, matching models by name (`model` empty = a node whose cards have no
/// model: only unconstrained classes may use them).
inline double node_fragmentation(const NodeGpuFree& node, const TaskDistribution& tasks, std::string_view model) {
  return node_fragmentation(node, tasks, tasks.access_for_model(model));
}

/// A request to place: cpu_milli, gpu_milli per card (0 = CPU-only), gpu_count.
struct GpuRequest {
  int64_t cpu_milli = 0;
  int32_t gpu_milli = 0;
  int32_t gpu_count = 0;
  int64_t memory_mib = 0;  // host memory; matters only to classes with a memory_mib
  bool shared() const { return gpu_count == 1 && gpu_milli > 0 && gpu_milli < kMilliPerGpu; }
};

/// The FGD node score of a fragmentation change: int(sigmoid((before - after)
/// / 1000) * 100). No change scores 50; a drop scores above 50.
inline int64_t fragmentation_score(double before, double after) {
  const double x = (before - after) / 1000.0;
  return static_cast<int64_t>(1.0 / (1.0 + std::exp(-x)) * 100.0);
}

/// The best placement of a request on one node and what it does.
struct FragPlacement {
  int64_t score = 0;            // 0..100, fragmentation_score(before, after)
  std::vector<int32_t> cards;   // chosen card indices (empty for CPU-only)
  double before = 0;
  double after = 0;
};

/// Cards a request could use on this node: those with free >= gpu_milli.
/// Whether the node fits at all (CPU, enough cards) is the caller's filter;
/// this returns nullopt when it does not.
///
/// Shared request: every card that fits is tried and the one with the highest
/// score wins (lowest index on ties) — the per-card choice that minimises
/// fragmentation growth. Whole cards / several cards: the after-state takes
/// the least-sufficient cards (ascending free, stable), which for full cards
/// is any fully free card, and the chosen cards are the lowest-index ones
/// that fit. CPU-only: only CPU changes.
inline std::optional<FragPlacement> best_fragmentation_placement(const NodeGpuFree& node, const GpuRequest& request,
                                                                 const TaskDistribution& tasks,
                                                                 const std::vector<uint8_t>& access);
/// Same, given the node's measure before the placement (node_fragmentation of
/// `node`), for a caller that remembers it.
inline std::optional<FragPlacement> best_fragmentation_placement(const NodeGpuFree& node, const GpuRequest& request,
                                                                 const TaskDistribution& tasks,
                                                                 const std::vector<uint8_t>& access, double before);

/// Parses plugin arguments: a list of {cpu (quantity or milli integer via
/// cpuMilli), memory (quantity, optional), gpuMilli, gpuCount, gpuModels, weight}. `field` names the list
/// in errors ("args.taskClasses[2].gpuMilli: ...").
Result<TaskDistribution> parse_task_distribution(const YAML::Node& list, const std::string& field);

// ---------------------------------------------------------------------------
// Inline definitions (see the header comment for why they live here).

inline Result<TaskDistribution> TaskDistribution::make(std::vector<GpuTaskClass> classes) {
  if (classes.empty()) return Error{"task distribution: no task classes"};
  double sum = 0;
  for (size_t i = 0; i < classes.size(); ++i) {
    const auto& c = classes[i];
    const std::string where = "task class " + std::to_string(i) + ": ";
    if (!std::isfinite(c.weight) || c.weight < 0)
      return Error{where + "weight must be a finite number >= 0, got " + std::to_string(c.weight)};
    if (c.cpu_milli < 0) return Error{where + "cpu_milli must be >= 0, got " + std::to_string(c.cpu_milli)};
    if (c.memory_mib < 0) return Error{where + "memory_mib must be >= 0, got " + std::to_string(c.memory_mib)};
    if (c.gpu_milli < 0 || c.gpu_milli > kMilliPerGpu)
      return Error{where + "gpu_milli must be in [0, 1000], got " + std::to_string(c.gpu_milli)};
    if (c.gpu_milli == 0 && c.gpu_count != 0)
      return Error{where + "gpu_count must be 0 for a CPU-only class (gpu_milli 0), got " + std::to_string(c.gpu_count)};
    if (c.gpu_milli > 0 && c.gpu_count < 1)
      return Error{where + "gpu_count must be >= 1 when gpu_milli > 0, got " + std::to_string(c.gpu_count)};
    sum += c.weight;
  }
  if (!(sum > 0) || !std::isfinite(sum))
    return Error{"task distribution: the weights must sum to a finite number > 0"};
  TaskDistribution out;
  for (auto& c : classes) {
    c.weight /= sum;
    const bool seen = std::find(out.gpu_sizes_.begin(), out.gpu_sizes_.end(), c.gpu_milli) != out.gpu_sizes_.end();
    if (!c.cpu_only() && !seen) out.gpu_sizes_.push_back(c.gpu_milli);
  }
  out.classes_ = std::move(classes);
  return out;
}

inline Status TaskDistribution::set_card_waste_weight(double weight) {
  if (!std::isfinite(weight) || weight < 0)
    return Error{"task distribution: card waste weight must be a finite number >= 0, got " + std::to_string(weight)};
  card_waste_weight_ = weight;
  card_waste_.clear();
  if (weight == 0) return Status{};
  std::vector<int32_t> milli, count;
  std::vector<double> weights;
  for (const auto& c : classes_) {
    milli.push_back(c.gpu_milli);
    count.push_back(c.gpu_count);
    weights.push_back(c.weight);
  }
  card_waste_ = expected_card_waste(milli, count, weights, kMilliPerGpu);
  return Status{};
}

namespace fragmentation_detail {

/// How many distinct card states best_shared_card remembers (more cards than
/// this are measured without the memo).
inline constexpr size_t kMaxCardsRemembered = 64;

/// What a node's cards offer tasks of one per-card size: how many cards have
/// that much free, and the free milli of the cards too small for it.
/// (No member initialisers: CardFits leaves the sizes nobody asks unwritten.)
struct CardFit {
  int32_t usable_cards;
  int64_t unusable_milli;
};

/// CardFit for every per-card size the distribution's GPU classes ask,
/// indexed by that size (0..1000). The classes share a few sizes, so the
/// cards are scanned once per size rather than once per class.
class CardFits {
 public:
  CardFits(const std::vector<int32_t>& card_free_milli, const std::vector<int32_t>& sizes) {
    for (int32_t size : sizes) {
      CardFit fit{0, 0};
      for (int32_t f : card_free_milli) {
        if (f >= size)
          ++fit.usable_cards;
        else
          fit.unusable_milli += f;
      }
      by_size_[static_cast<size_t>(size)] = fit;
    }
  }
  /// Only for a size given to the constructor.
  const CardFit& of(int32_t size) const { return by_size_[static_cast<size_t>(size)]; }

 private:
  CardFit by_size_[kMilliPerGpu + 1];  // only the given sizes are written
};

/// FGD's measure without troupe's card-waste term: the expected idle milli a
/// task drawn from the distribution cannot use on this node.
inline double fgd_measure(const NodeGpuFree& node, int64_t idle, const TaskDistribution& tasks,
                          const std::vector<uint8_t>& access) {
  const double idle_d = static_cast<double>(idle);
  const CardFits fits(node.card_free_milli, tasks.gpu_sizes());
  // Seven buckets summed in the simulator's order so results match it to the
  // last bit (scores are truncated, so last bits can flip a placement).
  double bucket[7] = {0, 0, 0, 0, 0, 0, 0};
  const auto& classes = tasks.classes();
  for (size_t m = 0; m < classes.size(); ++m) {
    const GpuTaskClass& task = classes[m];
    const double p = task.weight;
    // Host resources: a task that cannot get its CPU (or, when the class says,
    // its memory) here cannot use the idle GPUs either. The method checks CPU
    // only; memory counts into the same "lack host" buckets.
    const bool cpu_ok = node.cpu_free_milli >= task.cpu_milli && node.memory_free_mib >= task.memory_mib;
    if (task.cpu_only()) {
      bucket[static_cast<int>(cpu_ok ? FragCategory::x_satisfied : FragCategory::x_lack_cpu)] += p * idle_d;
      continue;
    }
    if (!access[m]) {
      bucket[static_cast<int>(FragCategory::no_access)] += p * idle_d;
      continue;
    }
    const CardFit& fit = fits.of(task.gpu_milli);
    if (fit.usable_cards >= task.gpu_count) {
      if (cpu_ok) {
        // The cards too small for this task are its fragment; the rest is usable.
        bucket[static_cast<int>(FragCategory::q2_lack_gpu)] += p * static_cast<double>(fit.unusable_milli);
        bucket[static_cast<int>(FragCategory::q3_satisfied)] += p * static_cast<double>(idle - fit.unusable_milli);
      } else {
        bucket[static_cast<int>(FragCategory::q4_lack_cpu)] += p * idle_d;
      }
    } else {
      bucket[static_cast<int>(cpu_ok ? FragCategory::q2_lack_gpu : FragCategory::q1_lack_both)] += p * idle_d;
    }
  }
  // Q3 (satisfied) is not fragment.
  return ((((bucket[0] + bucket[1]) + bucket[3]) + bucket[4]) + bucket[5]) + bucket[6];
}

/// The measure from its FGD part: adds the card-waste term when it is on.
inline double with_card_waste(double fgd, const NodeGpuFree& node, const TaskDistribution& tasks) {
  if (tasks.card_waste_weight() == 0) return fgd;
  double waste = 0;
  for (int32_t f : node.card_free_milli) waste += tasks.card_waste(f);
  return fgd + tasks.card_waste_weight() * waste;
}

}  // namespace fragmentation_detail

inline double node_fragmentation(const NodeGpuFree& node, const TaskDistribution& tasks,
                                 const std::vector<uint8_t>& access) {
  const int64_t idle = node.idle_gpu_milli();
  if (idle == 0) return 0.0;
  return fragmentation_detail::with_card_waste(fragmentation_detail::fgd_measure(node, idle, tasks, access), node,
                                               tasks);
}

namespace fragmentation_detail {

/// Card indices ordered by free milli ascending, ties by index (a stable sort).
inline std::vector<int32_t> cards_by_free_ascending(const std::vector<int32_t>& free) {
  std::vector<int32_t> order(free.size());
  for (size_t i = 0; i < free.size(); ++i) order[i] = static_cast<int32_t>(i);
  // Insertion sort: at most a handful of cards, and it is stable.
  for (size_t i = 1; i < order.size(); ++i)
    for (size_t j = i; j > 0 && free[order[j - 1]] > free[order[j]]; --j) std::swap(order[j - 1], order[j]);
  return order;
}

inline std::optional<FragPlacement> best_shared_card(const NodeGpuFree& node, const GpuRequest& request,
                                                     const TaskDistribution& tasks, const std::vector<uint8_t>& access,
                                                     double before) {
  std::optional<FragPlacement> best;
  NodeGpuFree after = node;
  after.cpu_free_milli -= request.cpu_milli;
  after.memory_free_mib -= request.memory_mib;
  const int64_t idle_after = node.idle_gpu_milli() - request.gpu_milli;
  // Taking the share from either of two cards with equal free leaves the same
  // multiset of free cards, which is all FGD's part of the measure reads: it
  // is computed once per free value (the card-waste term sums per card in
  // index order and is added per card, so every result is bit-exact).
  struct FgdOfFree {
    int32_t free;
    double fgd;
  };
  FixedVector<FgdOfFree, kMaxCardsRemembered> fgd_by_free;
  for (size_t i = 0; i < node.card_free_milli.size(); ++i) {
    const int32_t free = node.card_free_milli[i];
    if (free < request.gpu_milli) continue;
    after.card_free_milli[i] -= request.gpu_milli;
    double frag = 0.0;
    if (idle_after > 0) {
      const auto* known = std::find_if(fgd_by_free.begin(), fgd_by_free.end(),
                                       [free](const FgdOfFree& e) { return e.free == free; });
      double fgd = 0;
      if (known != fgd_by_free.end()) {
        fgd = known->fgd;
      } else {
        fgd = fgd_measure(after, idle_after, tasks, access);
        fgd_by_free.push_back({free, fgd});
      }
      frag = with_card_waste(fgd, after, tasks);
    }
    after.card_free_milli[i] += request.gpu_milli;
    const int64_t score = fragmentation_score(before, frag);
    // Strictly greater: the lowest index wins ties, as the simulator scans upward.
    if (!best || score > best->score) best = FragPlacement{score, {static_cast<int32_t>(i)}, before, frag};
  }
  return best;
}

inline std::optional<FragPlacement> best_multi_card(const NodeGpuFree& node, const GpuRequest& request,
                                                    const TaskDistribution& tasks, const std::vector<uint8_t>& access,
                                                    double before) {
  NodeGpuFree after = node;
  after.cpu_free_milli -= request.cpu_milli;
  after.memory_free_mib -= request.memory_mib;
  std::vector<int32_t> taken;
  for (int32_t card : cards_by_free_ascending(node.card_free_milli)) {
    if (static_cast<int32_t>(taken.size()) == request.gpu_count) break;
    if (node.card_free_milli[card] < request.gpu_milli) continue;
    after.card_free_milli[card] -= request.gpu_milli;
    taken.push_back(card);
  }
  if (static_cast<int32_t>(taken.size()) < request.gpu_count) return std::nullopt;
  if (request.gpu_milli == kMilliPerGpu) {
    // Whole cards leave the same after-state whichever free cards are taken;
    // the allocator takes the lowest-index ones.
    taken.clear();
    for (size_t i = 0; i < node.card_free_milli.size() && static_cast<int32_t>(taken.size()) < request.gpu_count; ++i)
      if (node.card_free_milli[i] == kMilliPerGpu) taken.push_back(static_cast<int32_t>(i));
  } else {
    std::sort(taken.begin(), taken.end());
  }
  const double frag = node_fragmentation(after, tasks, access);
  return FragPlacement{fragmentation_score(before, frag), std::move(taken), before, frag};
}

}  // namespace fragmentation_detail

inline std::optional<FragPlacement> best_fragmentation_placement(const NodeGpuFree& node, const GpuRequest& request,
                                                                 const TaskDistribution& tasks,
                                                                 const std::vector<uint8_t>& access, double before) {
  if (request.gpu_milli <= 0 || request.gpu_count <= 0) {
    NodeGpuFree after = node;
    after.cpu_free_milli -= request.cpu_milli;
    after.memory_free_mib -= request.memory_mib;
    const double frag = node_fragmentation(after, tasks, access);
    return FragPlacement{fragmentation_score(before, frag), {}, before, frag};
  }
  if (request.shared()) return fragmentation_detail::best_shared_card(node, request, tasks, access, before);
  return fragmentation_detail::best_multi_card(node, request, tasks, access, before);
}

inline std::optional<FragPlacement> best_fragmentation_placement(const NodeGpuFree& node, const GpuRequest& request,
                                                                 const TaskDistribution& tasks,
                                                                 const std::vector<uint8_t>& access) {
  return best_fragmentation_placement(node, request, tasks, access, node_fragmentation(node, tasks, access));
}

}  // namespace troupe::plugins::deviceshare
