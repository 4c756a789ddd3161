#include "plugins/load_aware/node_usage.hpp"

#include <algorithm>
#include <cmath>

namespace troupe::plugins::load_aware {

namespace {

constexpr int64_t kDefaultReportIntervalSeconds = 60;

/// Whether the estimate still counts beside what koordlet measured (see the header).
bool not_covered_yet(const AssignedPod& pod, bool reported, const LoadAwareSchedulingArgs& args, Timestamp updated,
                     std::chrono::seconds interval) {
  if (!reported || updated - interval < pod.scheduled) return true;
  std::optional<int64_t> after_initialized = args.estimated_seconds_after_initialized;
  std::optional<int64_t> after_scheduled = args.estimated_seconds_after_pod_scheduled;
  if (args.allow_customize_estimation) {
    if (pod.inputs.custom_seconds_after_initialized && *pod.inputs.custom_seconds_after_initialized >= 0)
      after_initialized = pod.inputs.custom_seconds_after_initialized;
    if (pod.inputs.custom_seconds_after_scheduled && *pod.inputs.custom_seconds_after_scheduled >= 0)
      after_scheduled = pod.inputs.custom_seconds_after_scheduled;
  }
  std::optional<Timestamp> deadline;
  if (after_initialized.value_or(0) > 0 && pod.initialized)
    deadline = *pod.initialized + std::chrono::seconds(*after_initialized);
  else if (after_scheduled.value_or(0) > 0)
    deadline = pod.scheduled + std::chrono::seconds(*after_scheduled);
  return deadline && *deadline > updated;
}

/// Adds max(0, e − u) per axis.
void add_excess(LoadVector& into, const LoadVector& estimate, const LoadVector& usage, size_t axes) {
  into.present = true;
  for (size_t i = 0; i < axes; ++i) into[i] += std::max<int64_t>(0, estimate[i] - usage[i]);
}

}  // namespace

UsageEstimates estimate_usage(const Node& node_object, const NodeLoadState& node, const LoadEstimator& estimator,
                              const LoadAwareSchedulingArgs& args, UsagePods* pods) {
  UsageEstimates out;
  const NodeMetric& metric = *node.metric();
  const LoadAxes& axes = estimator.axes();
  if (metric.node_metric) out.measured = load_of(axes, metric.node_metric->node_usage.resources);
  out.allocatable = allocatable_of(node_object, node, axes);
  const Timestamp updated = metric.update_time.value_or(Timestamp());
  const std::chrono::seconds interval(
      metric.collect_policy.value_or(NodeMetricCollectPolicy{}).report_interval_seconds.value_or(
          kDefaultReportIntervalSeconds));
  out.prod_usage.present = true;
  if (args.prod_usage_include_sys && metric.node_metric)
    out.prod_usage.add(load_of(axes, metric.node_metric->system_usage.resources));
  for (const NodeLoadState::Pod& entry : node.pods()) {
    const AssignedPod& pod = *entry.pod;
    const PodMetricInfo* measured = entry.metric;
    const LoadVector usage = measured ? load_of(axes, measured->pod_usage.resources) : LoadVector();
    const bool reported_prod = pod.prod && measured != nullptr && measured->priority == "koord-prod";
    if (reported_prod) out.prod_usage.add(usage);
    const LoadVector estimate = estimator.estimate(pod.inputs);
    if (!estimate.present) continue;
    out.node_estimated.add(estimate);
    const bool uncovered = not_covered_yet(pod, measured != nullptr, args, updated, interval);
    if (uncovered) add_excess(out.node_delta, estimate, usage, axes.size());
    const bool prod_delta = pod.prod && (!reported_prod || uncovered);
    if (pod.prod && !reported_prod)
      out.prod_delta.add(estimate);
    else if (prod_delta)
      add_excess(out.prod_delta, estimate, usage, axes.size());
    if (pods != nullptr) {
      pods->node_estimated.push_back(pod.key);
      if (uncovered) pods->node_delta.push_back(pod.key);
      if (prod_delta) pods->prod_delta.push_back(pod.key);
    }
  }
  return out;
}

const UsageEstimates& usage_estimates(const Node& node_object, const NodeLoadState& node, uint64_t generation,
                                      const LoadEstimator& estimator, const LoadAwareSchedulingArgs& args) {
  NodeLoadState::Memo& memo = node.memo();
  if (memo.sums == nullptr || memo.estimator != &estimator || memo.generation != generation) {
    memo.sums = std::make_shared<const UsageEstimates>(estimate_usage(node_object, node, estimator, args));
    memo.estimator = &estimator;
    memo.generation = generation;
  }
  return *memo.sums;
}

bool metric_expired(const NodeMetric& metric, int64_t expiration_seconds, Timestamp now) {
  if (!metric.update_time) return true;
  return now - *metric.update_time >= std::chrono::seconds(expiration_seconds);
}

const ResourceList* aggregated_usage(const NodeMetricInfo& metric, const std::string& type,
                                     std::chrono::nanoseconds duration) {
  const ResourceList* best = nullptr;
  std::chrono::nanoseconds longest{-1};
  for (const AggregatedUsage& window : metric.aggregated_node_usages) {
    auto it = window.usage.find(type);
    if (it == window.usage.end() || it->second.resources.empty()) continue;
    const auto window_duration = window.duration.value_or(std::chrono::nanoseconds(0));
    if (duration.count() != 0) {
      if (window_duration == duration) return &it->second.resources;
    } else if (window_duration > longest) {
      longest = window_duration;
      best = &it->second.resources;
    }
  }
  if (duration.count() != 0) return nullptr;
  return best != nullptr ? best : &metric.node_usage.resources;
}

LoadVector allocatable_of(const Node& node, const NodeLoadState& state, const LoadAxes& axes) {
  LoadVector out = load_of(axes, node.status.allocatable);
  for (size_t i = 0; i < axes.size(); ++i) {
    auto it = state.raw_allocatable().find(axes.names[i]);
    if (it != state.raw_allocatable().end()) out[i] = amount_of(axes.names[i], it->second);
  }
  return out;
}

LoadVector per_axis(const LoadAxes& axes, const ResourceInts& thresholds) {
  LoadVector out;
  for (const auto& [name, percent] : thresholds) {
    if (auto at = axes.index_of(name)) {
      out[*at] = percent;
      if (percent != 0) out.present = true;
    }
  }
  return out;
}

std::optional<size_t> over_threshold(const LoadVector& used, const LoadVector& allocatable,
                                     const LoadVector& thresholds, size_t axes) {
  for (size_t i = 0; i < axes; ++i) {
    if (thresholds[i] == 0 || allocatable[i] == 0) continue;
    const auto percent =
        static_cast<int64_t>(std::round(static_cast<double>(used[i]) / static_cast<double>(allocatable[i]) * 100));
    if (percent > thresholds[i]) return i;
  }
  return std::nullopt;
}

int64_t load_score(const LoadVector& used, const LoadVector& allocatable, const LoadVector& weights, size_t axes,
                   int64_t dominant) {
  int64_t score = 0;
  int64_t weight_sum = 0;
  int64_t lowest = 100;
  for (size_t i = 0; i < axes; ++i) {
    int64_t s = 0;
    if (allocatable[i] != 0 && used[i] <= allocatable[i]) s = (allocatable[i] - used[i]) * 100 / allocatable[i];
    score += weights[i] * s;
    weight_sum += weights[i];
    lowest = std::min(lowest, s);
  }
  if (dominant != 0) {
    score += dominant * lowest;
    weight_sum += dominant;
  }
  return weight_sum <= 0 ? 0 : score / weight_sum;
}

}  // namespace troupe::plugins::load_aware
