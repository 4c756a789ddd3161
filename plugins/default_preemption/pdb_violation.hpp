#pragma once
// Victim ordering helpers of kube-scheduler's preemption
// (defaultpreemption filterPodsWithPDBViolation, util.MoreImportantPod,
// util.GetPodStartTime).

#include <memory>
#include <vector>

#include "model/pod_disruption_budget.hpp"
#include "model/timestamp.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins::preemption {

using PodList = std::vector<std::shared_ptr<const PodInfo>>;

/// status.startTime, or `now` for a pod not started yet (assumed or just bound).
Timestamp pod_start_time(const PodInfo& pod, Timestamp now);
/// Higher priority first; equal priority: the earlier start time.
bool more_important_pod(const PodInfo& a, const PodInfo& b, Timestamp now);

struct PdbSplit {
  PodList violating;
  PodList non_violating;
};

/// Splits `pods` (order kept) by whether evicting them, in this order, would
/// take a budget below zero: each pod matched by a budget of its namespace
/// (a budget with no or an empty selector matches nothing here, unlike
/// policy/v1) and not already in its status.disruptedPods uses one of
/// status.disruptionsAllowed; a pod that takes any budget below zero violates.
PdbSplit filter_pods_with_pdb_violation(const PodList& pods, const std::vector<PodDisruptionBudget>& pdbs);

}  // namespace troupe::plugins::preemption
