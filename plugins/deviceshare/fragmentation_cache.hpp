#pragma once
// A node's memo of Fragmentation scores. Scoring a pod evaluates the
// measure once per fitting card on every feasible node, but between two
// pods only the node that took the last one changed: most nodes see the same
// (state, request shape) again. The key is the whole input of the policy
// score - the node's free CPU, memory and per-card milli, the request's
// shape and the args it was scored under - so an entry can never be stale;
// the card model enters as a hash (a Device update clears the memo too).
//
// Not thread-safe: a node is scored by the one actor that owns it.

#include <array>
#include <cstdint>
#include <optional>

#include "plugins/deviceshare/fragmentation.hpp"

namespace troupe::plugins::deviceshare {

struct FragmentationScoreKey {
  static constexpr size_t kMaxCards = 16;
  uint64_t args_id = 0;        // FragmentationArgs::id scored under
  size_t model_hash = 0;       // std::hash of the card model
  GpuRequest request;
  int64_t cpu_free_milli = 0;
  int64_t memory_free_mib = 0;
  uint32_t cards = 0;
  std::array<int32_t, kMaxCards> card_free{};

  /// nullopt for a node with more cards than the key holds (not memoised).
  static std::optional<FragmentationScoreKey> of(uint64_t args_id, size_t model_hash, const GpuRequest& request,
                                                 const NodeGpuFree& node) {
    if (node.card_free_milli.size() > kMaxCards) return std::nullopt;
    FragmentationScoreKey key;
    key.args_id = args_id;
    key.model_hash = model_hash;
    key.request = request;
    key.cpu_free_milli = node.cpu_free_milli;
    key.memory_free_mib = node.memory_free_mib;
    key.cards = static_cast<uint32_t>(node.card_free_milli.size());
    for (size_t i = 0; i < node.card_free_milli.size(); ++i) key.card_free[i] = node.card_free_milli[i];
    return key;
  }

  friend bool operator==(const FragmentationScoreKey& a, const FragmentationScoreKey& b) {
    return a.args_id == b.args_id && a.model_hash == b.model_hash && a.request.cpu_milli == b.request.cpu_milli &&
           a.request.gpu_milli == b.request.gpu_milli && a.request.gpu_count == b.request.gpu_count &&
           a.request.memory_mib == b.request.memory_mib && a.cpu_free_milli == b.cpu_free_milli &&
           a.memory_free_mib == b.memory_free_mib && a.cards == b.cards && a.card_free == b.card_free;
  }
};

/// What a score decided: the policy score (0..100, -1 = the request does not
/// fit the cards) and the first chosen card (-1 = none).
struct FragmentationDecision {
  int64_t policy_score = -1;
  int32_t first_card = -1;
};

class FragmentationScoreCache {
 public:
  std::optional<FragmentationDecision> find(const FragmentationScoreKey& key) const {
    for (const auto& e : entries_)
      if (e.used && e.key == key) return e.decision;
    return std::nullopt;
  }
  /// Replaces the oldest entry.
  void store(const FragmentationScoreKey& key, const FragmentationDecision& decision) {
    entries_[next_] = Entry{true, key, decision};
    next_ = (next_ + 1) % kEntries;
  }
  void clear() { entries_ = {}; }

 private:
  // Enough for the common task shapes of a trace (the FGD traces' top 35
  // shapes cover 95% of pods) without growing per node.
  static constexpr size_t kEntries = 16;
  struct Entry {
    bool used = false;
    FragmentationScoreKey key;
    FragmentationDecision decision;
  };
  std::array<Entry, kEntries> entries_{};
  size_t next_ = 0;
};

}  // namespace troupe::plugins::deviceshare
