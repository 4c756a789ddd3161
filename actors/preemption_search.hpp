#pragma once
// A NODE actor's part of the preemption search: copies of the nodes its last
// round rejected (and of those the extenders turned down) that may hold a
// victim, the framework's filters and PreFilterExtensions as the dry run
// (plugins/default_preemption/dry_run.hpp), then
// plugins::preemption::search_partition.

#include "actors/node_partition.hpp"
#include "actors/preemption_messages.hpp"

namespace troupe::actors {

/// `round_cycle`: the cycle of the partition's last round, which must be the request's.
plugins::preemption::PartitionPreemption evaluate_preemption(const NodePartition& partition, uint64_t round_cycle,
                                                             const PreemptionRequest& request);

}  // namespace troupe::actors
