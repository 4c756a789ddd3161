#include "plugins/default_preemption/pdb_violation.hpp"

namespace troupe::plugins::preemption {

Timestamp pod_start_time(const PodInfo& pod, Timestamp now) { return pod.pod->status.start_time.value_or(now); }

bool more_important_pod(const PodInfo& a, const PodInfo& b, Timestamp now) {
  if (a.priority != b.priority) return a.priority > b.priority;
  return pod_start_time(a, now) < pod_start_time(b, now);
}

namespace {
bool budget_covers(const PodDisruptionBudget& pdb, const Pod& pod) {
  if (pdb.meta.namespace_name != pod.meta.namespace_name) return false;
  // Preemption reads a nil or empty selector as matching nothing.
  if (!pdb.spec.selector || pdb.spec.selector->empty()) return false;
  return pdb.spec.selector->matches(pod.meta.labels);
}
}  // namespace

PdbSplit filter_pods_with_pdb_violation(const PodList& pods, const std::vector<PodDisruptionBudget>& pdbs) {
  std::vector<int64_t> allowed;
  allowed.reserve(pdbs.size());
  for (const auto& pdb : pdbs) allowed.push_back(pdb.status.disruptions_allowed);
  PdbSplit out;
  for (const auto& info : pods) {
    const Pod& pod = *info->pod;
    bool violated = false;
    if (!pod.meta.labels.empty()) {
      for (size_t i = 0; i < pdbs.size(); ++i) {
        if (!budget_covers(pdbs[i], pod)) continue;
        // Already being disrupted: the API server counted it, do not count twice.
        if (pdbs[i].status.disrupted_pods.count(pod.meta.name) != 0) continue;
        if (--allowed[i] < 0) violated = true;
      }
    }
    (violated ? out.violating : out.non_violating).push_back(info);
  }
  return out;
}

}  // namespace troupe::plugins::preemption
