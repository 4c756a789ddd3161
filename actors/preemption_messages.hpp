#pragma once
// What the SCHEDULING CYCLE sends for preemption: the candidate search request
// to the NODE actors (each answers with its partition's best candidate, and
// with all of them when extenders are to narrow them), and
// the plan the API WRITER carries out (nominate, mark and delete victims,
// clear overridden nominations, Preempted events).

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/cycle_messages.hpp"
#include "model/pod_disruption_budget.hpp"
#include "plugins/default_preemption/partition_search.hpp"

namespace troupe::actors {

struct PreemptionRequest {
  CycleRequestPtr cycle;  // framework, preemptor, its CycleState after PreFilter
  /// The statuses of the nodes the extenders turned down, by node name. The
  /// plugins' verdicts stay in each partition (NodePartition::last_rejections).
  std::shared_ptr<const std::map<std::string, plugins::PluginStatus>> extender_statuses;
  std::shared_ptr<const std::vector<PodDisruptionBudget>> pdbs;
  plugins::preemption::PartitionSearch search;
};
using PreemptionRequestPtr = std::shared_ptr<const PreemptionRequest>;
using PartitionPreemptionPtr = std::shared_ptr<const plugins::preemption::PartitionPreemption>;

/// A pod the writer touches.
struct PodRef {
  std::string ns;
  std::string name;
  std::string uid;
  /// A Reservation's reserve pod: no pod object to patch (its nomination
  /// lives only in the cycle's NominationBook, as Koordinator's
  /// ReservationNominator keeps it in memory).
  bool reserve_pod = false;
};

struct PreemptionPlan {
  std::string profile;  // the scheduler name (events, the DisruptionTarget message)
  PodRef preemptor;
  /// The nominated node; empty: clear the preemptor's nomination (and nothing else).
  std::string node;
  std::vector<PodRef> victims;
  /// Victims that were waiting at Permit: the cycle rejected them (they are
  /// not deleted, as upstream's waitingPod.Reject); only their event here.
  std::vector<PodRef> rejected;
  /// Lower-priority pods nominated to `node` whose nomination is cleared.
  std::vector<PodRef> cleared;
};
using PreemptionPlanPtr = std::shared_ptr<const PreemptionPlan>;

}  // namespace troupe::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::PreemptionRequestPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::PartitionPreemptionPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::PreemptionPlanPtr)
