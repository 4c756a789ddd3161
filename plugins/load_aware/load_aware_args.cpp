#include "plugins/load_aware/load_aware_args.hpp"

#include <array>
#include <string_view>

#include "config/yaml_fields.hpp"
#include "model/go_duration.hpp"

namespace troupe::plugins::load_aware {

using config::child_path;
using config::FieldError;
using config::is_absent;

namespace {

// The name Koordinator's default estimator registers under
// (loadaware/estimator/default_estimator.go: defaultEstimatorName).
constexpr std::string_view kDefaultEstimator = "defaultEstimator";

// extension.AggregationType values accepted by validateAggregationType, in its order.
constexpr std::array<std::string_view, 5> kAggregationTypes = {"avg", "p50", "p90", "p95", "p99"};

/// "usageThresholds[cpu]": resource names hold dots and slashes ("nvidia.com/gpu"),
/// so map entries are bracketed as in NodeResourcesFitPlus's "resources[cpu]".
std::string entry_path(const std::string& path, const std::string& name) { return path + "[" + name + "]"; }

/// map[ResourceName]int64. Names in the map's order (sorted), so the first
/// invalid entry reported is the same on every run.
ResourceInts read_resource_ints(const YAML::Node& node, const std::string& path) {
  config::expect_map(node, path);
  ResourceInts out;
  for (const auto& entry : node) {
    const std::string name = config::read_string(entry.first, path);
    if (name.empty()) throw FieldError(path, "resource names must not be empty");
    const std::string at = entry_path(path, name);
    if (out.count(name)) throw FieldError(at, "duplicate resource");
    out[name] = config::read_int(entry.second, at);
  }
  return out;
}

/// Reads map[key] when present and not null; `out` is left alone otherwise.
void read_ints_field(const YAML::Node& map, const std::string& path, const char* key, ResourceInts& out) {
  const YAML::Node node = map[key];
  if (is_absent(node)) return;
  out = read_resource_ints(node, child_path(path, key));
}

std::string invalid(int64_t value, const std::string& detail) {
  return "Invalid value: " + std::to_string(value) + ": " + detail;
}

/// Koordinator's per-resource range checks: every value in [lowest, 100],
/// where `lowest` is 1 for weights and scaling factors ("... should be a
/// positive value") and 0 for thresholds (0 turns a resource's check off).
/// `what` starts the message: "resource Weight of", "resource Threshold of",
/// "estimated resource ScalingFactor of".
void check_range(const ResourceInts& values, const std::string& path, const std::string& what, int64_t lowest) {
  for (const auto& [name, value] : values) {
    const std::string got = std::to_string(value);
    if (value < lowest)
      throw FieldError(entry_path(path, name), invalid(value, what + " " + name + " should be a positive value, got " + got));
    if (value > 100)
      throw FieldError(entry_path(path, name), invalid(value, what + " " + name + " should be less than 100, got " + got));
  }
}

// validateResourceWeights: 0 < weight <= 100.
void check_weights(const ResourceInts& weights, const std::string& path) {
  check_range(weights, path, "resource Weight of", 1);
}

// validateResourceThresholds: 0 <= threshold <= 100 (0 turns the resource's check off).
void check_thresholds(const ResourceInts& thresholds, const std::string& path) {
  check_range(thresholds, path, "resource Threshold of", 0);
}

// validateEstimatedScalingFactors: 0 < factor <= 100.
void check_scaling_factors(const ResourceInts& factors, const std::string& path) {
  check_range(factors, path, "estimated resource ScalingFactor of", 1);
}

// validateAggregationType (only called for a non-empty type): field.NotSupported.
void check_aggregation_type(const std::string& type, const std::string& path) {
  for (std::string_view known : kAggregationTypes)
    if (type == known) return;
  std::string supported;
  for (std::string_view known : kAggregationTypes) {
    if (!supported.empty()) supported += ", ";
    supported += "\"" + std::string(known) + "\"";
  }
  throw FieldError(path, "Unsupported value: \"" + type + "\": supported values: " + supported);
}

void check_duration(std::chrono::nanoseconds d, const std::string& path) {
  if (d.count() < 0)
    throw FieldError(path, "Invalid value: \"" + format_go_duration(d) + "\": duration must be >= 0");
}

AggregatedArgs read_aggregated(const YAML::Node& node, const std::string& path) {
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path,
                                {"usageThresholds", "usageAggregationType", "usageAggregatedDuration",
                                 "scoreAggregationType", "scoreAggregatedDuration"});
  AggregatedArgs out;
  read_ints_field(node, path, "usageThresholds", out.usage_thresholds);
  config::read_optional(node, path, "usageAggregationType", out.usage_aggregation_type);
  config::read_optional(node, path, "usageAggregatedDuration", out.usage_aggregated_duration);
  config::read_optional(node, path, "scoreAggregationType", out.score_aggregation_type);
  config::read_optional(node, path, "scoreAggregatedDuration", out.score_aggregated_duration);
  return out;
}

// validateAggregatedArgs, in its order.
void check_aggregated(const AggregatedArgs& a, const std::string& path) {
  check_thresholds(a.usage_thresholds, child_path(path, "usageThresholds"));
  if (!a.usage_aggregation_type.empty())
    check_aggregation_type(a.usage_aggregation_type, child_path(path, "usageAggregationType"));
  check_duration(a.usage_aggregated_duration, child_path(path, "usageAggregatedDuration"));
  if (!a.score_aggregation_type.empty())
    check_aggregation_type(a.score_aggregation_type, child_path(path, "scoreAggregationType"));
  check_duration(a.score_aggregated_duration, child_path(path, "scoreAggregatedDuration"));
}

/// *int64 seconds. Koordinator does not validate these; a negative value
/// forces no estimation (shouldEstimatePodDeadline only acts on > 0, and a
/// negative args value equals the unset -1), so it reads as unset.
std::optional<int64_t> read_seconds(const YAML::Node& map, const std::string& path, const char* key) {
  const YAML::Node node = map[key];
  if (is_absent(node)) return std::nullopt;
  const int64_t value = config::read_int(node, child_path(path, key));
  if (value < 0) return std::nullopt;
  return value;
}

/// supportedResources: []ResourceName. Checked for shape, then dropped (see the header).
void read_supported_resources(const YAML::Node& node, const std::string& path) {
  if (is_absent(node)) return;
  config::expect_sequence(node, path);
  for (size_t i = 0; i < node.size(); ++i) {
    const std::string at = config::index_path(path, i);
    if (config::read_string(node[i], at).empty()) throw FieldError(at, "resource names must not be empty");
  }
}

}  // namespace

LoadAwareSchedulingArgs LoadAwareSchedulingArgs::from_yaml(const YAML::Node& args) {
  LoadAwareSchedulingArgs out;
  std::string estimator;
  const std::string path;

  // Decoding (strict: unknown fields are errors, as kube-scheduler decodes pluginConfig).
  if (!is_absent(args)) {
    config::expect_map(args, path);
    config::reject_unknown_fields(
        args, path,
        {"filterExpiredNodeMetrics", "nodeMetricExpirationSeconds", "enableScheduleWhenNodeMetricsExpired",
         "resourceWeights", "dominantResourceWeight", "usageThresholds", "prodUsageThresholds",
         "prodUsageIncludeSys", "scoreAccordingProdUsage", "estimator", "estimatedScalingFactors",
         "allowCustomizeEstimation", "estimatedSecondsAfterPodScheduled", "estimatedSecondsAfterInitialized",
         "aggregated", "supportedResources"});
    config::read_optional(args, path, "filterExpiredNodeMetrics", out.filter_expired_node_metrics);
    config::read_optional(args, path, "nodeMetricExpirationSeconds", out.node_metric_expiration_seconds);
    config::read_optional(args, path, "enableScheduleWhenNodeMetricsExpired",
                          out.enable_schedule_when_node_metrics_expired);
    read_ints_field(args, path, "resourceWeights", out.resource_weights);
    config::read_optional(args, path, "dominantResourceWeight", out.dominant_resource_weight);
    read_ints_field(args, path, "usageThresholds", out.usage_thresholds);
    read_ints_field(args, path, "prodUsageThresholds", out.prod_usage_thresholds);
    config::read_optional(args, path, "prodUsageIncludeSys", out.prod_usage_include_sys);
    config::read_optional(args, path, "scoreAccordingProdUsage", out.score_according_prod_usage);
    config::read_optional(args, path, "estimator", estimator);
    read_ints_field(args, path, "estimatedScalingFactors", out.estimated_scaling_factors);
    config::read_optional(args, path, "allowCustomizeEstimation", out.allow_customize_estimation);
    out.estimated_seconds_after_pod_scheduled = read_seconds(args, path, "estimatedSecondsAfterPodScheduled");
    out.estimated_seconds_after_initialized = read_seconds(args, path, "estimatedSecondsAfterInitialized");
    if (!is_absent(args["aggregated"])) out.aggregated = read_aggregated(args["aggregated"], "aggregated");
    read_supported_resources(args["supportedResources"], "supportedResources");
  }

  // SetDefaults_LoadAwareSchedulingArgs. filterExpiredNodeMetrics (true),
  // enableScheduleWhenNodeMetricsExpired (false) and nodeMetricExpirationSeconds
  // (180) are the members' initial values.
  if (out.resource_weights.empty() && out.dominant_resource_weight == 0) out.resource_weights = {{"cpu", 1}, {"memory", 1}};
  if (out.usage_thresholds.empty()) out.usage_thresholds = {{"cpu", 65}, {"memory", 95}};
  // estimatedScalingFactors: nil takes {cpu: 85, memory: 70}; a given map gets
  // whichever of the two it lacks (so {} ends up the same as nil).
  out.estimated_scaling_factors.emplace("cpu", 85);  // emplace keeps a configured value
  out.estimated_scaling_factors.emplace("memory", 70);

  // ValidateLoadAwareSchedulingArgs, in its order (the struct's declaration
  // order), map entries by name; the first error is reported.
  if (out.node_metric_expiration_seconds <= 0)
    throw FieldError("nodeMetricExpirationSeconds",
                     invalid(out.node_metric_expiration_seconds, "nodeMetricExpiredSeconds should be a positive value"));
  check_weights(out.resource_weights, "resourceWeights");
  if (out.dominant_resource_weight < 0)
    throw FieldError("dominantResourceWeight",
                     invalid(out.dominant_resource_weight, "dominantResourceWeight should not be a negative value"));
  if (out.dominant_resource_weight > 100)
    throw FieldError("dominantResourceWeight",
                     invalid(out.dominant_resource_weight, "dominantResourceWeight should be less than 100"));
  check_thresholds(out.usage_thresholds, "usageThresholds");
  // prodUsageThresholds: not validated by Koordinator, so not here either.
  if (!estimator.empty() && estimator != kDefaultEstimator)
    throw FieldError("estimator", "estimator \"" + estimator + "\" is not supported by troupe (only the default estimator)");
  check_scaling_factors(out.estimated_scaling_factors, "estimatedScalingFactors");
  for (const auto& entry : out.resource_weights) {
    if (!out.estimated_scaling_factors.count(entry.first))
      throw FieldError("estimatedScalingFactors", "Not found: \"" + entry.first + "\"");
  }
  if (out.aggregated) check_aggregated(*out.aggregated, "aggregated");
  return out;
}

}  // namespace troupe::plugins::load_aware
