#pragma once
// What kube-apiserver does with a Pod's spec.schedulingGates: a gated pod is
// created with PodScheduled=False (reason SchedulingGated), cannot be bound
// (pods/binding answers 409) and cannot have spec.nodeName; after creation its
// gates can only be removed. The scheduler side is plugins/scheduling_gates.

#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "sim/status_errors.hpp"

namespace troupe::sim {

/// Whether spec.schedulingGates holds at least one entry.
bool has_scheduling_gates(const rapidjson::Value& pod);

/// Create and update validation: every gate named, no name twice, and no
/// spec.nodeName while a gate remains.
std::vector<StatusCause> check_scheduling_gates(const rapidjson::Value& pod);

/// Update validation: no gate that `old` did not have.
std::vector<StatusCause> check_scheduling_gates_update(const rapidjson::Value& old, const rapidjson::Value& pod);

/// On create: a gated pod without a PodScheduled condition gets
/// PodScheduled=False, reason SchedulingGated (applySchedulingGatedCondition).
void mark_scheduling_gated(rapidjson::Document& pod);

}  // namespace troupe::sim
