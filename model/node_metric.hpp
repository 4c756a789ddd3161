#pragma once
// Koordinator's NodeMetric (slo.koordinator.sh/v1alpha1, cluster scoped, named
// after the node): measured usage of the node and of its pods, which
// LoadAwareScheduling and the LowNodeLoad descheduler read. Device usage,
// NUMA usage and reclaimable/peak metrics stay in raw.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/object_meta.hpp"
#include "model/resources.hpp"
#include "model/result.hpp"
#include "model/timestamp.hpp"

namespace troupe {

/// {"resources": {...}, "devices": [...]}; only resources are decoded.
struct ResourceMap {
  ResourceList resources;
};

/// Usage aggregated over `duration`, by aggregation type ("avg", "p50",
/// "p90", "p95", "p99").
struct AggregatedUsage {
  std::map<std::string, ResourceMap> usage;
  std::optional<std::chrono::nanoseconds> duration;
};

struct NodeMetricInfo {
  ResourceMap node_usage;
  std::vector<AggregatedUsage> aggregated_node_usages;
  ResourceMap system_usage;
};

struct PodMetricInfo {
  std::string name;
  std::string namespace_name;
  ResourceMap pod_usage;
  std::string priority;  // koord-prod, koord-mid, koord-batch, koord-free
  std::string qos;       // LSE, LSR, LS, BE, SYSTEM
};

struct NodeMetricCollectPolicy {
  std::optional<int64_t> aggregate_duration_seconds;
  std::optional<int64_t> report_interval_seconds;
};

struct NodeMetric {
  ObjectMeta meta;
  std::optional<NodeMetricCollectPolicy> collect_policy;  // spec.metricCollectPolicy
  std::optional<Timestamp> update_time;                  // status.updateTime
  std::optional<NodeMetricInfo> node_metric;             // status.nodeMetric
  std::vector<PodMetricInfo> pods_metric;                // status.podsMetric
  JsonPtr raw;
};

Result<NodeMetric> decode_node_metric(JsonPtr doc);
Result<NodeMetric> decode_node_metric_json(std::string_view text);
std::shared_ptr<JsonDocument> to_document(const NodeMetric& metric);
std::string encode(const NodeMetric& metric);

TROUPE_DECLARE_JSON_FIELDS(ResourceMap)
TROUPE_DECLARE_JSON_FIELDS(AggregatedUsage)
TROUPE_DECLARE_JSON_FIELDS(NodeMetricInfo)
TROUPE_DECLARE_JSON_FIELDS(PodMetricInfo)
TROUPE_DECLARE_JSON_FIELDS(NodeMetricCollectPolicy)
TROUPE_DECLARE_JSON_FIELDS(NodeMetric)

}  // namespace troupe
