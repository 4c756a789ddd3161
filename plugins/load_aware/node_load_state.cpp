#include "plugins/load_aware/node_load_state.hpp"

#include <algorithm>

#include "model/condition.hpp"
#include "plugins/common/raw_allocatable.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::plugins::load_aware {

namespace {

std::optional<Timestamp> true_since(const Pod& pod, const char* type) {
  const Condition* c = find_condition(pod.status.conditions, type);
  if (c == nullptr || !c->is_true() || !c->last_transition_time) return std::nullopt;
  if (c->last_transition_time->time_since_epoch().count() == 0) return std::nullopt;
  return c->last_transition_time;
}

}  // namespace

void NodeLoadState::apply_metric(std::shared_ptr<const NodeMetric> metric) {
  metric_ = std::move(metric);
  metric_by_pod_.clear();
  if (metric_)
    for (const PodMetricInfo& pod : metric_->pods_metric)
      // As Koordinator: an entry without usage is no report of the pod.
      if (!pod.pod_usage.resources.empty()) metric_by_pod_[pod.namespace_name + "/" + pod.name] = &pod;
  for (Pod& pod : pods_) pod.metric = metric_of(pod.pod->key);
}

const PodMetricInfo* NodeLoadState::metric_of(const std::string& key) const {
  auto it = metric_by_pod_.find(key);
  return it == metric_by_pod_.end() ? nullptr : it->second;
}

void NodeLoadState::on_pod_added(const PodInfo& info) {
  const troupe::Pod& pod = *info.pod;
  if (pod_finished(pod) || reservation::is_reserve_pod(pod.meta)) return;
  auto assigned = std::make_shared<AssignedPod>();
  assigned->identity = std::string(pod_identity(info));
  assigned->key = info.key;
  assigned->inputs = estimate_inputs_of(pod);
  assigned->prod = assigned->inputs.priority_class == numa::KoordPriorityClass::prod;
  assigned->scheduled = true_since(pod, "PodScheduled").value_or(timestamp_now());
  assigned->initialized = true_since(pod, "Initialized");
  pods_.push_back(Pod{assigned, metric_of(assigned->key)});
}

void NodeLoadState::on_pod_removed(const PodInfo& info) {
  const std::string_view id = pod_identity(info);
  auto it = std::find_if(pods_.begin(), pods_.end(), [id](const Pod& p) { return p.pod->identity == id; });
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
