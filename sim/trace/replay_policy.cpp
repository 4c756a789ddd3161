#include "sim/trace/replay_policy.hpp"

#include <algorithm>
#include <utility>

namespace troupe::sim::trace {

namespace {

// The simulator's normalisers (pkg/type/open-gpu-share/utils/const.go).
constexpr double kMaxSpecCpu = 128000;
constexpr double kMaxSpecGpu = 8000;

constexpr std::pair<ReplayPolicy, std::string_view> kNames[] = {
    {ReplayPolicy::random, "random"},
    {ReplayPolicy::best_fit, "best-fit"},
    {ReplayPolicy::packing, "packing"},
    {ReplayPolicy::most_allocated, "most-allocated"},
    {ReplayPolicy::least_allocated, "least-allocated"},
    {ReplayPolicy::fgd, "fgd"},
    {ReplayPolicy::fragmentation, "fragmentation"},
    {ReplayPolicy::fragmentation_learned, "fragmentation-learned"},
};

bool model_allowed(const SimNode& node, const TracePod& pod) {
  if (pod.gpu_spec.empty()) return true;
  if (node.model.empty()) return false;
  return std::find(pod.gpu_spec.begin(), pod.gpu_spec.end(), node.model) != pod.gpu_spec.end();
}

int32_t cards_with_at_least(const SimNode& node, int32_t milli) {
  int32_t n = 0;
  for (int32_t f : node.card_free) n += f >= milli ? 1 : 0;
  return n;
}

// Card indices by free milli ascending, stable by index.
std::vector<int32_t> ascending_cards(const SimNode& node) {
  std::vector<int32_t> order(node.card_free.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int32_t>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return node.card_free[a] < node.card_free[b]; });
  return order;
}

// Kubernetes' allocation scores: per resource in integers, then averaged.
int64_t allocation_score(const SimNode& node, const TracePod& pod, bool most) {
  const int64_t cpu_used = node.cpu_capacity - node.cpu_free + pod.cpu_milli;
  const int64_t gpu_used = node.gpu_capacity() - node.gpu_free() + pod.total_gpu_milli();
  auto one = [most](int64_t used, int64_t capacity) -> int64_t {
    if (capacity <= 0) return 0;
    used = std::min(used, capacity);
    return most ? used * 100 / capacity : (capacity - used) * 100 / capacity;
  };
  return (one(cpu_used, node.cpu_capacity) + one(gpu_used, node.gpu_capacity())) / 2;
}

}  // namespace

std::string_view policy_name(ReplayPolicy policy) {
  for (const auto& [p, name] : kNames)
    if (p == policy) return name;
  return "unknown";
}

Result<ReplayPolicy> parse_policy(std::string_view name) {
  if (name == "spreading") return ReplayPolicy::least_allocated;
  std::string known;
  for (const auto& [p, n] : kNames) {
    if (n == name) return p;
    known += (known.empty() ? "" : ", ") + std::string(n);
  }
  return Error{"unknown policy '" + std::string(name) + "' (known: " + known + ", spreading)"};
}

const std::vector<ReplayPolicy>& all_policies() {
  static const std::vector<ReplayPolicy> policies = [] {
    std::vector<ReplayPolicy> out;
    for (const auto& [p, name] : kNames) out.push_back(p);
    return out;
  }();
  return policies;
}

bool fits(const SimNode& node, const TracePod& pod, int64_t max_pods) {
  if (node.pods + 1 > max_pods) return false;
  if (node.cpu_free < pod.cpu_milli || node.memory_free_mib < pod.memory_mib) return false;
  if (pod.gpu_milli == 0) return true;
  if (node.card_free.empty() || !model_allowed(node, pod)) return false;
  return cards_with_at_least(node, pod.gpu_milli) >= pod.num_gpu;
}

int64_t best_fit_score(const SimNode& node, const TracePod& pod) {
  double left = 0;
  left += 0.5 * static_cast<double>(node.cpu_free - pod.cpu_milli) / kMaxSpecCpu;
  left += 0.5 * static_cast<double>(node.gpu_free() - pod.total_gpu_milli()) / kMaxSpecGpu;
  return static_cast<int64_t>((1 - left) * 100);
}

int64_t packing_score(const SimNode& node, const TracePod& pod) {
  if (pod.cpu_only()) return 0;
  const int32_t cards = static_cast<int32_t>(node.card_free.size());
  const int32_t fully_free = cards_with_at_least(node, 1000);
  if (fully_free == cards) return std::max(33 - fully_free, fully_free);
  int32_t picked = 0, picked_fully_free = 0;
  int64_t percent_sum = 0;
  for (int32_t card : ascending_cards(node)) {
    if (picked == pod.num_gpu) break;
    const int32_t free = node.card_free[card];
    if (free < pod.gpu_milli) continue;
    ++picked;
    picked_fully_free += free == 1000 ? 1 : 0;
    percent_sum += static_cast<int64_t>(free) * 100 / 1000;
  }
  // Cards already in use are preferred: a placement that needs a fresh card
  // scores at most 50, one on used cards at least 50.
  if (picked_fully_free > 0) return std::max<int64_t>(50 - picked_fully_free, 33);
  return std::max<int64_t>(100 - percent_sum / 10, 50);
}

int64_t most_allocated_score(const SimNode& node, const TracePod& pod) { return allocation_score(node, pod, true); }
int64_t least_allocated_score(const SimNode& node, const TracePod& pod) { return allocation_score(node, pod, false); }

std::vector<int32_t> pick_cards(const SimNode& node, const TracePod& pod, bool tightest) {
  std::vector<int32_t> cards;
  if (pod.cpu_only()) return cards;
  if (!pod.shares_gpu()) {
    for (size_t i = 0; i < node.card_free.size() && static_cast<int32_t>(cards.size()) < pod.num_gpu; ++i)
      if (node.card_free[i] >= pod.gpu_milli) cards.push_back(static_cast<int32_t>(i));
    return cards;
  }
  int32_t best = -1;
  for (size_t i = 0; i < node.card_free.size(); ++i) {
    const int32_t free = node.card_free[i];
    if (free < pod.gpu_milli) continue;
    if (best < 0 || (tightest ? free < node.card_free[best] : free > node.card_free[best])) best = static_cast<int32_t>(i);
  }
  if (best >= 0) cards.push_back(best);
  return cards;
}

}  // namespace troupe::sim::trace
