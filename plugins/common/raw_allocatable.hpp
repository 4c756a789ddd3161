#pragma once
// Koordinator's node.koordinator.sh/raw-allocatable annotation: the node's
// allocatable before koordlet's CPU normalisation inflated it, a JSON
// ResourceList. LowNodeLoad and LoadAwareScheduling measure usage against it.

#include <optional>

#include "model/node.hpp"
#include "model/resources.hpp"

namespace troupe::plugins {

inline constexpr const char* kAnnotationRawAllocatable = "node.koordinator.sh/raw-allocatable";

/// The annotation's list; nullopt when absent, not a JSON object of quantity
/// strings, or holding a quantity that does not parse.
std::optional<ResourceList> parse_raw_allocatable(const Node& node);

}  // namespace troupe::plugins
