// The default estimator, the threshold check, the score formula, aggregated
// windows and the node's usage-thresholds annotation: table-driven.

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "plugins/load_aware/node_load_state.hpp"
#include "plugins/load_aware/node_usage.hpp"
#include "plugins/load_aware/pod_load_estimate.hpp"
#include "plugins/load_aware/queueing_hint.hpp"
#include "test/plugins/builders.hpp"

namespace troupe::plugins::load_aware {
namespace {

using testing::Amounts;
using testing::PodBuilder;
using testing::resources;

LoadAwareSchedulingArgs args_from(const std::string& yaml) { return LoadAwareSchedulingArgs::from_yaml(YAML::Load(yaml)); }

/// A pod of one container with these requests and limits.
Pod pod_with(const Amounts& requests, const Amounts& limits) {
  Pod pod = PodBuilder("p").container(requests).pod();
  pod.spec.containers[0].resources.limits = resources(limits);
  return pod;
}

}  // namespace

TEST_CASE("estimator: max(request, limit) × factor, defaults for nothing requested, capped at the limit",
          "[load_aware]") {
  struct Case {
    const char* what;
    Amounts requests, limits;
    std::string label;  // koordinator.sh/priority-class
    std::string args = "{}";
    int64_t cpu, memory;  // millicores, bytes
  };
  const Case cases[] = {
      {"requests × 85 % / 70 %", {{"cpu", "1"}, {"memory", "1Gi"}}, {}, "", "{}", 850, 751619277},
      {"nothing requested: 250m and 200 MiB", {}, {}, "", "{}", 250, 209715200},
      {"the limit when above the request", {{"cpu", "1"}}, {{"cpu", "2"}}, "", "{}", 1700, 209715200},
      {"capped at the limit", {{"cpu", "4"}}, {{"cpu", "2"}}, "", "{}", 2000, 209715200},
      {"factor 100", {{"cpu", "3"}, {"memory", "100Mi"}}, {}, "", "{estimatedScalingFactors: {cpu: 100, memory: 100}}",
       3000, 104857600},
      {"rounded half away from zero", {{"cpu", "10m"}}, {}, "", "{estimatedScalingFactors: {cpu: 85}}", 9, 209715200},
      {"batch: batch-cpu and batch-memory", {{"kubernetes.io/batch-cpu", "1000"}, {"kubernetes.io/batch-memory", "1Gi"}},
       {}, "koord-batch", "{}", 850, 751619277},
      {"batch without batch resources: the defaults", {{"cpu", "2"}}, {}, "koord-batch", "{}", 250, 209715200},
      {"mid without mid resources: nothing", {{"cpu", "2"}}, {}, "koord-mid", "{}", 0, 0},
      {"mid: mid-cpu and mid-memory", {{"kubernetes.io/mid-cpu", "2000"}, {"kubernetes.io/mid-memory", "1Gi"}}, {},
       "koord-mid", "{}", 1700, 751619277},
      {"free: nothing", {{"cpu", "2"}}, {}, "koord-free", "{}", 0, 0},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    Pod pod = pod_with(c.requests, c.limits);
    if (!c.label.empty()) pod.meta.labels["koordinator.sh/priority-class"] = c.label;
    const auto args = args_from(c.args);
    const LoadEstimator estimator(args, load_axes_of(args));
    const LoadVector e = estimator.estimate(estimate_inputs_of(pod));
    CHECK(e[0] == c.cpu);     // axes: cpu, memory
    CHECK(e[1] == c.memory);
    CHECK(e.present == (c.cpu != 0 || c.memory != 0));
  }
}

TEST_CASE("estimator: the pod's own scaling factors only with allowCustomizeEstimation", "[load_aware]") {
  struct Case {
    const char* what;
    std::string annotation;
    bool allow;
    int64_t cpu, memory;
  };
  const Case cases[] = {
      {"allowed: the pod's cpu factor, memory from the args", R"({"cpu": 50})", true, 1000, 751619277},
      {"not allowed: the args", R"({"cpu": 50})", false, 1700, 751619277},
      {"malformed: the args", R"({"cpu": "half"})", true, 1700, 751619277},
      {"not JSON: the args", "cpu=50", true, 1700, 751619277},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    Pod pod = pod_with({{"cpu", "2"}, {"memory", "1Gi"}}, {});
    pod.meta.annotations[kAnnotationEstimatedScalingFactors] = c.annotation;
    const auto args = args_from(c.allow ? "{allowCustomizeEstimation: true}" : "{}");
    const LoadEstimator estimator(args, load_axes_of(args));
    const LoadVector e = estimator.estimate(estimate_inputs_of(pod));
    CHECK(e[0] == c.cpu);
    CHECK(e[1] == c.memory);
  }
}

TEST_CASE("estimate inputs: the seconds annotations when they are integers", "[load_aware]") {
  struct Case {
    std::string text;
    std::optional<int64_t> seconds;
  };
  const Case cases[] = {{"30", 30},           {"+30", 30},           {"0", 0},
                        {"-1", -1},           {"", std::nullopt},    {"30s", std::nullopt},
                        {"x", std::nullopt},  {" 30", std::nullopt}, {"+-3", std::nullopt},
                        {"+", std::nullopt},  {"99999999999999999999", std::nullopt}};
  for (const auto& c : cases) {
    INFO(c.text);
    Pod pod = pod_with({}, {});
    pod.meta.annotations[kAnnotationEstimatedSecondsAfterPodScheduled] = c.text;
    pod.meta.annotations[kAnnotationEstimatedSecondsAfterInitialized] = c.text;
    const auto in = estimate_inputs_of(pod);
    CHECK(in.custom_seconds_after_scheduled == c.seconds);
    CHECK(in.custom_seconds_after_initialized == c.seconds);
  }
}

TEST_CASE("over_threshold: round(used / allocatable × 100) > threshold fails", "[load_aware]") {
  struct Case {
    int64_t used, allocatable, threshold;
    bool over;
  };
  const Case cases[] = {
      {6500, 10000, 65, false},  // exactly at the threshold passes
      {6549, 10000, 65, false},  // 65.49 rounds to 65
      {6550, 10000, 65, true},   // 65.5 rounds to 66
      {9999, 10000, 0, false},   // no threshold
      {5, 0, 10, false},         // no allocatable
      {20000, 10000, 100, true},
      {0, 10000, 1, false},
  };
  for (const auto& c : cases) {
    INFO(c.used << "/" << c.allocatable << " vs " << c.threshold);
    LoadVector used, alloc, thresholds;
    used[0] = c.used;
    alloc[0] = c.allocatable;
    thresholds[0] = c.threshold;
    CHECK(over_threshold(used, alloc, thresholds, 1).has_value() == c.over);
  }
  // The first resource over its threshold is named, in axis order.
  LoadVector used, alloc, thresholds;
  used[0] = 10, used[1] = 90, used[2] = 95;
  alloc[0] = alloc[1] = alloc[2] = 100;
  thresholds[0] = 50, thresholds[1] = 80, thresholds[2] = 80;
  CHECK(over_threshold(used, alloc, thresholds, 3) == std::optional<size_t>(1));
}

TEST_CASE("load_score: weighted free share, the dominant resource's weight on the least free", "[load_aware]") {
  struct Case {
    const char* what;
    std::vector<int64_t> used, alloc, weights;
    int64_t dominant;
    int64_t score;
  };
  const Case cases[] = {
      {"one resource half used", {50}, {100}, {1}, 0, 50},
      {"two resources, equal weights", {20, 60}, {100, 100}, {1, 1}, 0, 60},           // (80 + 40) / 2
      {"two resources, weighted", {20, 60}, {100, 100}, {3, 1}, 0, 70},                // (240 + 40) / 4
      {"over allocatable scores 0", {150, 0}, {100, 100}, {1, 1}, 0, 50},             // (0 + 100) / 2
      {"no allocatable scores 0", {0, 0}, {0, 100}, {1, 1}, 0, 50},
      {"integer division per resource", {1, 0}, {3, 100}, {1, 0}, 0, 66},            // 2 × 100 / 3
      {"dominant weight adds the least free", {20, 60}, {100, 100}, {1, 1}, 2, 50},   // (120 + 2 × 40) / 4
      {"dominant only", {20, 60}, {100, 100}, {0, 0}, 1, 40},
      {"dominant reads unweighted resources", {90, 10}, {100, 100}, {0, 1}, 1, 50},  // (90 + 10) / 2
      {"no weights at all", {20}, {100}, {0}, 0, 0},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    LoadVector used, alloc, weights;
    for (size_t i = 0; i < c.used.size(); ++i) used[i] = c.used[i], alloc[i] = c.alloc[i], weights[i] = c.weights[i];
    CHECK(load_score(used, alloc, weights, c.used.size(), c.dominant) == c.score);
  }
}

TEST_CASE("aggregated_usage: the exact window, or the longest when the duration is 0", "[load_aware]") {
  NodeMetricInfo metric;
  metric.node_usage.resources = resources({{"cpu", "1"}});
  auto window = [](std::chrono::nanoseconds d, const char* type, const char* cpu) {
    AggregatedUsage w;
    w.duration = d;
    w.usage[type].resources = resources({{"cpu", cpu}});
    return w;
  };
  using std::chrono::minutes;
  metric.aggregated_node_usages = {window(minutes(5), "p95", "5"), window(minutes(10), "p95", "10"),
                                   window(minutes(30), "avg", "30")};
  auto cpu_of = [](const ResourceList* list) { return list == nullptr ? -1 : list->find("cpu")->second.milli_value(); };
  CHECK(cpu_of(aggregated_usage(metric, "p95", minutes(5))) == 5000);
  CHECK(cpu_of(aggregated_usage(metric, "p95", minutes(0))) == 10000);  // the longest p95 window
  CHECK(cpu_of(aggregated_usage(metric, "avg", minutes(0))) == 30000);
  CHECK(cpu_of(aggregated_usage(metric, "p99", minutes(0))) == 1000);   // none: the latest usage
  CHECK(aggregated_usage(metric, "p95", minutes(15)) == nullptr);       // no such window
  CHECK(aggregated_usage(metric, "p99", minutes(5)) == nullptr);
}

TEST_CASE("usage-thresholds annotation: each field given replaces the profile's", "[load_aware]") {
  struct Case {
    const char* what;
    std::optional<std::string> text;
    bool parsed;
    ResourceInts usage, prod;
    bool aggregated;
  };
  const Case cases[] = {
      {"absent", std::nullopt, false, {}, {}, false},
      {"usage", R"({"usageThresholds":{"cpu":80}})", true, {{"cpu", 80}}, {}, false},
      {"prod", R"({"prodUsageThresholds":{"memory":70}})", true, {}, {{"memory", 70}}, false},
      {"aggregated", R"({"aggregatedUsage":{"usageThresholds":{"cpu":60},"usageAggregationType":"p95",
                          "usageAggregatedDuration":"5m"}})",
       true, {}, {}, true},
      {"aggregated without a type counts as absent", R"({"aggregatedUsage":{"usageThresholds":{"cpu":60}}})", false,
       {}, {}, false},
      {"all empty", R"({"usageThresholds":{}})", false, {}, {}, false},
      {"not JSON", "cpu=80", false, {}, {}, false},
      {"a threshold that is not an integer", R"({"usageThresholds":{"cpu":"80"}})", false, {}, {}, false},
      {"a bad duration", R"({"aggregatedUsage":{"usageThresholds":{"cpu":60},"usageAggregationType":"p95",
                              "usageAggregatedDuration":"five"}})",
       false, {}, {}, false},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto parsed = parse_custom_usage_thresholds(c.text ? &*c.text : nullptr);
    REQUIRE(parsed.has_value() == c.parsed);
    if (!parsed) continue;
    CHECK(parsed->usage_thresholds == c.usage);
    CHECK(parsed->prod_usage_thresholds == c.prod);
    CHECK(parsed->aggregated.has_value() == c.aggregated);
  }
}

}  // namespace troupe::plugins::load_aware

namespace troupe::plugins::load_aware {

TEST_CASE("queueing hint: a NodeMetric report retries rejected pods only when it may make room", "[load_aware]") {
  auto report = [](const Amounts& usage) {
    NodeMetric m;
    m.node_metric.emplace();
    m.node_metric->node_usage.resources = resources(usage);
    return m;
  };
  const NodeMetric busy = report({{"cpu", "6"}, {"memory", "10Gi"}});
  struct Case {
    const char* what;
    std::optional<NodeMetric> before, after;
    bool retry;
  };
  NodeMetric empty;
  const Case cases[] = {
      {"the node's first report", std::nullopt, busy, true},
      {"the report deleted", busy, std::nullopt, true},
      {"the same usage", busy, busy, false},
      {"more cpu", busy, report({{"cpu", "7"}, {"memory", "10Gi"}}), false},
      {"less cpu", busy, report({{"cpu", "5"}, {"memory", "10Gi"}}), true},
      {"less memory", busy, report({{"cpu", "6"}, {"memory", "9Gi"}}), true},
      {"a resource reported for the first time", report({{"cpu", "6"}}), busy, true},
      {"a resource no longer reported", busy, report({{"cpu", "6"}}), false},
      {"no status.nodeMetric before", empty, busy, true},
      {"no status.nodeMetric now", busy, empty, true},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(node_metric_may_make_room(c.before ? &*c.before : nullptr, c.after ? &*c.after : nullptr) == c.retry);
  }
}

}  // namespace troupe::plugins::load_aware
