// LoadAwareScheduling's Filter and Score on a node with a NodeMetric:
// measured usage, the estimates of pods koordlet has not measured yet, prod
// and aggregated thresholds, the node's own thresholds, expiry.

#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "plugins/framework/node_extension.hpp"
#include "plugins/load_aware/load_aware_plugin.hpp"
#include "plugins/load_aware/node_assign_info.hpp"
#include "plugins/load_aware/node_load_state.hpp"
#include "test/plugins/builders.hpp"

namespace troupe::plugins::load_aware {
namespace {

using std::chrono::seconds;
using testing::Amounts;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::resources;

LoadAwareScheduling plugin_from(const std::string& yaml) {
  return LoadAwareScheduling(LoadAwareSchedulingArgs::from_yaml(YAML::Load(yaml)));
}

/// koordlet's report: measured at `age` ago, node usage and per-pod usage.
struct MetricBuilder {
  NodeMetric metric;
  explicit MetricBuilder(const Amounts& node_usage, seconds age = seconds(10)) {
    metric.meta.name = "n";
    metric.update_time = timestamp_now() - age;
    metric.node_metric.emplace();
    metric.node_metric->node_usage.resources = resources(node_usage);
  }
  MetricBuilder& pod(const std::string& name, const Amounts& usage, const std::string& priority = "koord-prod") {
    PodMetricInfo p;
    p.name = name;
    p.namespace_name = "default";
    p.pod_usage.resources = resources(usage);
    p.priority = priority;
    metric.pods_metric.push_back(p);
    return *this;
  }
  MetricBuilder& system(const Amounts& usage) {
    metric.node_metric->system_usage.resources = resources(usage);
    return *this;
  }
  MetricBuilder& window(const char* type, std::chrono::minutes duration, const Amounts& usage) {
    AggregatedUsage w;
    w.duration = duration;
    w.usage[type].resources = resources(usage);
    metric.node_metric->aggregated_node_usages.push_back(w);
    return *this;
  }
  std::shared_ptr<const NodeMetric> build() const { return std::make_shared<const NodeMetric>(metric); }
};

/// A pod placed on the node, scheduled `ago` ago.
std::shared_ptr<const PodInfo> placed(const std::string& name, const Amounts& requests, seconds ago,
                                      const std::string& priority_class = "") {
  Pod pod = PodBuilder(name).container(requests).node_name("n").pod();
  if (!priority_class.empty()) pod.meta.labels["koordinator.sh/priority-class"] = priority_class;
  Condition scheduled;
  scheduled.type = "PodScheduled";
  scheduled.status = "True";
  scheduled.last_transition_time = timestamp_now() - ago;
  pod.status.conditions.push_back(scheduled);
  pod.status.phase = "Running";
  return PodInfo::make(std::move(pod));
}

/// A 10-core, 100 GiB node with the load state attached and `metric` applied.
NodeInfo node_with(const MetricBuilder* metric, const std::vector<std::shared_ptr<const PodInfo>>& pods = {},
                   NodeBuilder builder = NodeBuilder("n").allocatable({{"cpu", "10"}, {"memory", "100Gi"}})) {
  NodeInfo info = builder.info(pods);
  info.set_extension(NodeExtensionSlot::kLoad, std::make_unique<NodeLoadState>());
  if (metric != nullptr)
    info.mutable_extension<NodeLoadState>(NodeExtensionSlot::kLoad)->apply_metric(metric->build());
  return info;
}

std::shared_ptr<const PodInfo> incoming(const Amounts& requests, const std::string& priority_class = "") {
  Pod pod = PodBuilder("incoming").container(requests).pod();
  if (!priority_class.empty()) pod.meta.labels["koordinator.sh/priority-class"] = priority_class;
  return PodInfo::make(std::move(pod));
}

PluginStatus filter(const LoadAwareScheduling& plugin, const PodInfo& pod, const NodeInfo& node) {
  CycleState state;
  PreFilterResult result;
  REQUIRE(plugin.pre_filter(state, pod, result).ok());
  return plugin.filter(state, pod, node);
}

int64_t score(const LoadAwareScheduling& plugin, const PodInfo& pod, const NodeInfo& node) {
  CycleState state;
  PreFilterResult result;
  REQUIRE(plugin.pre_filter(state, pod, result).ok());
  ScoreResult scored = plugin.score(state, pod, node);
  REQUIRE(scored.status.ok());
  return scored.score;
}

std::string reason(const PluginStatus& status) { return status.reasons.empty() ? "" : status.reasons.front(); }

}  // namespace

TEST_CASE("LoadAwareScheduling Filter: measured usage plus the pod's estimate against the thresholds",
          "[load_aware]") {
  const auto plugin = plugin_from("{}");  // cpu 65 %, memory 95 %; factors 85 / 70
  struct Case {
    const char* what;
    Amounts node_usage;
    Amounts pod_requests;
    std::string expected;  // "" passes
  };
  const Case cases[] = {
      {"room left", {{"cpu", "5"}, {"memory", "10Gi"}}, {{"cpu", "1"}}, ""},  // 5 + 0.85 = 58.5 %
      {"the pod tips cpu over", {{"cpu", "5"}, {"memory", "10Gi"}}, {{"cpu", "2"}},
       "node(s) cpu usage exceed threshold"},  // 5 + 1.7 = 67 %
      {"already over", {{"cpu", "7"}, {"memory", "10Gi"}}, {}, "node(s) cpu usage exceed threshold"},
      {"memory over", {{"cpu", "1"}, {"memory", "95Gi"}}, {{"memory", "1Gi"}}, "node(s) memory usage exceed threshold"},
      {"at the threshold exactly", {{"cpu", "5.65"}, {"memory", "10Gi"}}, {{"cpu", "1"}}, ""},  // 5.65 + .85 = 65 %
  };
  for (const auto& c : cases) {
    INFO(c.what);
    MetricBuilder metric(c.node_usage);
    const NodeInfo node = node_with(&metric);
    const PluginStatus status = filter(plugin, *incoming(c.pod_requests), node);
    CHECK(reason(status) == c.expected);
    CHECK(status.ok() == c.expected.empty());
    if (!status.ok()) CHECK(status.code == Code::unschedulable);
  }
}

TEST_CASE("LoadAwareScheduling Filter: what passes without a look at the load", "[load_aware]") {
  MetricBuilder hot(Amounts{{"cpu", "9"}, {"memory", "10Gi"}});
  const auto pod = incoming({{"cpu", "1"}});

  SECTION("no NodeMetric") { CHECK(filter(plugin_from("{}"), *pod, node_with(nullptr)).ok()); }
  SECTION("a DaemonSet's pod") {
    Pod ds = PodBuilder("ds").container({{"cpu", "1"}}).pod();
    OwnerReference owner;
    owner.kind = "DaemonSet";
    owner.name = "agent";
    ds.meta.owner_references.push_back(owner);
    CHECK(filter(plugin_from("{}"), *PodInfo::make(ds), node_with(&hot)).ok());
  }
  SECTION("every threshold 0") {
    CHECK(filter(plugin_from("{usageThresholds: {cpu: 0, memory: 0}}"), *pod, node_with(&hot)).ok());
  }
  SECTION("no status.nodeMetric") {
    MetricBuilder empty(Amounts{});
    empty.metric.node_metric.reset();
    CHECK(filter(plugin_from("{}"), *pod, node_with(&empty)).ok());
  }
}

TEST_CASE("LoadAwareScheduling Filter: an expired NodeMetric", "[load_aware]") {
  MetricBuilder stale(Amounts{{"cpu", "1"}}, seconds(200));  // older than the default 180 s
  const auto pod = incoming({{"cpu", "1"}});
  CHECK(reason(filter(plugin_from("{}"), *pod, node_with(&stale))) == "node(s) nodeMetric expired");
  CHECK(filter(plugin_from("{enableScheduleWhenNodeMetricsExpired: true}"), *pod, node_with(&stale)).ok());
  CHECK(filter(plugin_from("{filterExpiredNodeMetrics: false}"), *pod, node_with(&stale)).ok());
  CHECK(filter(plugin_from("{nodeMetricExpirationSeconds: 300}"), *pod, node_with(&stale)).ok());
  MetricBuilder never(Amounts{{"cpu", "1"}});
  never.metric.update_time.reset();
  CHECK(reason(filter(plugin_from("{}"), *pod, node_with(&never))) == "node(s) nodeMetric expired");
}

TEST_CASE("LoadAwareScheduling Filter: pods koordlet has not measured yet count by their estimate",
          "[load_aware]") {
  const auto plugin = plugin_from("{}");
  const auto pod = incoming({{"cpu", "1"}});  // 0.85 core
  SECTION("a pod absent from the metric adds its estimate") {
    MetricBuilder metric(Amounts{{"cpu", "5"}});
    const NodeInfo node = node_with(&metric, {placed("new", {{"cpu", "1"}}, seconds(3600))});
    CHECK(reason(filter(plugin, *pod, node)) == "node(s) cpu usage exceed threshold");  // 5 + .85 + .85 = 67 %
  }
  SECTION("a pod measured for a whole report interval counts by its usage only") {
    MetricBuilder metric(Amounts{{"cpu", "5"}});
    metric.pod("old", {{"cpu", "0.1"}});
    const NodeInfo node = node_with(&metric, {placed("old", {{"cpu", "1"}}, seconds(3600))});
    CHECK(filter(plugin, *pod, node).ok());  // 5 + .85 = 58.5 %
  }
  SECTION("a pod scheduled within the last interval adds what its estimate exceeds its usage by") {
    MetricBuilder metric(Amounts{{"cpu", "5"}});
    metric.pod("recent", {{"cpu", "0.1"}});
    const NodeInfo node = node_with(&metric, {placed("recent", {{"cpu", "1"}}, seconds(30))});
    CHECK(reason(filter(plugin, *pod, node)) == "node(s) cpu usage exceed threshold");  // 5 + .75 + .85 = 66 %
  }
  SECTION("estimatedSecondsAfterPodScheduled keeps the estimate for longer") {
    MetricBuilder metric(Amounts{{"cpu", "5"}});
    metric.pod("warming", {{"cpu", "0.1"}});
    const NodeInfo node = node_with(&metric, {placed("warming", {{"cpu", "1"}}, seconds(600))});
    CHECK(filter(plugin, *pod, node).ok());
    CHECK_FALSE(filter(plugin_from("{estimatedSecondsAfterPodScheduled: 900}"), *pod, node).ok());
  }
  SECTION("a pod placed after the metric arrived is taken in") {
    MetricBuilder metric(Amounts{{"cpu", "5"}});
    NodeInfo node = node_with(&metric);
    CHECK(filter(plugin, *pod, node).ok());
    REQUIRE(node.add_pod(placed("assumed", {{"cpu", "1"}}, seconds(0))));
    CHECK_FALSE(filter(plugin, *pod, node).ok());
    REQUIRE(node.remove_pod("uid-default-assumed"));
    CHECK(filter(plugin, *pod, node).ok());
  }
  SECTION("finished pods are not counted") {
    MetricBuilder metric(Amounts{{"cpu", "5"}});
    auto done = placed("done", {{"cpu", "4"}}, seconds(10));
    Pod finished = *done->pod;
    finished.status.phase = "Succeeded";
    const NodeInfo node = node_with(&metric, {PodInfo::make(finished)});
    CHECK(filter(plugin, *pod, node).ok());
  }
}

TEST_CASE("LoadAwareScheduling Filter: prod pods against prodUsageThresholds", "[load_aware]") {
  const auto plugin = plugin_from("{prodUsageThresholds: {cpu: 30}}");
  // 6 cores measured: 2 by a prod pod koordlet reports as prod, 4 by a batch pod.
  MetricBuilder metric(Amounts{{"cpu", "6"}});
  metric.pod("prod", {{"cpu", "2"}}, "koord-prod").pod("batch", {{"cpu", "4"}}, "koord-batch");
  const NodeInfo node = node_with(&metric, {placed("prod", {{"cpu", "2"}}, seconds(3600), "koord-prod"),
                                            placed("batch", {{"kubernetes.io/batch-cpu", "4000"}}, seconds(3600),
                                                   "koord-batch")});
  // prod: 2 + 0.85 = 28.5 % ≤ 30; with 1.7 more: 37 % > 30.
  CHECK(filter(plugin, *incoming({{"cpu", "1"}}, "koord-prod"), node).ok());
  CHECK(reason(filter(plugin, *incoming({{"cpu", "2"}}, "koord-prod"), node)) == "node(s) cpu usage exceed threshold");
  // A batch pod is held to usageThresholds on the whole node: 6 + 0.85 = 68.5 % > 65.
  CHECK_FALSE(filter(plugin, *incoming({{"kubernetes.io/batch-cpu", "1000"}}, "koord-batch"), node).ok());
  SECTION("prodUsageIncludeSys adds the system's usage") {
    MetricBuilder with_sys = metric;
    with_sys.system({{"cpu", "1"}});
    const NodeInfo sys_node = node_with(&with_sys, {placed("prod", {{"cpu", "2"}}, seconds(3600), "koord-prod")});
    CHECK(filter(plugin, *incoming({{"cpu", "1"}}, "koord-prod"), sys_node).ok());
    CHECK_FALSE(filter(plugin_from("{prodUsageThresholds: {cpu: 30}, prodUsageIncludeSys: true}"),
                       *incoming({{"cpu", "1"}}, "koord-prod"), sys_node)
                    .ok());  // 1 + 2 + .85 = 38.5 %
  }
}

TEST_CASE("LoadAwareScheduling Filter: aggregated thresholds read the aggregated window", "[load_aware]") {
  const auto plugin = plugin_from(
      "{aggregated: {usageThresholds: {cpu: 50}, usageAggregationType: p95, usageAggregatedDuration: 5m}}");
  const auto pod = incoming({{"cpu", "1"}});
  MetricBuilder calm(Amounts{{"cpu", "9"}});  // the latest usage is not read
  calm.window("p95", std::chrono::minutes(5), {{"cpu", "3"}});
  CHECK(filter(plugin, *pod, node_with(&calm)).ok());
  MetricBuilder busy(Amounts{{"cpu", "1"}});
  busy.window("p95", std::chrono::minutes(5), {{"cpu", "4.5"}});
  CHECK(reason(filter(plugin, *pod, node_with(&busy))) == "node(s) cpu aggregated usage exceed threshold");
  SECTION("no such window: every pod's estimate") {
    MetricBuilder other(Amounts{{"cpu", "9"}});
    other.window("p95", std::chrono::minutes(10), {{"cpu", "9"}});
    CHECK(filter(plugin, *pod, node_with(&other, {placed("a", {{"cpu", "3"}}, seconds(3600))})).ok());
    CHECK_FALSE(filter(plugin, *pod, node_with(&other, {placed("a", {{"cpu", "5"}}, seconds(3600))})).ok());
  }
}

TEST_CASE("LoadAwareScheduling Filter: the node's annotation and raw allocatable", "[load_aware]") {
  const auto plugin = plugin_from("{}");
  const auto pod = incoming({{"cpu", "1"}});
  MetricBuilder metric(Amounts{{"cpu", "7"}});
  auto base = NodeBuilder("n").allocatable({{"cpu", "10"}, {"memory", "100Gi"}});
  CHECK_FALSE(filter(plugin, *pod, node_with(&metric, {}, base)).ok());

  Node relaxed = base.node();
  relaxed.meta.annotations[kAnnotationUsageThresholds] = R"({"usageThresholds":{"cpu":90}})";
  NodeInfo node = node_with(&metric);
  node.set_node(std::make_shared<const Node>(relaxed));
  CHECK(filter(plugin, *pod, node).ok());

  // koordlet's CPU normalisation inflated allocatable: the raw figure is compared.
  Node raw = base.node();
  raw.status.allocatable = resources({{"cpu", "20"}, {"memory", "100Gi"}});
  MetricBuilder lighter(Amounts{{"cpu", "5"}});
  NodeInfo raw_node = node_with(&lighter);
  raw_node.set_node(std::make_shared<const Node>(raw));
  CHECK(filter(plugin, *pod, raw_node).ok());  // 5.85 / 20
  raw.meta.annotations["node.koordinator.sh/raw-allocatable"] = R"({"cpu":"8"})";
  raw_node.set_node(std::make_shared<const Node>(raw));
  CHECK_FALSE(filter(plugin, *pod, raw_node).ok());  // 5.85 / 8
}

TEST_CASE("LoadAwareScheduling Score: the free share after the pod, weighted", "[load_aware]") {
  struct Case {
    const char* what;
    std::string args;
    Amounts node_usage;
    int64_t expected;
  };
  // The pod: 1 core, 10 GiB -> 0.85 core, 7 GiB estimated.
  const Case cases[] = {
      {"cpu and memory, equal weights", "{}", {{"cpu", "4"}, {"memory", "33Gi"}}, 55},  // (51 + 60) / 2
      {"cpu weighted 3", "{resourceWeights: {cpu: 3, memory: 1}}", {{"cpu", "4"}, {"memory", "33Gi"}}, 53},
      // With a dominant weight resourceWeights has no default: only the least free resource counts.
      {"dominant resource", "{dominantResourceWeight: 1}", {{"cpu", "4"}, {"memory", "33Gi"}}, 51},
      {"dominant resource and weights", "{dominantResourceWeight: 1, resourceWeights: {cpu: 1, memory: 1}}",
       {{"cpu", "4"}, {"memory", "33Gi"}}, 54},  // (51 + 60 + 51) / 3
      {"idle node", "{}", {{"cpu", "0"}, {"memory", "0"}}, 92},  // (91 + 93) / 2
  };
  const auto pod = incoming({{"cpu", "1"}, {"memory", "10Gi"}});
  for (const auto& c : cases) {
    INFO(c.what);
    MetricBuilder metric(c.node_usage);
    CHECK(score(plugin_from(c.args), *pod, node_with(&metric)) == c.expected);
  }
  SECTION("0 without a fresh NodeMetric") {
    CHECK(score(plugin_from("{}"), *pod, node_with(nullptr)) == 0);
    MetricBuilder stale(Amounts{{"cpu", "0"}}, seconds(200));
    CHECK(score(plugin_from("{filterExpiredNodeMetrics: false}"), *pod, node_with(&stale)) == 0);
  }
  SECTION("scoreAccordingProdUsage scores a prod pod by prod usage") {
    MetricBuilder metric(Amounts{{"cpu", "8"}, {"memory", "0"}});
    metric.pod("prod", {{"cpu", "1"}}, "koord-prod");
    const NodeInfo node = node_with(&metric, {placed("prod", {{"cpu", "1"}}, seconds(3600), "koord-prod")});
    const auto prod_pod = incoming({{"cpu", "1"}, {"memory", "10Gi"}}, "koord-prod");
    CHECK(score(plugin_from("{}"), *prod_pod, node) == 52);                                // (11 + 93) / 2
    CHECK(score(plugin_from("{scoreAccordingProdUsage: true}"), *prod_pod, node) == 87);  // (81 + 93) / 2
    // Not a prod pod: the node's usage.
    CHECK(score(plugin_from("{scoreAccordingProdUsage: true}"), *incoming({{"cpu", "1"}, {"memory", "10Gi"}}, "koord-mid"),
                node) == 60);  // mid-* not requested: estimate 0 -> (20 + 100) / 2
  }
}

}  // namespace troupe::plugins::load_aware

namespace troupe::plugins::load_aware {

TEST_CASE("LoadAwareScheduling Filter: a prod pod koordlet does not report as prod counts by its whole estimate",
          "[load_aware]") {
  const auto plugin = plugin_from("{prodUsageThresholds: {cpu: 30}}");
  MetricBuilder metric(Amounts{{"cpu", "3"}});
  metric.pod("mislabelled", {{"cpu", "3"}}, "koord-batch");
  const NodeInfo node = node_with(&metric, {placed("mislabelled", {{"cpu", "1"}}, seconds(3600), "koord-prod")});
  // Prod usage 0, its estimate 0.85 core, the pod's 1.7: 25.5 % (3 cores of measured usage would make it 47 %).
  CHECK(filter(plugin, *incoming({{"cpu", "2"}}, "koord-prod"), node).ok());
}

TEST_CASE("LoadAwareScheduling Filter: a podsMetric entry without usage is no report", "[load_aware]") {
  MetricBuilder metric(Amounts{{"cpu", "5"}});
  metric.pod("silent", {});
  const NodeInfo node = node_with(&metric, {placed("silent", {{"cpu", "1"}}, seconds(3600))});
  // Not reported: its whole estimate counts, 5 + .85 + .85 = 67 %.
  CHECK_FALSE(filter(plugin_from("{}"), *incoming({{"cpu", "1"}}), node).ok());
}

TEST_CASE("LoadAwareScheduling Filter: the estimation window after Initialized", "[load_aware]") {
  MetricBuilder metric(Amounts{{"cpu", "5"}});
  metric.pod("starting", {{"cpu", "0.1"}});
  auto starting = [](const std::string& annotation) {
    Pod pod = *placed("starting", {{"cpu", "1"}}, seconds(3600))->pod;
    Condition initialized;
    initialized.type = "Initialized";
    initialized.status = "True";
    initialized.last_transition_time = timestamp_now() - seconds(100);
    pod.status.conditions.push_back(initialized);
    if (!annotation.empty()) pod.meta.annotations[kAnnotationEstimatedSecondsAfterInitialized] = annotation;
    return PodInfo::make(std::move(pod));
  };
  const auto pod = incoming({{"cpu", "1"}});
  // Initialized 100 s ago: within 300 s its estimate still counts beyond its usage (5 + .75 + .85 = 66 %).
  CHECK(filter(plugin_from("{}"), *pod, node_with(&metric, {starting("")})).ok());
  CHECK_FALSE(filter(plugin_from("{estimatedSecondsAfterInitialized: 300}"), *pod, node_with(&metric, {starting("")}))
                  .ok());
  CHECK(filter(plugin_from("{estimatedSecondsAfterInitialized: 60}"), *pod, node_with(&metric, {starting("")})).ok());
  // The pod's own window, with allowCustomizeEstimation: 0 turns it off, 300 turns it on.
  CHECK(filter(plugin_from("{estimatedSecondsAfterInitialized: 300, allowCustomizeEstimation: true}"), *pod,
               node_with(&metric, {starting("0")}))
            .ok());
  CHECK_FALSE(filter(plugin_from("{allowCustomizeEstimation: true}"), *pod, node_with(&metric, {starting("300")})).ok());
  CHECK(filter(plugin_from("{}"), *pod, node_with(&metric, {starting("300")})).ok());  // not allowed: ignored
}

TEST_CASE("LoadAwareScheduling Filter: the node's annotation sets prod and aggregated thresholds", "[load_aware]") {
  const auto plugin = plugin_from("{}");
  MetricBuilder metric(Amounts{{"cpu", "3"}});
  metric.pod("prod", {{"cpu", "2"}}, "koord-prod");
  metric.window("p95", std::chrono::minutes(5), {{"cpu", "6"}});
  auto annotated = [&](const std::string& text) {
    Node n = NodeBuilder("n").allocatable({{"cpu", "10"}, {"memory", "100Gi"}}).node();
    n.meta.annotations[kAnnotationUsageThresholds] = text;
    NodeInfo info = node_with(&metric, {placed("prod", {{"cpu", "2"}}, seconds(3600), "koord-prod")});
    info.set_node(std::make_shared<const Node>(n));
    return info;
  };
  const auto prod_pod = incoming({{"cpu", "1"}}, "koord-prod");
  CHECK(filter(plugin, *prod_pod, annotated("{}")).ok());  // 3 + .85 = 38.5 % of the node
  // Prod thresholds from the node: 2 + .85 = 28.5 % of prod usage against 20.
  CHECK(reason(filter(plugin, *prod_pod, annotated(R"({"prodUsageThresholds":{"cpu":20}})"))) ==
        "node(s) cpu usage exceed threshold");
  // Aggregated thresholds from the node: the p95 window, 6 + .85 = 68.5 % against 60.
  CHECK(reason(filter(plugin, *incoming({{"cpu", "1"}}),
                      annotated(R"({"aggregatedUsage":{"usageThresholds":{"cpu":60},"usageAggregationType":"p95"}})"))) ==
        "node(s) cpu aggregated usage exceed threshold");
}

TEST_CASE("LoadAwareScheduling Score: an aggregated score window", "[load_aware]") {
  MetricBuilder metric(Amounts{{"cpu", "1"}, {"memory", "0"}});
  metric.window("p95", std::chrono::minutes(5), {{"cpu", "4"}, {"memory", "0"}});
  metric.window("p95", std::chrono::minutes(10), {{"cpu", "6"}, {"memory", "0"}});
  const auto pod = incoming({{"cpu", "1"}, {"memory", "10Gi"}});  // 0.85 core, 7 GiB
  CHECK(score(plugin_from("{}"), *pod, node_with(&metric)) == 87);  // (81 + 93) / 2
  // The longest p95 window: (100 − 68.5 → 31 + 93) / 2.
  CHECK(score(plugin_from("{aggregated: {scoreAggregationType: p95}}"), *pod, node_with(&metric)) == 62);
  CHECK(score(plugin_from("{aggregated: {scoreAggregationType: p95, scoreAggregatedDuration: 5m}}"), *pod,
              node_with(&metric)) == 72);  // (51 + 93) / 2
  // No such window: every pod's estimate, here only the pod's own: (91 + 93) / 2.
  CHECK(score(plugin_from("{aggregated: {scoreAggregationType: p99, scoreAggregatedDuration: 5m}}"), *pod,
              node_with(&metric)) == 92);
}

}  // namespace troupe::plugins::load_aware

namespace troupe::plugins::load_aware {

TEST_CASE("LoadAwareScheduling debug service: what the plugin holds of a node", "[load_aware]") {
  const auto plugin = plugin_from("{}");
  SECTION("a node without a NodeMetric: nothing") {
    CHECK(node_assign_info_json(NodeBuilder("n").info(), plugin.estimator(), plugin.args()) == "{}");
  }
  SECTION("the sums and the pods each counted") {
    MetricBuilder metric(Amounts{{"cpu", "5"}, {"memory", "10Gi"}});
    metric.pod("old", {{"cpu", "0.1"}, {"memory", "1Gi"}});
    // "old" was measured for a whole interval; "new" is not in the metric yet.
    const NodeInfo node = node_with(&metric, {placed("old", {{"cpu", "1"}, {"memory", "1Gi"}}, seconds(3600), "koord-prod"),
                                              placed("new", {{"cpu", "2"}, {"memory", "2Gi"}}, seconds(5))});
    auto doc = parse_json(node_assign_info_json(node, plugin.estimator(), plugin.args()));
    REQUIRE(doc);
    const auto& json = **doc;
    REQUIRE(json["pods"].IsArray());
    CHECK(json["pods"].Size() == 2);
    CHECK(std::string(json["pods"][0]["pod"]["metadata"]["name"].GetString()) == "old");
    CHECK(json["pods"][0]["timestamp"].IsString());
    // new: cpu 2 × 85 % = 1.7 cores, memory 2 GiB × 70 %.
    CHECK(std::string(json["nodeDelta"]["cpu"].GetString()) == "1700m");
    CHECK(std::string(json["nodeEstimated"]["cpu"].GetString()) == "2550m");
    CHECK(to_json(json["nodeDeltaPods"]) == R"(["default/new"])");
    CHECK(to_json(json["nodeEstimatedPods"]) == R"(["default/new","default/old"])");
    // old is prod and reported as koord-prod: its usage is the prod usage; new
    // (Burstable, so prod by default) is not reported: its whole estimate is prod delta.
    CHECK(std::string(json["prodUsage"]["cpu"].GetString()) == "100m");
    CHECK(std::string(json["prodDelta"]["cpu"].GetString()) == "1700m");
    CHECK(to_json(json["prodDeltaPods"]) == R"(["default/new"])");
  }
}

}  // namespace troupe::plugins::load_aware
