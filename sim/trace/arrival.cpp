#include "sim/trace/arrival.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/trace/trace_rng.hpp"

namespace troupe::sim::trace {

namespace {

// Draws the simulator's informers consume before the node permutation.
constexpr int kDiscardedBeforeNodePermutation = 10;

std::vector<TracePod> sorted_by_name(const std::vector<TracePod>& pods) {
  std::vector<TracePod> sorted = pods;
  std::sort(sorted.begin(), sorted.end(), [](const TracePod& a, const TracePod& b) { return a.name < b.name; });
  return sorted;
}

int64_t total_gpu_milli(const std::vector<TracePod>& pods) {
  int64_t total = 0;
  for (const auto& pod : pods) total += pod.total_gpu_milli();
  return total;
}

void inflate(Arrival& arrival, const std::vector<TracePod>& pool, TraceRng& rng) {
  const bool has_gpu_pod = std::any_of(pool.begin(), pool.end(), [](const TracePod& p) { return !p.cpu_only(); });
  if (!has_gpu_pod) return;
  for (size_t i = 0;; ++i) {
    TracePod clone = pool[rng.below(pool.size())];
    // The simulator tests the per-GPU milli, not the pod's total, against the target.
    if (arrival.total_gpu_milli + clone.gpu_milli > arrival.target_gpu_milli) return;
    arrival.total_gpu_milli += clone.total_gpu_milli();
    clone.name += "-tuned-" + std::to_string(i);
    arrival.pods.push_back(std::move(clone));
  }
}

void thin(Arrival& arrival, TraceRng& rng) {
  while (arrival.total_gpu_milli > arrival.target_gpu_milli) {
    const size_t k = rng.below(arrival.pods.size());
    arrival.total_gpu_milli -= arrival.pods[k].total_gpu_milli();
    arrival.pods.erase(arrival.pods.begin() + static_cast<std::ptrdiff_t>(k));
  }
  arrival.original_count = arrival.pods.size();
}

std::vector<uint32_t> node_ranks(const std::vector<TraceNode>& nodes, TraceRng& rng) {
  std::vector<size_t> by_name(nodes.size());
  std::iota(by_name.begin(), by_name.end(), 0);
  std::sort(by_name.begin(), by_name.end(), [&](size_t a, size_t b) { return nodes[a].name < nodes[b].name; });
  const std::vector<uint32_t> perm = rng.permutation(nodes.size());
  std::vector<uint32_t> rank(nodes.size());
  for (size_t i = 0; i < by_name.size(); ++i) rank[by_name[i]] = perm[i];
  return rank;
}

}  // namespace

Result<Arrival> build_arrival(const std::vector<TracePod>& trace, const std::vector<TraceNode>& nodes, uint64_t seed,
                              double tune_ratio) {
  if (trace.empty()) return Error{"arrival: the trace has no pods"};
  if (nodes.empty()) return Error{"arrival: the cluster has no nodes"};
  if (!(tune_ratio > 0) || !std::isfinite(tune_ratio))
    return Error{"arrival: tune ratio must be a number > 0, got " + std::to_string(tune_ratio)};
  const std::vector<TracePod> pool = sorted_by_name(trace);
  for (size_t i = 1; i < pool.size(); ++i)
    if (pool[i].name == pool[i - 1].name) return Error{"arrival: repeated pod name '" + pool[i].name + "'"};

  TraceRng rng(seed);
  rng.next();  // the simulator's debug-log argument
  Arrival arrival;
  arrival.pods = pool;
  rng.shuffle(arrival.pods);
  arrival.original_count = arrival.pods.size();
  arrival.total_gpu_milli = total_gpu_milli(arrival.pods);
  arrival.target_gpu_milli = static_cast<int64_t>(tune_ratio * static_cast<double>(cluster_gpu_milli(nodes)));
  if (arrival.total_gpu_milli < arrival.target_gpu_milli)
    inflate(arrival, pool, rng);
  else
    thin(arrival, rng);
  for (int i = 0; i < kDiscardedBeforeNodePermutation; ++i) rng.next();
  arrival.node_rank = node_ranks(nodes, rng);
  return arrival;
}

}  // namespace troupe::sim::trace
