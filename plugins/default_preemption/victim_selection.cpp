#include "plugins/default_preemption/victim_selection.hpp"

#include <algorithm>

#include "plugins/reservation/pod_annotations.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::plugins::preemption {

bool may_be_victim(const PodInfo& pod, const PodInfo& preemptor, const VictimOptions& options) {
  if (pod.priority >= preemptor.priority) return false;
  // An Available reservation is accounted as its reserve pod; it is no pod
  // to delete (Koordinator: reservations being preempted is a TODO).
  if (reservation::is_reserve_pod(pod.meta())) return false;
  return !options.respect_disable_preemptible || reservation::is_preemptible(pod.meta());
}

VictimSelection select_victims_on_node(const PodInfo& preemptor, NodeInfo& node, DryRun& dry_run,
                                       const std::vector<PodDisruptionBudget>& pdbs, const VictimOptions& options) {
  VictimSelection out;
  PodList potential;
  for (const auto& pod : node.pods())
    if (may_be_victim(*pod, preemptor, options)) potential.push_back(pod);
  if (potential.empty()) {
    out.status = PluginStatus::unresolvable(kNoVictimsFound);
    return out;
  }
  dry_run.start_node();
  auto remove = [&](const std::shared_ptr<const PodInfo>& pod) {
    node.remove_pod(pod_identity(*pod));
    return dry_run.pod_removed(preemptor, *pod, node);
  };
  for (const auto& pod : potential)
    if (out.status = remove(pod); !out.status.ok()) return out;
  out.status = dry_run.filter(preemptor, node);
  if (!out.status.ok()) return out;

  std::stable_sort(potential.begin(), potential.end(),
                   [&](const auto& a, const auto& b) { return more_important_pod(*a, *b, options.now); });
  const PdbSplit split = filter_pods_with_pdb_violation(potential, pdbs);
  // Reprieve: put the pod back; if the preemptor no longer fits, it must go.
  auto reprieve = [&](const std::shared_ptr<const PodInfo>& pod, bool violating) {
    node.add_pod(pod);
    if (PluginStatus added = dry_run.pod_added(preemptor, *pod, node); !added.ok()) return added;
    if (dry_run.filter(preemptor, node).ok()) return PluginStatus();
    out.victims.pods.push_back(pod);
    if (violating) ++out.victims.num_pdb_violations;
    return remove(pod);
  };
  for (const auto& pod : split.violating)
    if (out.status = reprieve(pod, true); !out.status.ok()) return out;
  for (const auto& pod : split.non_violating)
    if (out.status = reprieve(pod, false); !out.status.ok()) return out;
  // Violating victims were taken first: sort again so that pods.front() is
  // the most important victim, as the candidate order reads it (upstream
  // SelectVictimsOnNode does the same).
  if (out.victims.num_pdb_violations > 0 &&
      out.victims.num_pdb_violations < static_cast<int64_t>(out.victims.pods.size()))
    std::stable_sort(out.victims.pods.begin(), out.victims.pods.end(),
                     [&](const auto& a, const auto& b) { return more_important_pod(*a, *b, options.now); });
  return out;
}

}  // namespace troupe::plugins::preemption
