#include "model/node_metric.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kNodeMetricKind{"slo.koordinator.sh/v1alpha1", "NodeMetric"};

template <class Io, class T>
void resource_map_fields(Io& io, T& x) {
  io.field("resources", x.resources);
}

template <class Io, class T>
void aggregated_usage_fields(Io& io, T& x) {
  io.object_map("usage", x.usage);
  io.field("duration", x.duration);
}

template <class Io, class T>
void node_metric_info_fields(Io& io, T& x) {
  io.object("nodeUsage", x.node_usage);
  io.array("aggregatedNodeUsages", x.aggregated_node_usages);
  io.object("systemUsage", x.system_usage);
}

template <class Io, class T>
void pod_metric_info_fields(Io& io, T& x) {
  io.field("name", x.name);
  io.field("namespace", x.namespace_name);
  io.object("podUsage", x.pod_usage);
  io.field("priority", x.priority);
  io.field("qos", x.qos);
}

template <class Io, class T>
void collect_policy_fields(Io& io, T& x) {
  io.field("aggregateDurationSeconds", x.aggregate_duration_seconds);
  io.field("reportIntervalSeconds", x.report_interval_seconds);
}

template <class Io, class T>
void node_metric_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.nested("spec", [&] { io.optional_object("metricCollectPolicy", x.collect_policy); });
  io.nested("status", [&] {
    io.field("updateTime", x.update_time);
    io.optional_object("nodeMetric", x.node_metric);
    io.array("podsMetric", x.pods_metric);
  });
}

}  // namespace

TROUPE_JSON_FIELDS(ResourceMap, resource_map_fields)
TROUPE_JSON_FIELDS(AggregatedUsage, aggregated_usage_fields)
TROUPE_JSON_FIELDS(NodeMetricInfo, node_metric_info_fields)
TROUPE_JSON_FIELDS(PodMetricInfo, pod_metric_info_fields)
TROUPE_JSON_FIELDS(NodeMetricCollectPolicy, collect_policy_fields)
TROUPE_JSON_FIELDS(NodeMetric, node_metric_fields)

Result<NodeMetric> decode_node_metric(JsonPtr doc) { return decode_object<NodeMetric>(doc, kNodeMetricKind); }

Result<NodeMetric> decode_node_metric_json(std::string_view text) {
  return decode_object_text<NodeMetric>(text, kNodeMetricKind);
}

std::shared_ptr<JsonDocument> to_document(const NodeMetric& metric) {
  return encode_document(metric, kNodeMetricKind);
}

std::string encode(const NodeMetric& metric) { return to_json(*to_document(metric)); }

}  // namespace troupe
