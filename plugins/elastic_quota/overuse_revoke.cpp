#include "plugins/elastic_quota/overuse_revoke.hpp"

#include <algorithm>

#include "plugins/default_preemption/pdb_violation.hpp"

namespace troupe::plugins::elastic_quota {

namespace {

/// Go's quotav1.Subtract / Add: no floor at zero.
void shift(ResourceAmounts& used, const ResourceAmounts& request, int sign) {
  for (const auto& [name, amount] : request) used[name] += sign * amount;
}

}  // namespace

bool over_runtime(const ResourceAmounts& used, const ResourceAmounts& runtime) {
  for (const auto& [name, allowed] : runtime) {
    auto it = used.find(name);
    if (it != used.end() && it->second > allowed) return true;
  }
  return false;
}

bool OveruseMonitor::due(const QuotaUsage& usage, Clock::time_point now, Clock::duration delay) {
  if (!over_runtime(usage.used, usage.runtime)) {
    last_within_ = now;
    return false;
  }
  if (now - last_within_ <= delay) return false;
  last_within_ = now;
  return true;
}

std::vector<std::shared_ptr<const PodInfo>> pods_to_revoke(const ResourceAmounts& used_now,
                                                           const ResourceAmounts& runtime,
                                                           std::vector<std::shared_ptr<const PodInfo>> placed,
                                                           Timestamp now) {
  // Least important first; equal ones by name, so the choice does not depend on the order pods came in.
  std::stable_sort(placed.begin(), placed.end(), [&](const auto& a, const auto& b) {
    if (preemption::more_important_pod(*a, *b, now)) return false;
    if (preemption::more_important_pod(*b, *a, now)) return true;
    return a->key < b->key;
  });
  ResourceAmounts used = used_now;
  std::vector<std::shared_ptr<const PodInfo>> taken;
  for (const auto& pod : placed) {
    if (!over_runtime(used, runtime)) break;
    shift(used, amounts_of(pod->requests), -1);
    taken.push_back(pod);
  }
  if (over_runtime(used, runtime)) return taken;
  std::vector<std::shared_ptr<const PodInfo>> revoked;
  for (auto it = taken.rbegin(); it != taken.rend(); ++it) {
    const ResourceAmounts request = amounts_of((*it)->requests);
    shift(used, request, +1);
    if (!over_runtime(used, runtime)) continue;  // it fits back
    shift(used, request, -1);
    revoked.push_back(*it);
  }
  return revoked;
}

}  // namespace troupe::plugins::elastic_quota
