#pragma once
// The SCHEDULING CYCLE's reservation diagnosis, run only when a pod fits
// nowhere and its profile runs the Reservation plugin at PostFilter: why the
// pod could not use the reservations it may own (Koordinator's
// nodeReservationDiagnosis and makePostFilterReasons,
// plugins/reservation/reservation_diagnosis.hpp). The cycle counts the
// matching over its ClusterReservations; for the nodes holding reservations
// the pod could have used, it asks the owning partitions for their Filter
// reasons (the round keeps no per-node status: pods that fit pay nothing for
// this), takes the extenders' rejections and the PreFilter's exclusions from
// the attempt, and shares the result with the attempt's CycleState for
// PostFilter.

#include <functional>

#include "actors/cycle_actor.hpp"

namespace troupe::actors {

using CycleSelf = cycle_actor::stateful_pointer<cycle_actor_state>;

/// Shares the diagnosis (when there is one to give) and then calls `done` on
/// the cycle actor; a partition that does not answer leaves its nodes' reasons out.
void diagnose_reservations(CycleSelf self, const CycleRequestPtr& request,
                           const plugins::NodeStatuses& extender_statuses, std::function<void()> done);

/// The same after a PreFilter rejection: every node has `rejection`'s
/// reasons (upstream gives each node the PreFilter's status), so no
/// partition is asked.
void diagnose_reservations_after_pre_filter(CycleSelf self, const CycleRequest& request,
                                            const plugins::PluginStatus& rejection);

}  // namespace troupe::actors
