#include "plugins/load_aware/node_load_state.hpp"

#include <algorithm>

#include <rapidjson/document.h>

#include "model/condition.hpp"
#include "model/go_duration.hpp"
#include "plugins/common/raw_allocatable.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::plugins::load_aware {

namespace {

/// {"cpu": 65, ...}; false when it is not an object of integers.
bool read_ints(const rapidjson::Value& value, ResourceInts& out) {
  if (!value.IsObject()) return false;
  for (const auto& member : value.GetObject()) {
    if (!member.value.IsInt64()) return false;
    out[member.name.GetString()] = member.value.GetInt64();
  }
  return true;
}

bool read_aggregated(const rapidjson::Value& value, AggregatedArgs& out) {
  if (!value.IsObject()) return false;
  if (auto it = value.FindMember("usageThresholds"); it != value.MemberEnd() && !it->value.IsNull())
    if (!read_ints(it->value, out.usage_thresholds)) return false;
  if (auto it = value.FindMember("usageAggregationType"); it != value.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsString()) return false;
    out.usage_aggregation_type = it->value.GetString();
  }
  if (auto it = value.FindMember("usageAggregatedDuration"); it != value.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsString()) return false;
    auto duration = parse_go_duration(it->value.GetString());
    if (!duration) return false;
    out.usage_aggregated_duration = *duration;
  }
  return true;
}

bool finished(const Pod& pod) { return pod.status.phase == "Succeeded" || pod.status.phase == "Failed"; }

std::optional<Timestamp> true_since(const Pod& pod, const char* type) {
  const Condition* c = find_condition(pod.status.conditions, type);
  if (c == nullptr || !c->is_true() || !c->last_transition_time) return std::nullopt;
  if (c->last_transition_time->time_since_epoch().count() == 0) return std::nullopt;
  return c->last_transition_time;
}

}  // namespace

std::optional<CustomUsageThresholds> parse_custom_usage_thresholds(const std::string* text) {
  if (text == nullptr) return std::nullopt;
  rapidjson::Document doc;
  doc.Parse(text->data(), text->size());
  if (doc.HasParseError() || !doc.IsObject()) return std::nullopt;
  CustomUsageThresholds out;
  if (auto it = doc.FindMember("usageThresholds"); it != doc.MemberEnd() && !it->value.IsNull())
    if (!read_ints(it->value, out.usage_thresholds)) return std::nullopt;
  if (auto it = doc.FindMember("prodUsageThresholds"); it != doc.MemberEnd() && !it->value.IsNull())
    if (!read_ints(it->value, out.prod_usage_thresholds)) return std::nullopt;
  if (auto it = doc.FindMember("aggregatedUsage"); it != doc.MemberEnd() && !it->value.IsNull()) {
    AggregatedArgs aggregated;
    if (!read_aggregated(it->value, aggregated)) return std::nullopt;
    if (aggregated.filters_aggregated()) out.aggregated = std::move(aggregated);
  }
  if (out.usage_thresholds.empty() && out.prod_usage_thresholds.empty() && !out.aggregated) return std::nullopt;
  return out;
}

void NodeLoadState::apply_metric(std::shared_ptr<const NodeMetric> metric,
                                 const std::vector<std::shared_ptr<const PodInfo>>& pods) {
  if (!metric) return clear_metric();
  const bool first = metric_ == nullptr;
  metric_ = std::move(metric);
  metric_by_pod_.clear();
  for (const PodMetricInfo& pod : metric_->pods_metric) metric_by_pod_[pod.namespace_name + "/" + pod.name] = &pod;
  if (first) {
    pods_.clear();
    for (const auto& pod : pods) record(*pod);
  }
  link_metrics();
}

void NodeLoadState::clear_metric() {
  metric_.reset();
  metric_by_pod_.clear();
  pods_.clear();
}

void NodeLoadState::link_metrics() {
  for (AssignedPod& pod : pods_) {
    auto it = metric_by_pod_.find(pod.key);
    pod.metric = it == metric_by_pod_.end() ? nullptr : it->second;
  }
}

void NodeLoadState::on_pod_added(const PodInfo& info) {
  if (metric_) record(info);
}

void NodeLoadState::record(const PodInfo& info) {
  const Pod& pod = *info.pod;
  if (finished(pod) || reservation::is_reserve_pod(pod.meta)) return;
  AssignedPod assigned;
  assigned.identity = std::string(pod_identity(info));
  assigned.key = info.key;
  assigned.inputs = estimate_inputs_of(pod);
  assigned.prod = assigned.inputs.priority_class == numa::KoordPriorityClass::prod;
  assigned.scheduled = true_since(pod, "PodScheduled").value_or(timestamp_now());
  assigned.initialized = true_since(pod, "Initialized");
  auto it = metric_by_pod_.find(assigned.key);
  assigned.metric = it == metric_by_pod_.end() ? nullptr : it->second;
  pods_.push_back(std::move(assigned));
}

void NodeLoadState::on_pod_removed(const PodInfo& info) {
  if (pods_.empty()) return;
  const std::string_view id = pod_identity(info);
  auto it = std::find_if(pods_.begin(), pods_.end(), [id](const AssignedPod& p) { return p.identity == id; });
  if (it != pods_.end()) pods_.erase(it);
}

void NodeLoadState::on_node_changed(const Node* node) {
  custom_thresholds_.reset();
  raw_allocatable_.clear();
  if (node == nullptr) return;
  if (auto custom = parse_custom_usage_thresholds(node->meta.annotation(kAnnotationUsageThresholds)))
    custom_thresholds_ = std::make_shared<const CustomUsageThresholds>(std::move(*custom));
  raw_allocatable_ = parse_raw_allocatable(*node).value_or(ResourceList());
}

}  // namespace troupe::plugins::load_aware
