#pragma once
// The node annotation scheduling.koordinator.sh/usage-thresholds (Koordinator
// apis/extension/load_aware.go), with which a node sets its own
// LoadAwareScheduling thresholds:
//   {"usageThresholds": {"cpu": 65}, "prodUsageThresholds": {...},
//    "aggregatedUsage": {"usageThresholds": {...}, "usageAggregationType": "p95",
//                        "usageAggregatedDuration": "5m"}}

#include <optional>
#include <string>

#include <rapidjson/document.h>

#include "plugins/load_aware/load_aware_args.hpp"

namespace troupe::plugins::load_aware {

inline constexpr const char* kAnnotationUsageThresholds = "scheduling.koordinator.sh/usage-thresholds";

/// The node's scheduling.koordinator.sh/usage-thresholds annotation
/// (Koordinator's CustomUsageThresholds): each field given replaces the
/// profile's; aggregatedUsage without thresholds or a type counts as absent.
struct CustomUsageThresholds {
  ResourceInts usage_thresholds;
  ResourceInts prod_usage_thresholds;
  std::optional<AggregatedArgs> aggregated;  // only the usage* fields are read
};

/// A JSON object of integers per resource ({"cpu": 65}), as the node's and the
/// pod's load annotations write them, added to `out`; false when `value` is
/// not such an object.
bool read_resource_ints(const rapidjson::Value& value, ResourceInts& out);

/// Parses the annotation; nullopt when absent, malformed or empty.
std::optional<CustomUsageThresholds> parse_custom_usage_thresholds(const std::string* text);

}  // namespace troupe::plugins::load_aware
