#pragma once
// LoadAwareSchedulingArgs (Koordinator pkg/scheduler/apis/config: types,
// v1beta3 defaults and validation_pluginargs.go), decoded from pluginConfig
// YAML with field-named errors. Percentages and weights are integers, as
// Koordinator's map[ResourceName]int64.
//
//   filterExpiredNodeMetrics: true
//   nodeMetricExpirationSeconds: 180
//   enableScheduleWhenNodeMetricsExpired: false
//   resourceWeights: {cpu: 1, memory: 1}
//   dominantResourceWeight: 0
//   usageThresholds: {cpu: 65, memory: 95}
//   prodUsageThresholds: {}
//   prodUsageIncludeSys: false
//   scoreAccordingProdUsage: false
//   estimator: ""                               # the default estimator, the only one
//   estimatedScalingFactors: {cpu: 85, memory: 70}
//   allowCustomizeEstimation: false
//   estimatedSecondsAfterPodScheduled: 0        # unset: off
//   estimatedSecondsAfterInitialized: 0
//   aggregated: {usageThresholds: {...}, usageAggregationType: p95, usageAggregatedDuration: 5m,
//                scoreAggregationType: avg, scoreAggregatedDuration: 0s}
//   supportedResources: [...]                   # accepted and ignored, see below
//
// Defaults (SetDefaults_LoadAwareSchedulingArgs): an empty resourceWeights
// takes {cpu: 1, memory: 1} unless dominantResourceWeight is set (Koordinator
// #2603); an empty usageThresholds takes {cpu: 65, memory: 95};
// estimatedScalingFactors gets cpu 85 / memory 70 for whichever it lacks.
//
// Validation (ValidateLoadAwareSchedulingArgs): nodeMetricExpirationSeconds
// > 0; resourceWeights in (0, 100]; dominantResourceWeight in [0, 100];
// usageThresholds and aggregated.usageThresholds in [0, 100];
// estimatedScalingFactors in (0, 100]; every resourceWeights resource has a
// scaling factor; aggregation types avg/p50/p90/p95/p99; aggregated
// durations >= 0. Koordinator collects every error; troupe reports the first,
// in field order, map entries by name. Map entries are named like
// "usageThresholds[cpu]". Koordinator's messages are kept (including its
// "nodeMetricExpiredSeconds" wording), the path is the real YAML key.
// As in Koordinator, prodUsageThresholds and estimatedSecondsAfter* are not
// validated; a negative estimatedSecondsAfter* reads as unset (only a positive
// value forces estimation, and a negative one acts as the unset -1 there).
//
// Where troupe differs:
//  - estimator: only "" or "defaultEstimator" (Koordinator falls back to the
//    default estimator for an unknown name; troupe rejects it, since it has
//    no other estimator to offer).
//  - supportedResources (Koordinator v1.7: extra resources for the vectorizer
//    that appear only in node annotations) is checked to be a list of names
//    and dropped: troupe compares cpu, memory and every resource the args
//    name (load_axes_of), not resources named only in annotations.
//  - Resource names must be non-empty and not repeated within one map.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <yaml-cpp/yaml.h>

namespace troupe::plugins::load_aware {

/// Resource name -> percent of allocatable, weight or scaling factor.
using ResourceInts = std::map<std::string, int64_t>;

/// Usage aggregated by koordlet over a window (NodeMetric's aggregatedNodeUsages).
struct AggregatedArgs {
  ResourceInts usage_thresholds;
  std::string usage_aggregation_type;  // "avg", "p50", "p90", "p95", "p99"; "" = not set
  std::chrono::nanoseconds usage_aggregated_duration{0};  // 0: the longest window reported
  std::string score_aggregation_type;
  std::chrono::nanoseconds score_aggregated_duration{0};

  /// Filter uses the aggregated vector instead of the latest usage.
  bool filters_aggregated() const { return !usage_thresholds.empty() && !usage_aggregation_type.empty(); }
  bool scores_aggregated() const { return !score_aggregation_type.empty(); }
};

struct LoadAwareSchedulingArgs {
  bool filter_expired_node_metrics = true;
  int64_t node_metric_expiration_seconds = 180;
  bool enable_schedule_when_node_metrics_expired = false;
  ResourceInts resource_weights;  // default {cpu: 1, memory: 1} when empty and no dominant weight
  int64_t dominant_resource_weight = 0;
  ResourceInts usage_thresholds;  // default {cpu: 65, memory: 95} when empty
  ResourceInts prod_usage_thresholds;
  bool prod_usage_include_sys = false;
  bool score_according_prod_usage = false;
  bool allow_customize_estimation = false;
  ResourceInts estimated_scaling_factors;  // default {cpu: 85, memory: 70}; given ones get cpu/memory filled in
  std::optional<int64_t> estimated_seconds_after_pod_scheduled;
  std::optional<int64_t> estimated_seconds_after_initialized;
  std::optional<AggregatedArgs> aggregated;

  /// Decodes, defaults and validates; throws config::FieldError naming the field.
  static LoadAwareSchedulingArgs from_yaml(const YAML::Node& args);
};

}  // namespace troupe::plugins::load_aware
