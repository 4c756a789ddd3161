#include <catch2/catch.hpp>

#include <vector>

#include "codec_test_support.hpp"
#include "model/node_metric.hpp"

using namespace troupe;
using namespace troupe::test;

namespace {

const char* kMetricJson = R"({
  "apiVersion": "slo.koordinator.sh/v1alpha1", "kind": "NodeMetric",
  "metadata": {"name": "node-1"},
  "spec": {"metricCollectPolicy": {"aggregateDurationSeconds": 300, "reportIntervalSeconds": 60,
                                   "nodeAggregatePolicy": {"durations": ["5m0s", "10m0s"]}}},
  "status": {
    "updateTime": "2026-03-01T10:00:00Z",
    "nodeMetric": {
      "nodeUsage": {"resources": {"cpu": "13457m", "memory": "61215948Ki"},
                    "devices": [{"type": "gpu", "minor": 0, "health": true}]},
      "systemUsage": {"resources": {"cpu": "500m", "memory": "2Gi"}},
      "aggregatedNodeUsages": [
        {"usage": {"avg": {"resources": {"cpu": "10", "memory": "50Gi"}}, "p90": {"resources": {"cpu": "12"}}},
         "duration": "5m0s"}]},
    "podsMetric": [{"namespace": "default", "name": "web-0", "priority": "koord-prod", "qos": "LS",
                    "podUsage": {"resources": {"cpu": "1200m", "memory": "2Gi"}}}],
    "prodReclaimableMetric": {"resource": {"resources": {"cpu": "0"}}}
  }
})";

}  // namespace

TEST_CASE("decode_node_metric reads node, system, aggregated and pod usage", "[node_metric]") {
  NodeMetric metric = must(decode_node_metric_json(kMetricJson), kMetricJson);
  REQUIRE(metric.collect_policy.has_value());
  CHECK(metric.collect_policy->aggregate_duration_seconds == 300);
  CHECK(metric.collect_policy->report_interval_seconds == 60);
  CHECK(metric.update_time == *parse_timestamp("2026-03-01T10:00:00Z"));
  REQUIRE(metric.node_metric.has_value());
  CHECK(metric.node_metric->node_usage.resources.at("cpu").milli_value() == 13457);
  CHECK(metric.node_metric->system_usage.resources.at("memory").value() == 2LL << 30);
  REQUIRE(metric.node_metric->aggregated_node_usages.size() == 1);
  const AggregatedUsage& aggregated = metric.node_metric->aggregated_node_usages[0];
  CHECK(aggregated.duration == std::chrono::minutes(5));
  CHECK(aggregated.usage.at("avg").resources.at("cpu").value() == 10);
  CHECK(aggregated.usage.at("p90").resources.at("cpu").value() == 12);
  REQUIRE(metric.pods_metric.size() == 1);
  CHECK(metric.pods_metric[0].namespace_name == "default");
  CHECK(metric.pods_metric[0].pod_usage.resources.at("cpu").milli_value() == 1200);
  CHECK(metric.pods_metric[0].priority == "koord-prod");
  CHECK(metric.pods_metric[0].qos == "LS");
  check_round_trip(metric, kMetricJson);
}

TEST_CASE("a new report rewrites usage and keeps device detail", "[node_metric]") {
  NodeMetric metric = must(decode_node_metric_json(kMetricJson), kMetricJson);
  metric.update_time = *parse_timestamp("2026-03-01T10:01:00Z");
  metric.node_metric->node_usage.resources["cpu"] = Quantity::from_milli(20000);
  metric.node_metric->aggregated_node_usages[0].usage.erase("p90");
  metric.pods_metric.clear();
  auto out = parse_json(encode(metric));
  REQUIRE(out.ok());
  CHECK(get_string(**out, "status", "updateTime") == "2026-03-01T10:01:00Z");
  CHECK(get_string(**out, "status", "nodeMetric", "nodeUsage", "resources", "cpu") == "20");
  CHECK(get_string(**out, "status", "nodeMetric", "nodeUsage", "resources", "memory") == "61215948Ki");
  CHECK(find_path(**out, "status", "nodeMetric", "nodeUsage", "devices") != nullptr);
  const auto& usage = (**out)["status"]["nodeMetric"]["aggregatedNodeUsages"][0]["usage"];
  CHECK(usage.HasMember("avg"));
  CHECK_FALSE(usage.HasMember("p90"));
  CHECK(find_path(**out, "status", "podsMetric") == nullptr);
  CHECK(find_path(**out, "status", "prodReclaimableMetric") != nullptr);
}

TEST_CASE("decode_node_metric errors name the field", "[node_metric]") {
  struct Case {
    const char* json;
    const char* error;
  };
  const Case cases[] = {
      {R"({"metadata": {"name": "n"}, "status": {"updateTime": "10:00"}})",
       "status.updateTime: invalid RFC 3339 time \"10:00\": expected YYYY-MM-DDTHH:MM:SS"},
      {R"({"metadata": {"name": "n"}, "status": {"nodeMetric": {"nodeUsage": {"resources": {"cpu": "x"}}}}})",
       "status.nodeMetric.nodeUsage.resources.cpu: invalid quantity \"x\": ..."},
      {R"({"metadata": {"name": "n"}, "status": {"nodeMetric": {"aggregatedNodeUsages": [{"usage": {"p90": "12"}}]}}})",
       "status.nodeMetric.aggregatedNodeUsages[0].usage.p90: Invalid value: string: must be an object"},
      {R"({"metadata": {"name": "n"}, "status": {"nodeMetric": {"aggregatedNodeUsages":
           [{"usage": {"avg": {"resources": {"memory": "1Zi"}}}}]}}})",
       "status.nodeMetric.aggregatedNodeUsages[0].usage.avg.resources.memory: invalid quantity \"1Zi\": ..."},
      {R"({"metadata": {"name": "n"}, "status": {"podsMetric": [{"name": "p", "podUsage": []}]}})",
       "status.podsMetric[0].podUsage: Invalid value: array: must be an object"},
      {R"({"metadata": {"name": "n"}, "spec": {"metricCollectPolicy": {"reportIntervalSeconds": "60"}}})",
       "spec.metricCollectPolicy.reportIntervalSeconds: Invalid value: string: must be an integer"},
  };
  for (const auto& c : cases) check_error(decode_node_metric_json(c.json), c.json, c.error);
}
