#pragma once
// The node annotation scheduling.koordinator.sh/usage-thresholds (Koordinator
// apis/extension/load_aware.go), with which a node sets its own
// LoadAwareScheduling thresholds:
//   {"usageThresholds": {"cpu": 65}, "prodUsageThresholds": {...},
//    "aggregatedUsage": {"usageThresholds": {...}, "usageAggregationType": "p95",
//                        "usageAggregatedDuration": "5m"}}

#include <optional>
#include <string>

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

/// Parses the annotation; nullopt when absent, malformed or empty.
std::optional<CustomUsageThresholds> parse_custom_usage_thresholds(const std::string* text);

}  // namespace troupe::plugins::load_aware
