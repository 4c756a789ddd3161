#pragma once
// GPU defragmentation (troupe's own, beyond Koordinator): when pods that
// need whole GPUs fit on no node because shared-GPU pods (gpu-core /
// gpu-memory shares) are spread over the cards, pick shared pods to
// migrate so that whole cards free up.
//
// For each pending pod needing N whole cards (in the given order), when
// no node has N free healthy cards: every node with at least N healthy
// cards proposes the N cards whose shared users are cheapest to move
// (fewest distinct pods, then least memory, greedy), provided every
// displaced pod may migrate (the caller's filter), fits on a card of
// another node (best fit by free memory, in the plan's running
// accounting) and the migration limits hold. The node needing the fewest
// migrations wins (ties: less memory moved, then node name). Freed cards
// are reserved for that pending pod; cards that are already free count
// zero. Pending pods that fit somewhere as things are reserve those cards.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/pod.hpp"

namespace troupe::plugins::descheduler {

/// One shared pod's share of one card.
struct GpuShare {
  std::shared_ptr<const Pod> pod;
  int64_t core = 0;    // gpu-core percent of the card
  int64_t memory = 0;  // gpu-memory bytes
};

struct GpuCard {
  int32_t minor = 0;
  bool healthy = true;
  int64_t core_total = 100;
  int64_t memory_total = 0;
  /// Whole-card pods and shared pods alike; a card is free when empty.
  std::vector<GpuShare> users;

  int64_t core_used() const;
  int64_t memory_used() const;
  bool free() const { return healthy && users.empty(); }
};

struct GpuNode {
  std::string name;
  std::vector<GpuCard> cards;
};

struct PendingGpuPod {
  std::shared_ptr<const Pod> pod;
  int32_t whole_cards = 1;
};

struct GpuDefragArgs {
  /// Per plan; nullopt = unlimited.
  std::optional<int32_t> max_migrations_total;
  std::optional<int32_t> max_migrations_per_node;
  /// nullopt when the pod may migrate, else why not (evictor/arbiter rules).
  std::function<std::optional<std::string>(const Pod&)> migration_refusal;
};

struct GpuMove {
  std::shared_ptr<const Pod> pod;
  std::string from_node;
  std::string to_node;
  int32_t to_minor = 0;
};

struct FreedCards {
  std::shared_ptr<const Pod> for_pod;  // the pending pod they are freed for
  std::string node;
  std::vector<int32_t> minors;
  std::vector<GpuMove> moves;          // the migrations that free them
};

struct GpuDefragPlan {
  std::vector<FreedCards> freed;
  /// Every migration, in order (the union of freed[].moves).
  std::vector<GpuMove> migrations;
  /// Pending pods that fit without migrations.
  std::vector<std::shared_ptr<const Pod>> already_fit;
  /// Pending pods no plan could serve, with the reason.
  std::vector<std::pair<std::shared_ptr<const Pod>, std::string>> unserved;
};

GpuDefragPlan plan_gpu_defrag(const std::vector<GpuNode>& nodes, const std::vector<PendingGpuPod>& pending,
                              const GpuDefragArgs& args);

}  // namespace troupe::plugins::descheduler
