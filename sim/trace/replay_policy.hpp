#pragma once
// Placement policies of the reference simulator and their node scores, on
// the plain per-node state the simulator keeps (fgd-method.md §4-§6).
// Scores are integers 0..100; the simulator takes the maximum and breaks ties
// by the node's rank.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.hpp"
#include "sim/trace/openb_trace.hpp"

namespace troupe::sim::trace {

enum class ReplayPolicy {
  random,           // uniform random feasible node and card
  best_fit,         // the method's BestFit: least CPU+GPU left after placement
  packing,          // the method's GpuPacking: fill partly used cards, then nodes with used cards
  most_allocated,   // Koordinator MostAllocated (binpack) on CPU and GPU, tightest card
  least_allocated,  // Koordinator LeastAllocated (spreading) on CPU and GPU, emptiest card
  fgd,              // fragmentation gradient descent
  fragmentation,    // troupe's Fragmentation strategy (plugins/deviceshare/fragmentation_policy.hpp)
  fragmentation_learned,  // the same with the distribution learned online (plugins/deviceshare/task_learner.hpp)
};

std::string_view policy_name(ReplayPolicy policy);
/// Accepts the names policy_name gives ("best-fit", "fgd", ...) and "spreading"
/// for least-allocated; the error lists the names.
Result<ReplayPolicy> parse_policy(std::string_view name);
const std::vector<ReplayPolicy>& all_policies();

/// One node as the simulator tracks it.
struct SimNode {
  int64_t cpu_capacity = 0;
  int64_t cpu_free = 0;
  int64_t memory_free_mib = 0;
  int32_t pods = 0;
  std::vector<int32_t> card_free;  // milli per card, index = minor
  std::string model;
  uint32_t rank = 0;  // tie-break: smaller wins

  int64_t gpu_capacity() const { return 1000 * static_cast<int64_t>(card_free.size()); }
  int64_t gpu_free() const {
    int64_t total = 0;
    for (int32_t f : card_free) total += f;
    return total;
  }
};

/// The method's filter (§4.1): pod slots, CPU, memory, and for GPU pods the
/// model and enough cards with enough free milli.
bool fits(const SimNode& node, const TracePod& pod, int64_t max_pods);

/// Scores of the deterministic non-FGD policies (FGD lives in
/// plugins/deviceshare/fragmentation.hpp). `pod` fits `node`.
int64_t best_fit_score(const SimNode& node, const TracePod& pod);
int64_t packing_score(const SimNode& node, const TracePod& pod);
int64_t most_allocated_score(const SimNode& node, const TracePod& pod);
int64_t least_allocated_score(const SimNode& node, const TracePod& pod);

/// Cards for a pod that fits: whole-GPU pods take the lowest-index fully free
/// cards; a shared pod takes the tightest card that fits (`tightest`, lowest
/// index on ties) or the emptiest (spreading). Empty for CPU-only pods.
std::vector<int32_t> pick_cards(const SimNode& node, const TracePod& pod, bool tightest);

}  // namespace troupe::sim::trace
