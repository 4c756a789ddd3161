#pragma once
// A node's memo of Fragmentation scores. Scoring a pod evaluates the
// measure once per fitting card on every feasible node, but between two
// pods only the node that took the last one changed: most nodes see the
// same state again, with a request shape they have often seen before (a
// trace repeats its pods' shapes). So the memo holds the decisions of one
// node state, per request shape, and the state's measure before placement
// (which every new shape starts from), and starts over when the state differs.
//
// The state key is everything the policy score reads of the node - its free
// CPU, memory and per-card milli, the card model (as a hash), the args it
// was scored under and the task distribution (a learned snapshot's id, which
// is never reused) - and the request key is the whole request, so an entry
// can never be stale. It also keeps the node's class access vector (which
// task classes may use its card model) per args and distribution, so a miss
// computes nothing twice. NodeDevices clears it when its Device or Node changes.
//
// Not thread-safe: a node is scored by the one actor that owns it.

#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "plugins/deviceshare/fragmentation.hpp"

namespace troupe::plugins::deviceshare {

/// What the policy score reads of a node.
struct FragmentationStateKey {
  static constexpr size_t kMaxCards = 16;
  uint64_t args_id = 0;   // FragmentationArgs::id scored under
  uint64_t distribution_id = 0;  // ScoringTasks::id: 0 = the args' own, else a learned snapshot
  size_t model_hash = 0;  // std::hash of the card model
  int64_t cpu_free_milli = 0;
  int64_t memory_free_mib = 0;
  uint32_t cards = 0;
  std::array<int32_t, kMaxCards> card_free{};

  /// nullopt for a node with more cards than the key holds (not memoised).
  static std::optional<FragmentationStateKey> of(uint64_t args_id, uint64_t distribution_id, size_t model_hash,
                                                 const NodeGpuFree& node) {
    if (node.card_free_milli.size() > kMaxCards) return std::nullopt;
    FragmentationStateKey key;
    key.args_id = args_id;
    key.distribution_id = distribution_id;
    key.model_hash = model_hash;
    key.cpu_free_milli = node.cpu_free_milli;
    key.memory_free_mib = node.memory_free_mib;
    key.cards = static_cast<uint32_t>(node.card_free_milli.size());
    for (size_t i = 0; i < node.card_free_milli.size(); ++i) key.card_free[i] = node.card_free_milli[i];
    return key;
  }

  friend bool operator==(const FragmentationStateKey& a, const FragmentationStateKey& b) {
    return a.args_id == b.args_id && a.distribution_id == b.distribution_id && a.model_hash == b.model_hash &&
           a.cpu_free_milli == b.cpu_free_milli && a.memory_free_mib == b.memory_free_mib && a.cards == b.cards &&
           a.card_free == b.card_free;
  }
  friend bool operator!=(const FragmentationStateKey& a, const FragmentationStateKey& b) { return !(a == b); }
};

/// What a score decided: the policy score (0..100, -1 = the request does not
/// fit the cards), the first chosen card (-1 = none), and whether the node has cards.
struct FragmentationDecision {
  int64_t policy_score = -1;
  int32_t first_card = -1;
  bool has_cards = false;  // the node has a healthy GPU card
};

class FragmentationScoreCache {
 public:
  /// The decision for `request` on a node in `state`, if this state saw it.
  std::optional<FragmentationDecision> find(const FragmentationStateKey& state, const GpuRequest& request) const {
    if (!has_state_ || state != state_) return std::nullopt;
    auto it = decisions_.find(RequestKey::of(request));
    if (it == decisions_.end()) return std::nullopt;
    return it->second;
  }

  /// Records a decision; a new state drops the old state's decisions.
  void store(const FragmentationStateKey& state, const GpuRequest& request, const FragmentationDecision& decision) {
    enter(state);
    if (decisions_.size() >= kMaxDecisions) decisions_.clear();
    decisions_[RequestKey::of(request)] = decision;
  }

  /// The node's measure in `state` before any placement, if this state saw it:
  /// every request scored on the state starts from it.
  std::optional<double> before(const FragmentationStateKey& state) const {
    if (!has_state_ || state != state_) return std::nullopt;
    return before_;
  }
  void store_before(const FragmentationStateKey& state, double before) {
    enter(state);
    before_ = before;
  }

  /// TaskDistribution::access_for_model for the node's card model under
  /// the args `args_id` and distribution `distribution_id` (which together
  /// name `tasks`), computed once per (args, distribution, model).
  const std::vector<uint8_t>& access(uint64_t args_id, uint64_t distribution_id, const TaskDistribution& tasks,
                                     std::string_view model) {
    const std::pair<uint64_t, uint64_t> of{args_id, distribution_id};
    if (!access_of_ || *access_of_ != of) {
      access_ = tasks.access_for_model(model);
      access_of_ = of;
    }
    return access_;
  }

  size_t size() const { return decisions_.size(); }

  void clear() {
    has_state_ = false;
    decisions_.clear();
    before_.reset();
    access_of_.reset();
    access_.clear();
  }

 private:
  // Makes `state` the memo's state; a different one forgets what the old one knew.
  void enter(const FragmentationStateKey& state) {
    if (has_state_ && state == state_) return;
    decisions_.clear();
    before_.reset();
    state_ = state;
    has_state_ = true;
  }

  // Bounds a node's memo (a state that lives long sees many shapes).
  static constexpr size_t kMaxDecisions = 2048;

  struct RequestKey {
    int64_t cpu_milli = 0;
    int64_t memory_mib = 0;
    int32_t gpu_milli = 0;
    int32_t gpu_count = 0;
    static RequestKey of(const GpuRequest& r) { return RequestKey{r.cpu_milli, r.memory_mib, r.gpu_milli, r.gpu_count}; }
    friend bool operator==(const RequestKey& a, const RequestKey& b) {
      return a.cpu_milli == b.cpu_milli && a.memory_mib == b.memory_mib && a.gpu_milli == b.gpu_milli &&
             a.gpu_count == b.gpu_count;
    }
  };
  struct RequestHash {
    size_t operator()(const RequestKey& k) const {
      uint64_t h = static_cast<uint64_t>(k.cpu_milli) * 0x9e3779b97f4a7c15ULL;
      h ^= static_cast<uint64_t>(k.memory_mib) + 0x7f4a7c159e3779b9ULL + (h << 6) + (h >> 2);
      h ^= (static_cast<uint64_t>(static_cast<uint32_t>(k.gpu_milli)) << 32 | static_cast<uint32_t>(k.gpu_count)) +
           0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
      return static_cast<size_t>(h);
    }
  };

  bool has_state_ = false;
  FragmentationStateKey state_;
  std::unordered_map<RequestKey, FragmentationDecision, RequestHash> decisions_;
  std::optional<double> before_;  // of state_
  std::optional<std::pair<uint64_t, uint64_t>> access_of_;  // (args id, distribution id)
  std::vector<uint8_t> access_;
};

}  // namespace troupe::plugins::deviceshare
