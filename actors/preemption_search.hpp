#pragma once
// A NODE actor's part of the preemption search: copies of its nodes (with the
// filter statuses the cycle collected), the framework's filters as the
// FilterFunction, then plugins::preemption::search_partition.

#include "actors/node_partition.hpp"
#include "actors/preemption_messages.hpp"

namespace troupe::actors {

plugins::preemption::PartitionPreemption evaluate_preemption(const NodePartition& partition,
                                                             const PreemptionRequest& request);

}  // namespace troupe::actors
