#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "config/yaml_fields.hpp"
#include "plugins/load_aware/load_aware_args.hpp"

namespace troupe::plugins::load_aware {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

LoadAwareSchedulingArgs decode(const std::string& text) { return LoadAwareSchedulingArgs::from_yaml(YAML::Load(text)); }

/// The FieldError's text ("path: message"), or "" when the args decode.
std::string error_of(const std::string& text) {
  try {
    decode(text);
  } catch (const config::FieldError& e) {
    return e.what();
  }
  return "";
}

void check_defaults(const LoadAwareSchedulingArgs& a) {
  CHECK(a.filter_expired_node_metrics);
  CHECK(a.node_metric_expiration_seconds == 180);
  CHECK_FALSE(a.enable_schedule_when_node_metrics_expired);
  CHECK(a.resource_weights == ResourceInts{{"cpu", 1}, {"memory", 1}});
  CHECK(a.dominant_resource_weight == 0);
  CHECK(a.usage_thresholds == ResourceInts{{"cpu", 65}, {"memory", 95}});
  CHECK(a.prod_usage_thresholds.empty());
  CHECK_FALSE(a.prod_usage_include_sys);
  CHECK_FALSE(a.score_according_prod_usage);
  CHECK_FALSE(a.allow_customize_estimation);
  CHECK(a.estimated_scaling_factors == ResourceInts{{"cpu", 85}, {"memory", 70}});
  CHECK_FALSE(a.estimated_seconds_after_pod_scheduled);
  CHECK_FALSE(a.estimated_seconds_after_initialized);
  CHECK_FALSE(a.aggregated);
}

TEST_CASE("LoadAwareSchedulingArgs: defaults from absent, null and empty args", "[load_aware][args]") {
  SECTION("no args node") { check_defaults(LoadAwareSchedulingArgs::from_yaml(YAML::Node())); }
  const std::vector<std::string> texts = {
      "{}",
      "~",
      // Empty maps and explicit nulls default like absent fields.
      "{resourceWeights: {}, usageThresholds: {}, estimatedScalingFactors: {}}",
      "{resourceWeights: ~, usageThresholds: ~, estimatedScalingFactors: ~, nodeMetricExpirationSeconds: ~,"
      " aggregated: ~, supportedResources: ~, estimatedSecondsAfterPodScheduled: ~, estimator: ~}",
      "estimator: ''",
      "estimator: defaultEstimator",
      "supportedResources: []",
  };
  for (const auto& text : texts) {
    INFO(text);
    check_defaults(decode(text));
  }
}

TEST_CASE("LoadAwareSchedulingArgs: every field is read", "[load_aware][args]") {
  const auto a = decode(R"(
filterExpiredNodeMetrics: false
nodeMetricExpirationSeconds: 60
enableScheduleWhenNodeMetricsExpired: true
resourceWeights: {cpu: 3, memory: 2, nvidia.com/gpu: 5}
dominantResourceWeight: 7
usageThresholds: {cpu: 70, memory: 0}
prodUsageThresholds: {cpu: 55}
prodUsageIncludeSys: true
scoreAccordingProdUsage: true
estimator: defaultEstimator
estimatedScalingFactors: {cpu: 90, nvidia.com/gpu: 100}
allowCustomizeEstimation: true
estimatedSecondsAfterPodScheduled: 120
estimatedSecondsAfterInitialized: 30
aggregated:
  usageThresholds: {cpu: 80}
  usageAggregationType: p95
  usageAggregatedDuration: 5m
  scoreAggregationType: avg
  scoreAggregatedDuration: 30s
supportedResources: [nvidia.com/gpu, kubernetes.io/batch-cpu]
)");
  CHECK_FALSE(a.filter_expired_node_metrics);
  CHECK(a.node_metric_expiration_seconds == 60);
  CHECK(a.enable_schedule_when_node_metrics_expired);
  CHECK(a.resource_weights == ResourceInts{{"cpu", 3}, {"memory", 2}, {"nvidia.com/gpu", 5}});
  CHECK(a.dominant_resource_weight == 7);
  CHECK(a.usage_thresholds == ResourceInts{{"cpu", 70}, {"memory", 0}});
  CHECK(a.prod_usage_thresholds == ResourceInts{{"cpu", 55}});
  CHECK(a.prod_usage_include_sys);
  CHECK(a.score_according_prod_usage);
  CHECK(a.allow_customize_estimation);
  CHECK(a.estimated_scaling_factors == ResourceInts{{"cpu", 90}, {"memory", 70}, {"nvidia.com/gpu", 100}});
  CHECK(a.estimated_seconds_after_pod_scheduled == 120);
  CHECK(a.estimated_seconds_after_initialized == 30);
  REQUIRE(a.aggregated);
  CHECK(a.aggregated->usage_thresholds == ResourceInts{{"cpu", 80}});
  CHECK(a.aggregated->usage_aggregation_type == "p95");
  CHECK(a.aggregated->usage_aggregated_duration == minutes(5));
  CHECK(a.aggregated->score_aggregation_type == "avg");
  CHECK(a.aggregated->score_aggregated_duration == seconds(30));
  CHECK(a.aggregated->filters_aggregated());
  CHECK(a.aggregated->scores_aggregated());
}

TEST_CASE("LoadAwareSchedulingArgs: defaulting of single fields", "[load_aware][args]") {
  struct Case {
    const char* text;
    ResourceInts weights;
    ResourceInts thresholds;
    ResourceInts factors;
  };
  const ResourceInts default_weights{{"cpu", 1}, {"memory", 1}};
  const ResourceInts default_thresholds{{"cpu", 65}, {"memory", 95}};
  const ResourceInts default_factors{{"cpu", 85}, {"memory", 70}};
  const std::vector<Case> cases = {
      // Given weights replace the defaults entirely (memory is not added).
      {"resourceWeights: {cpu: 2}", {{"cpu", 2}}, default_thresholds, default_factors},
      // With a dominant weight an empty resourceWeights stays empty (Koordinator #2603).
      {"dominantResourceWeight: 10", {}, default_thresholds, default_factors},
      {"{dominantResourceWeight: 10, resourceWeights: {memory: 4}}", {{"memory", 4}}, default_thresholds,
       default_factors},
      {"dominantResourceWeight: 0", default_weights, default_thresholds, default_factors},
      // Given thresholds replace the defaults entirely; 0 turns a resource's check off.
      {"usageThresholds: {memory: 80}", default_weights, {{"memory", 80}}, default_factors},
      {"usageThresholds: {cpu: 0, memory: 0}", default_weights, {{"cpu", 0}, {"memory", 0}}, default_factors},
      // Scaling factors: the missing cpu / memory entries are filled in, given ones kept.
      {"estimatedScalingFactors: {cpu: 50}", default_weights, default_thresholds, {{"cpu", 50}, {"memory", 70}}},
      {"estimatedScalingFactors: {memory: 100}", default_weights, default_thresholds, {{"cpu", 85}, {"memory", 100}}},
      {"estimatedScalingFactors: {nvidia.com/gpu: 40}", default_weights, default_thresholds,
       {{"cpu", 85}, {"memory", 70}, {"nvidia.com/gpu", 40}}},
      // Values quoted as strings are still integers.
      {"resourceWeights: {cpu: '3'}", {{"cpu", 3}}, default_thresholds, default_factors},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const auto a = decode(c.text);
    CHECK(a.resource_weights == c.weights);
    CHECK(a.usage_thresholds == c.thresholds);
    CHECK(a.estimated_scaling_factors == c.factors);
  }
}

TEST_CASE("LoadAwareSchedulingArgs: forced estimation seconds", "[load_aware][args]") {
  struct Case {
    const char* text;
    std::optional<int64_t> scheduled;
    std::optional<int64_t> initialized;
  };
  const std::vector<Case> cases = {
      {"{}", std::nullopt, std::nullopt},
      {"estimatedSecondsAfterPodScheduled: 0", 0, std::nullopt},
      {"estimatedSecondsAfterInitialized: 0", std::nullopt, 0},
      {"estimatedSecondsAfterPodScheduled: 300", 300, std::nullopt},
      // Koordinator does not validate these; a negative value forces nothing, as unset.
      {"estimatedSecondsAfterPodScheduled: -1", std::nullopt, std::nullopt},
      {"{estimatedSecondsAfterPodScheduled: 10, estimatedSecondsAfterInitialized: -30}", 10, std::nullopt},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const auto a = decode(c.text);
    CHECK(a.estimated_seconds_after_pod_scheduled == c.scheduled);
    CHECK(a.estimated_seconds_after_initialized == c.initialized);
  }
}

TEST_CASE("LoadAwareSchedulingArgs: aggregated args", "[load_aware][args]") {
  struct Case {
    const char* text;
    bool filters;
    bool scores;
  };
  const std::vector<Case> cases = {
      {"aggregated: {}", false, false},
      {"aggregated: {usageThresholds: {cpu: 60}}", false, false},
      {"aggregated: {usageAggregationType: p99}", false, false},
      {"aggregated: {usageThresholds: {cpu: 60}, usageAggregationType: p50}", true, false},
      {"aggregated: {scoreAggregationType: p90}", false, true},
      {"aggregated: {usageAggregationType: '', scoreAggregationType: ''}", false, false},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const auto a = decode(c.text);
    REQUIRE(a.aggregated);
    CHECK(a.aggregated->filters_aggregated() == c.filters);
    CHECK(a.aggregated->scores_aggregated() == c.scores);
    CHECK(a.aggregated->usage_aggregated_duration == std::chrono::nanoseconds(0));
  }
  // Aggregated usage thresholds are not defaulted.
  CHECK(decode("aggregated: {usageAggregationType: avg}").aggregated->usage_thresholds.empty());
}

TEST_CASE("LoadAwareSchedulingArgs: boundaries that are valid", "[load_aware][args]") {
  const std::vector<std::string> texts = {
      "nodeMetricExpirationSeconds: 1",
      "resourceWeights: {cpu: 1, memory: 100}",
      "dominantResourceWeight: 100",
      "usageThresholds: {cpu: 0, memory: 100}",
      "aggregated: {usageThresholds: {cpu: 0, memory: 100}}",
      "estimatedScalingFactors: {cpu: 1, memory: 100}",
      "aggregated: {usageAggregatedDuration: 0s, scoreAggregatedDuration: 0s}",
      // Koordinator does not validate prodUsageThresholds.
      "prodUsageThresholds: {cpu: 150, memory: -5}",
      // An extra weighted resource is fine once it has a scaling factor.
      "{resourceWeights: {nvidia.com/gpu: 1}, estimatedScalingFactors: {nvidia.com/gpu: 100}}",
  };
  for (const auto& text : texts) {
    INFO(text);
    CHECK(error_of(text).empty());
  }
}

TEST_CASE("LoadAwareSchedulingArgs: validation errors name the field", "[load_aware][args]") {
  struct Case {
    const char* text;
    const char* path;     // the error starts with "<path>: "
    const char* message;  // and contains this
  };
  const std::vector<Case> cases = {
      {"nodeMetricExpirationSeconds: 0", "nodeMetricExpirationSeconds",
       "Invalid value: 0: nodeMetricExpiredSeconds should be a positive value"},
      {"nodeMetricExpirationSeconds: -5", "nodeMetricExpirationSeconds",
       "nodeMetricExpiredSeconds should be a positive value"},
      {"resourceWeights: {cpu: 0}", "resourceWeights[cpu]",
       "Invalid value: 0: resource Weight of cpu should be a positive value, got 0"},
      {"resourceWeights: {memory: -2}", "resourceWeights[memory]",
       "resource Weight of memory should be a positive value, got -2"},
      {"resourceWeights: {cpu: 101}", "resourceWeights[cpu]", "resource Weight of cpu should be less than 100, got 101"},
      {"dominantResourceWeight: -1", "dominantResourceWeight", "dominantResourceWeight should not be a negative value"},
      {"dominantResourceWeight: 101", "dominantResourceWeight", "dominantResourceWeight should be less than 100"},
      {"usageThresholds: {cpu: -1}", "usageThresholds[cpu]",
       "Invalid value: -1: resource Threshold of cpu should be a positive value, got -1"},
      {"usageThresholds: {memory: 101}", "usageThresholds[memory]",
       "resource Threshold of memory should be less than 100, got 101"},
      {"usageThresholds: {nvidia.com/gpu: 200}", "usageThresholds[nvidia.com/gpu]",
       "resource Threshold of nvidia.com/gpu should be less than 100, got 200"},
      {"estimatedScalingFactors: {cpu: 0}", "estimatedScalingFactors[cpu]",
       "estimated resource ScalingFactor of cpu should be a positive value, got 0"},
      {"estimatedScalingFactors: {memory: 101}", "estimatedScalingFactors[memory]",
       "estimated resource ScalingFactor of memory should be less than 100, got 101"},
      {"resourceWeights: {cpu: 1, nvidia.com/gpu: 1}", "estimatedScalingFactors", "Not found: \"nvidia.com/gpu\""},
      {"{resourceWeights: {b.io/x: 1, a.io/x: 1}, estimatedScalingFactors: {}}", "estimatedScalingFactors",
       "Not found: \"a.io/x\""},
      {"aggregated: {usageThresholds: {cpu: 101}}", "aggregated.usageThresholds[cpu]",
       "resource Threshold of cpu should be less than 100, got 101"},
      {"aggregated: {usageThresholds: {cpu: -1}}", "aggregated.usageThresholds[cpu]",
       "resource Threshold of cpu should be a positive value, got -1"},
      {"aggregated: {usageAggregationType: p80}", "aggregated.usageAggregationType",
       "Unsupported value: \"p80\": supported values: \"avg\", \"p50\", \"p90\", \"p95\", \"p99\""},
      {"aggregated: {scoreAggregationType: max}", "aggregated.scoreAggregationType", "Unsupported value: \"max\""},
      {"aggregated: {usageAggregationType: P95}", "aggregated.usageAggregationType", "Unsupported value: \"P95\""},
      {"aggregated: {usageAggregatedDuration: -1m}", "aggregated.usageAggregatedDuration",
       "Invalid value: \"-1m0s\": duration must be >= 0"},
      {"aggregated: {scoreAggregatedDuration: -5s}", "aggregated.scoreAggregatedDuration", "duration must be >= 0"},
      {"estimator: myEstimator", "estimator",
       "estimator \"myEstimator\" is not supported by troupe (only the default estimator)"},
      // The first error in field order, map entries by name.
      {"{usageThresholds: {cpu: 101}, resourceWeights: {cpu: 0}}", "resourceWeights[cpu]", "resource Weight of cpu"},
      {"resourceWeights: {zz: 0, aa: 500}", "resourceWeights[aa]", "should be less than 100, got 500"},
      {"{nodeMetricExpirationSeconds: 0, dominantResourceWeight: -1}", "nodeMetricExpirationSeconds",
       "nodeMetricExpiredSeconds"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const std::string error = error_of(c.text);
    CHECK_THAT(error, Catch::StartsWith(std::string(c.path) + ": "));
    CHECK_THAT(error, Catch::Contains(c.message));
  }
}

TEST_CASE("LoadAwareSchedulingArgs: decoding errors name the field", "[load_aware][args]") {
  struct Case {
    const char* text;
    const char* path;
    const char* message;
  };
  const std::vector<Case> cases = {
      // Strict decoding.
      {"colour: red", "colour", "unknown field"},
      {"nodeMetricExpirationSecond: 60", "nodeMetricExpirationSecond", "unknown field"},
      {"aggregated: {usageThreshold: {cpu: 1}}", "aggregated.usageThreshold", "unknown field"},
      // Wrong shapes and types.
      {"[1, 2]", "", "must be an object, got a list"},
      {"nodeMetricExpirationSeconds: soon", "nodeMetricExpirationSeconds", "must be an integer, got \"soon\""},
      {"nodeMetricExpirationSeconds: 1.5", "nodeMetricExpirationSeconds", "must be an integer"},
      {"dominantResourceWeight: heavy", "dominantResourceWeight", "must be an integer"},
      {"filterExpiredNodeMetrics: maybe", "filterExpiredNodeMetrics", "must be true or false, got \"maybe\""},
      {"enableScheduleWhenNodeMetricsExpired: 2", "enableScheduleWhenNodeMetricsExpired", "must be true or false"},
      {"prodUsageIncludeSys: [true]", "prodUsageIncludeSys", "must be true or false, got a list"},
      {"scoreAccordingProdUsage: {}", "scoreAccordingProdUsage", "must be true or false, got an object"},
      {"allowCustomizeEstimation: x", "allowCustomizeEstimation", "must be true or false"},
      {"resourceWeights: [cpu]", "resourceWeights", "must be an object, got a list"},
      {"resourceWeights: {cpu: high}", "resourceWeights[cpu]", "must be an integer, got \"high\""},
      {"usageThresholds: {cpu: 65%}", "usageThresholds[cpu]", "must be an integer, got \"65%\""},
      {"usageThresholds: {cpu: 65.5}", "usageThresholds[cpu]", "must be an integer"},
      {"prodUsageThresholds: {cpu: x}", "prodUsageThresholds[cpu]", "must be an integer"},
      {"prodUsageThresholds: 5", "prodUsageThresholds", "must be an object"},
      {"estimatedScalingFactors: {memory: [1]}", "estimatedScalingFactors[memory]", "must be an integer, got a list"},
      {"usageThresholds: {'': 5}", "usageThresholds", "resource names must not be empty"},
      {"usageThresholds: {cpu: 5, cpu: 6}", "usageThresholds[cpu]", "duplicate resource"},
      {"estimator: [a]", "estimator", "must be a string, got a list"},
      {"estimatedSecondsAfterPodScheduled: 1m", "estimatedSecondsAfterPodScheduled", "must be an integer"},
      {"estimatedSecondsAfterInitialized: x", "estimatedSecondsAfterInitialized", "must be an integer"},
      {"aggregated: [p95]", "aggregated", "must be an object, got a list"},
      {"aggregated: {usageAggregatedDuration: 5}", "aggregated.usageAggregatedDuration", "missing unit"},
      {"aggregated: {scoreAggregatedDuration: soon}", "aggregated.scoreAggregatedDuration", "soon"},
      {"aggregated: {usageAggregationType: [p95]}", "aggregated.usageAggregationType", "must be a string"},
      {"aggregated: {usageThresholds: {cpu: x}}", "aggregated.usageThresholds[cpu]", "must be an integer"},
      {"supportedResources: nvidia.com/gpu", "supportedResources", "must be a list"},
      {"supportedResources: [{name: gpu}]", "supportedResources[0]", "must be a string, got an object"},
      {"supportedResources: [a, '']", "supportedResources[1]", "resource names must not be empty"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const std::string error = error_of(c.text);
    REQUIRE_FALSE(error.empty());
    if (*c.path) CHECK_THAT(error, Catch::StartsWith(std::string(c.path) + ": "));
    CHECK_THAT(error, Catch::Contains(c.message));
  }
}

TEST_CASE("LoadAwareSchedulingArgs: errors reach a Status through catch_field_errors", "[load_aware][args]") {
  const Status status = config::catch_field_errors([] { decode("dominantResourceWeight: 101"); });
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() == "dominantResourceWeight: Invalid value: 101: dominantResourceWeight should be less than 100");
}

}  // namespace
}  // namespace troupe::plugins::load_aware
