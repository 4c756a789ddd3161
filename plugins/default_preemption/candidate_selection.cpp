#include "plugins/default_preemption/candidate_selection.hpp"

#include <functional>
#include <limits>

namespace troupe::plugins::preemption {

std::optional<Timestamp> earliest_start_of_highest_priority(const Victims& victims, Timestamp now) {
  if (victims.pods.empty()) return std::nullopt;
  Timestamp earliest = pod_start_time(*victims.pods.front(), now);
  int32_t highest = victims.pods.front()->priority;
  for (const auto& pod : victims.pods) {
    const Timestamp start = pod_start_time(*pod, now);
    if (pod->priority == highest && start < earliest) {
      earliest = start;
    } else if (pod->priority > highest) {
      highest = pod->priority;
      earliest = start;
    }
  }
  return earliest;
}

std::optional<size_t> pick_one_node_for_preemption(const std::vector<Candidate>& candidates, Timestamp now) {
  if (candidates.empty()) return std::nullopt;
  using Score = std::function<int64_t(const Victims&)>;
  const std::vector<Score> rules = {
      [](const Victims& v) { return -v.num_pdb_violations; },
      [](const Victims& v) { return v.pods.empty() ? 0 : -static_cast<int64_t>(v.pods.front()->priority); },
      [](const Victims& v) {
        int64_t sum = 0;
        for (const auto& pod : v.pods) sum += static_cast<int64_t>(pod->priority) + (int64_t{1} << 31);
        return -sum;
      },
      [](const Victims& v) { return -static_cast<int64_t>(v.pods.size()); },
      [now](const Victims& v) {
        const auto earliest = earliest_start_of_highest_priority(v, now);
        if (!earliest) return std::numeric_limits<int64_t>::min();
        return static_cast<int64_t>(earliest->time_since_epoch().count());
      },
  };
  std::vector<size_t> tied(candidates.size());
  for (size_t i = 0; i < tied.size(); ++i) tied[i] = i;
  for (const auto& rule : rules) {
    std::vector<size_t> best;
    int64_t best_score = std::numeric_limits<int64_t>::min();
    for (size_t i : tied) {
      const int64_t score = rule(candidates[i].victims);
      if (score > best_score) {
        best_score = score;
        best.clear();
      }
      if (score == best_score) best.push_back(i);
    }
    if (best.size() == 1) return best.front();
    tied = std::move(best);
  }
  return tied.front();
}

}  // namespace troupe::plugins::preemption
