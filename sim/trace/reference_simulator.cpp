#include "sim/trace/reference_simulator.hpp"

#include <map>
#include <tuple>

#include "plugins/deviceshare/fragmentation.hpp"
#include "plugins/deviceshare/fragmentation_policy.hpp"
#include "plugins/deviceshare/task_learner.hpp"
#include "sim/trace/trace_rng.hpp"
#include "sim/trace/typical_tasks.hpp"

namespace troupe::sim::trace {

namespace ds = plugins::deviceshare;

namespace {

// Distinguishes the stream of the Random policy's draws from the arrival's.
constexpr uint64_t kPolicyStreamSalt = 0x9e3779b97f4a7c15ULL;

ds::NodeGpuFree gpu_free_view(const SimNode& node) {
  return ds::NodeGpuFree{node.cpu_free, node.card_free, node.memory_free_mib};
}

ds::GpuRequest gpu_request(const TracePod& pod) {
  return ds::GpuRequest{pod.cpu_milli, pod.gpu_milli, pod.num_gpu, pod.memory_mib};
}

// FGD scores depend on the node's state and the pod's (cpu, milli, count,
// memory) only, so they are kept per node and pod shape until the node
// changes. spread_weight 0 is the published FGD score; troupe's Fragmentation
// policy scores with its own distribution and spread term.
class FgdScores {
 public:
  FgdScores(const ds::TaskDistribution& tasks, const std::vector<SimNode>& nodes, double spread_weight)
      : tasks_(tasks), spread_weight_(spread_weight), cache_(nodes.size()) {
    for (const auto& node : nodes) access_.push_back(tasks.access_for_model(node.model));
  }

  int64_t score(size_t node_index, const SimNode& node, uint32_t version, const TracePod& pod) {
    const uint32_t shape = shape_id(pod);
    auto& per_node = cache_[node_index];
    if (per_node.size() <= shape) per_node.resize(shape + 1);
    Entry& entry = per_node[shape];
    if (entry.version != version + 1) {
      const ds::NodeGpuFree view = gpu_free_view(node);
      const ds::GpuRequest request = gpu_request(pod);
      auto placement = ds::best_fragmentation_placement(view, request, tasks_, access_[node_index]);
      entry.score = !placement ? -1 : ds::fragmentation_policy_score(*placement, view, request, spread_weight_);
      entry.version = version + 1;
    }
    return entry.score;
  }

  std::vector<int32_t> cards(size_t node_index, const SimNode& node, const TracePod& pod) const {
    auto placement = ds::best_fragmentation_placement(gpu_free_view(node), gpu_request(pod), tasks_, access_[node_index]);
    return placement ? placement->cards : std::vector<int32_t>{};
  }

 private:
  struct Entry {
    uint32_t version = 0;  // node version + 1; 0 = never computed
    int64_t score = 0;
  };

  uint32_t shape_id(const TracePod& pod) {
    auto key = std::make_tuple(pod.cpu_milli, pod.gpu_milli, pod.num_gpu, pod.memory_mib);
    auto [it, inserted] = shapes_.emplace(key, static_cast<uint32_t>(shapes_.size()));
    return it->second;
  }

  const ds::TaskDistribution& tasks_;
  double spread_weight_ = 0;
  std::vector<std::vector<uint8_t>> access_;
  std::map<std::tuple<int64_t, int32_t, int32_t, int64_t>, uint32_t> shapes_;
  std::vector<std::vector<Entry>> cache_;
};

class Simulation {
 public:
  /// `tasks` is the method's distribution (the fragmentation metric and the
  /// FGD policy); `scoring_tasks` the Fragmentation policy's.
  Simulation(const std::vector<TraceNode>& nodes, const Arrival& arrival, const ds::TaskDistribution& tasks,
             const ds::TaskDistribution& scoring_tasks, const ReplayOptions& options)
      : options_(options), tasks_(tasks), rng_(options.seed ^ kPolicyStreamSalt) {
    for (size_t i = 0; i < nodes.size(); ++i) {
      SimNode node;
      node.cpu_capacity = node.cpu_free = nodes[i].cpu_milli;
      node.memory_free_mib = nodes[i].memory_mib;
      node.card_free.assign(static_cast<size_t>(nodes[i].gpu_count), 1000);
      node.model = nodes[i].model;
      // The Fragmentation policy breaks ties as the plugin does (a seeded hash
      // of the name), so troupe replay can match it placement for placement.
      node.rank = fragmentation_aware(options.policy) ? ds::tie_break_rank(nodes[i].name, options.seed)
                                                       : arrival.node_rank[i];
      nodes_.push_back(std::move(node));
      access_.push_back(tasks.access_for_model(nodes[i].model));
      fragmentation_.push_back(ds::node_fragmentation(gpu_free_view(nodes_.back()), tasks_, access_.back()));
      total_fragmentation_ += fragmentation_.back();
      idle_ += nodes_.back().gpu_capacity();
    }
    versions_.assign(nodes_.size(), 0);
    if (options.policy == ReplayPolicy::fgd) fgd_.emplace(tasks_, nodes_, 0.0);
    if (options.policy == ReplayPolicy::fragmentation) fgd_.emplace(scoring_tasks, nodes_, ds::kDefaultSpreadWeight);
    if (options.policy == ReplayPolicy::fragmentation_learned) learner_.emplace(ds::kDefaultCardWasteWeight);
  }

  ReplayEvent attempt(const TracePod& pod) {
    arrived_ += pod.total_gpu_milli();
    if (learner_) learn(pod);
    feasible_.clear();
    for (size_t i = 0; i < nodes_.size(); ++i)
      if (fits(nodes_[i], pod, options_.max_pods_per_node)) feasible_.push_back(i);
    bool placed = false;
    if (!feasible_.empty()) {
      const size_t chosen = feasible_.size() == 1 ? feasible_[0] : choose(pod);
      commit(chosen, pod);
      placed = true;
    }
    return ReplayEvent{arrived_, allocated_, total_fragmentation_, idle_, placed};
  }

 private:
  static bool fragmentation_aware(ReplayPolicy policy) {
    return policy == ReplayPolicy::fragmentation || policy == ReplayPolicy::fragmentation_learned;
  }

  // As the scheduler's cycle does (actors/task_learning.hpp): the pod is
  // counted at its attempt, then scored with the learner's current snapshot;
  // the score cache starts over with each new snapshot.
  void learn(const TracePod& pod) {
    learner_->observe(observed_task(pod));
    const auto& snapshot = learner_->snapshot();
    if (!snapshot || snapshot == learned_) return;
    learned_ = snapshot;
    fgd_.emplace(learned_->tasks, nodes_, ds::kDefaultSpreadWeight);
  }

  int64_t score(size_t i, const TracePod& pod) {
    const SimNode& node = nodes_[i];
    switch (options_.policy) {
      case ReplayPolicy::best_fit: return best_fit_score(node, pod);
      case ReplayPolicy::packing: return packing_score(node, pod);
      case ReplayPolicy::most_allocated: return most_allocated_score(node, pod);
      case ReplayPolicy::least_allocated: return least_allocated_score(node, pod);
      case ReplayPolicy::fgd:
      case ReplayPolicy::fragmentation:
      case ReplayPolicy::fragmentation_learned: return fgd_->score(i, node, versions_[i], pod);
      case ReplayPolicy::random: return 0;
    }
    return 0;
  }

  size_t choose(const TracePod& pod) {
    if (options_.policy == ReplayPolicy::random) return feasible_[rng_.below(feasible_.size())];
    size_t best = feasible_[0];
    int64_t best_score = score(best, pod);
    for (size_t j = 1; j < feasible_.size(); ++j) {
      const size_t i = feasible_[j];
      const int64_t s = score(i, pod);
      if (s > best_score || (s == best_score && nodes_[i].rank < nodes_[best].rank)) {
        best = i;
        best_score = s;
      }
    }
    return best;
  }

  std::vector<int32_t> cards_for(size_t i, const TracePod& pod) {
    const SimNode& node = nodes_[i];
    switch (options_.policy) {
      case ReplayPolicy::fgd:
      case ReplayPolicy::fragmentation:
      case ReplayPolicy::fragmentation_learned: return fgd_->cards(i, node, pod);
      case ReplayPolicy::least_allocated: return pick_cards(node, pod, /*tightest=*/false);
      case ReplayPolicy::random: return random_cards(node, pod);
      default: return pick_cards(node, pod, /*tightest=*/true);
    }
  }

  std::vector<int32_t> random_cards(const SimNode& node, const TracePod& pod) {
    if (!pod.shares_gpu()) return pick_cards(node, pod, true);
    std::vector<int32_t> fitting;
    for (size_t c = 0; c < node.card_free.size(); ++c)
      if (node.card_free[c] >= pod.gpu_milli) fitting.push_back(static_cast<int32_t>(c));
    return {fitting[rng_.below(fitting.size())]};
  }

  void commit(size_t i, const TracePod& pod) {
    const std::vector<int32_t> cards = cards_for(i, pod);
    SimNode& node = nodes_[i];
    for (int32_t c : cards) node.card_free[static_cast<size_t>(c)] -= pod.gpu_milli;
    const int64_t gpu = static_cast<int64_t>(cards.size()) * pod.gpu_milli;
    allocated_ += gpu;
    idle_ -= gpu;
    node.cpu_free -= pod.cpu_milli;
    node.memory_free_mib -= pod.memory_mib;
    node.pods += 1;
    ++versions_[i];
    const double fragmentation = ds::node_fragmentation(gpu_free_view(node), tasks_, access_[i]);
    total_fragmentation_ += fragmentation - fragmentation_[i];
    fragmentation_[i] = fragmentation;
  }

  const ReplayOptions& options_;
  const ds::TaskDistribution& tasks_;
  TraceRng rng_;
  std::vector<SimNode> nodes_;
  std::vector<std::vector<uint8_t>> access_;
  std::vector<uint32_t> versions_;
  std::vector<double> fragmentation_;
  std::optional<FgdScores> fgd_;
  std::optional<ds::TaskLearner> learner_;         // fragmentation_learned only
  std::shared_ptr<const ds::LearnedTasks> learned_;  // the snapshot fgd_ scores with
  std::vector<size_t> feasible_;
  int64_t arrived_ = 0, allocated_ = 0, idle_ = 0;
  double total_fragmentation_ = 0;
};

}  // namespace

std::optional<double> ReplayResult::allocation_at(int arrived_percent) const {
  if (arrived_percent < 0 || arrived_percent >= static_cast<int>(curves.allocation.size())) return std::nullopt;
  return curves.allocation[static_cast<size_t>(arrived_percent)];
}

Result<ReplayResult> run_reference_replay(const std::vector<TraceNode>& nodes, const std::vector<TracePod>& trace,
                                          const ReplayOptions& options) {
  for (const auto& node : nodes)
    if (node.gpu_count <= 0) return Error{"reference replay: node " + node.name + " has no GPU (use GPU nodes only)"};
  if (options.max_pods_per_node < 1) return Error{"reference replay: max pods per node must be >= 1"};
  auto arrival = build_arrival(trace, nodes, options.seed, options.tune_ratio);
  if (!arrival) return arrival.error();
  auto tasks = typical_tasks(trace);
  if (!tasks) return tasks.error();
  auto scoring_tasks = fragmentation_tasks(trace);
  if (!scoring_tasks) return scoring_tasks.error();

  Simulation simulation(nodes, *arrival, *tasks, *scoring_tasks, options);
  ReplayResult result;
  result.cluster_gpu_milli = cluster_gpu_milli(nodes);
  result.events.reserve(arrival->pods.size());
  for (const auto& pod : arrival->pods) {
    result.events.push_back(simulation.attempt(pod));
    if (!result.events.back().placed) ++result.failed;
  }
  result.curves = replay_curves(result.events, result.cluster_gpu_milli);
  return result;
}

}  // namespace troupe::sim::trace
