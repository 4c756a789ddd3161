#include "plugins/descheduler/gpu_defrag.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace troupe::plugins::descheduler {

int64_t GpuCard::core_used() const {
  int64_t used = 0;
  for (const GpuShare& share : users) used += share.core;
  return used;
}

int64_t GpuCard::memory_used() const {
  int64_t used = 0;
  for (const GpuShare& share : users) used += share.memory;
  return used;
}

namespace {

using PodPtr = std::shared_ptr<const Pod>;

/// The plan's running view of the cluster: cards change as pods move and
/// cards are reserved.
struct Cluster {
  std::vector<GpuNode> nodes;
  std::set<std::pair<size_t, size_t>> reserved;  // (node, card) set aside for a pending pod
  /// Pods the plan moves already: their shares on a target card are where they
  /// will be, not where they run, so they cannot be moved again.
  std::set<const Pod*> moving;
  std::map<size_t, int32_t> moves_from;  // migrations the plan takes from each node

  bool usable_free(size_t n, size_t c) const { return nodes[n].cards[c].free() && !reserved.count({n, c}); }
};

struct Proposal {
  size_t node = 0;
  std::vector<size_t> cards;
  std::vector<GpuMove> moves;
  std::vector<std::tuple<size_t, size_t, GpuShare>> placements;  // where each displaced share goes
  int64_t memory_moved = 0;
  std::string failure;
};

std::vector<size_t> free_cards(const Cluster& cluster, size_t n) {
  std::vector<size_t> out;
  for (size_t c = 0; c < cluster.nodes[n].cards.size(); ++c) {
    if (cluster.usable_free(n, c)) out.push_back(c);
  }
  return out;
}

/// The tightest card (least memory left after) on another node that takes the share.
std::optional<std::pair<size_t, size_t>> best_fit(const Cluster& cluster, size_t from, const GpuShare& share,
                                                 const std::map<std::pair<size_t, size_t>, std::pair<int64_t, int64_t>>& extra) {
  std::optional<std::pair<size_t, size_t>> best;
  int64_t best_left = 0;
  for (size_t n = 0; n < cluster.nodes.size(); ++n) {
    if (n == from) continue;  // a migration leaves its node (the reservation keeps it off)
    for (size_t c = 0; c < cluster.nodes[n].cards.size(); ++c) {
      const GpuCard& card = cluster.nodes[n].cards[c];
      if (!card.healthy || cluster.reserved.count({n, c})) continue;
      auto added = extra.count({n, c}) ? extra.at({n, c}) : std::pair<int64_t, int64_t>{0, 0};
      const int64_t core_left = card.core_total - card.core_used() - added.first - share.core;
      const int64_t memory_left = card.memory_total - card.memory_used() - added.second - share.memory;
      if (core_left < 0 || memory_left < 0) continue;
      if (!best || memory_left < best_left) {
        best = {{n, c}};
        best_left = memory_left;
      }
    }
  }
  return best;
}

/// Cards of node `n` in the order they are cheapest to empty.
std::vector<size_t> cards_by_cost(const Cluster& cluster, size_t n) {
  std::vector<size_t> order;
  const auto& cards = cluster.nodes[n].cards;
  for (size_t c = 0; c < cards.size(); ++c) {
    if (cards[c].healthy && !cluster.reserved.count({n, c})) order.push_back(c);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_tuple(cards[a].users.size(), cards[a].memory_used()) <
           std::make_tuple(cards[b].users.size(), cards[b].memory_used());
  });
  return order;
}

Proposal propose(const Cluster& cluster, size_t n, int32_t needed, const GpuDefragArgs& args, int32_t budget_left) {
  Proposal p;
  p.node = n;
  const auto order = cards_by_cost(cluster, n);
  if (static_cast<int32_t>(order.size()) < needed) {
    p.failure = "fewer than " + std::to_string(needed) + " healthy cards";
    return p;
  }
  p.cards.assign(order.begin(), order.begin() + needed);
  std::set<const Pod*> moved;
  std::map<std::pair<size_t, size_t>, std::pair<int64_t, int64_t>> extra;
  const std::set<size_t> chosen(p.cards.begin(), p.cards.end());
  for (size_t c : p.cards) {
    for (const GpuShare& share : cluster.nodes[n].cards[c].users) {
      if (!moved.insert(share.pod.get()).second) continue;  // a pod on several chosen cards moves once
      if (cluster.moving.count(share.pod.get())) {
        p.failure = "pod " + share.pod->meta.name + " is already moving here for another pending pod";
        return p;
      }
      if (args.migration_refusal) {
        if (auto refusal = args.migration_refusal(*share.pod)) {
          p.failure = "pod " + share.pod->meta.name + " may not migrate: " + *refusal;
          return p;
        }
      }
      // Every share the pod holds on this node moves with it.
      int64_t core = 0, memory = 0;
      for (size_t k = 0; k < cluster.nodes[n].cards.size(); ++k) {
        for (const GpuShare& s : cluster.nodes[n].cards[k].users) {
          if (s.pod != share.pod) continue;
          if (!chosen.count(k)) {
            p.failure = "pod " + share.pod->meta.name + " also holds a card that is not being freed";
            return p;
          }
          core += s.core;
          memory += s.memory;
        }
      }
      GpuShare whole{share.pod, core, memory};
      auto target = best_fit(cluster, n, whole, extra);
      if (!target) {
        p.failure = "no other node has room for pod " + share.pod->meta.name;
        return p;
      }
      extra[*target].first += core;
      extra[*target].second += memory;
      p.placements.emplace_back(target->first, target->second, whole);
      p.moves.push_back({share.pod, cluster.nodes[n].name, cluster.nodes[target->first].name,
                         cluster.nodes[target->first].cards[target->second].minor});
      p.memory_moved += memory;
    }
  }
  const int32_t count = static_cast<int32_t>(p.moves.size());
  const int32_t from_node = count + (cluster.moves_from.count(n) ? cluster.moves_from.at(n) : 0);
  if (args.max_migrations_per_node && from_node > *args.max_migrations_per_node) {
    p.failure = "needs " + std::to_string(count) + " migrations, above the per-node limit";
  } else if (count > budget_left) {
    p.failure = "needs " + std::to_string(count) + " migrations, above what is left of the total limit";
  }
  return p;
}

/// Moves the displaced shares and reserves the freed cards.
void apply(Cluster& cluster, const Proposal& p) {
  for (size_t c : p.cards) {
    cluster.nodes[p.node].cards[c].users.clear();
    cluster.reserved.insert({p.node, c});
  }
  for (const auto& [n, c, share] : p.placements) cluster.nodes[n].cards[c].users.push_back(share);
  for (const GpuMove& move : p.moves) cluster.moving.insert(move.pod.get());
  cluster.moves_from[p.node] += static_cast<int32_t>(p.moves.size());
}

bool better(const Proposal& a, const Proposal& b, const Cluster& cluster) {
  return std::make_tuple(a.moves.size(), a.memory_moved, cluster.nodes[a.node].name) <
         std::make_tuple(b.moves.size(), b.memory_moved, cluster.nodes[b.node].name);
}

}  // namespace

GpuDefragPlan plan_gpu_defrag(const std::vector<GpuNode>& nodes, const std::vector<PendingGpuPod>& pending,
                              const GpuDefragArgs& args) {
  GpuDefragPlan plan;
  Cluster cluster;
  cluster.nodes = nodes;
  int32_t budget = args.max_migrations_total.value_or(INT32_MAX);
  for (const PendingGpuPod& want : pending) {
    if (want.whole_cards <= 0) {
      plan.unserved.emplace_back(want.pod, "asks for no whole cards");
      continue;
    }
    bool fitted = false;
    for (size_t n = 0; n < cluster.nodes.size() && !fitted; ++n) {
      const auto free = free_cards(cluster, n);
      if (static_cast<int32_t>(free.size()) < want.whole_cards) continue;
      for (int32_t i = 0; i < want.whole_cards; ++i) cluster.reserved.insert({n, free[i]});
      plan.already_fit.push_back(want.pod);
      fitted = true;
    }
    if (fitted) continue;
    std::optional<Proposal> best;
    std::string last_failure = "no node has enough healthy cards";
    for (size_t n = 0; n < cluster.nodes.size(); ++n) {
      Proposal p = propose(cluster, n, want.whole_cards, args, budget);
      if (!p.failure.empty()) {
        last_failure = cluster.nodes[n].name + ": " + p.failure;
        continue;
      }
      if (!best || better(p, *best, cluster)) best = std::move(p);
    }
    if (!best) {
      plan.unserved.emplace_back(want.pod, last_failure);
      continue;
    }
    apply(cluster, *best);
    budget -= static_cast<int32_t>(best->moves.size());
    FreedCards freed{want.pod, cluster.nodes[best->node].name, {}, best->moves};
    for (size_t c : best->cards) freed.minors.push_back(cluster.nodes[best->node].cards[c].minor);
    plan.migrations.insert(plan.migrations.end(), best->moves.begin(), best->moves.end());
    plan.freed.push_back(std::move(freed));
  }
  return plan;
}

}  // namespace troupe::plugins::descheduler
