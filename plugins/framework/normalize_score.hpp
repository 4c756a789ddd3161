#pragma once
// kube-scheduler's helper.DefaultNormalizeScore: scale scores so the highest
// becomes `max_priority` (integer arithmetic, as upstream); `reverse` flips
// them so the lowest raw score ranks best. All zero: unchanged, or all
// `max_priority` when reversed.

#include <cstdint>
#include <vector>

namespace troupe::plugins {

inline void default_normalize_score(int64_t max_priority, bool reverse, std::vector<int64_t>& scores) {
  int64_t max_count = 0;
  for (int64_t s : scores)
    if (s > max_count) max_count = s;
  if (max_count == 0) {
    if (reverse)
      for (auto& s : scores) s = max_priority;
    return;
  }
  for (auto& s : scores) {
    int64_t score = max_priority * s / max_count;
    s = reverse ? max_priority - score : score;
  }
}

}  // namespace troupe::plugins
