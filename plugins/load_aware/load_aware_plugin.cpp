#include "plugins/load_aware/load_aware_plugin.hpp"

#include <string>

#include "config/yaml_fields.hpp"
#include "plugins/common/args.hpp"
#include "plugins/framework/cycle_clock.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/load_aware/node_load_state.hpp"
#include "plugins/load_aware/node_usage.hpp"

namespace troupe::plugins::load_aware {

namespace {

constexpr const char* kReasonNodeMetricExpired = "node(s) nodeMetric expired";

const NodeLoadState* load_state(const NodeInfo& node) {
  return node.extension<NodeLoadState>(NodeExtensionSlot::kLoad);
}

/// The node's usage before the pod: for a pod held to prod figures, the prod
/// usage and the prod estimates; else the measured usage (the aggregated
/// window of `aggregation`, when given) plus the estimates koordlet has not
/// covered yet, or every pod's estimate when that window is not reported.
LoadVector existing_usage(const UsageEstimates& estimates, const NodeMetricInfo& metric, const LoadAxes& axes,
                          bool as_prod, const std::string* aggregation, std::chrono::nanoseconds duration) {
  LoadVector used;
  if (as_prod) {
    used = estimates.prod_usage;
    used.add(estimates.prod_delta);
    return used;
  }
  if (aggregation == nullptr) {
    used = estimates.measured;
  } else {
    const ResourceList* window = aggregated_usage(metric, *aggregation, duration);
    if (window == nullptr) return estimates.node_estimated;
    used = load_of(axes, *window);
  }
  used.add(estimates.node_delta);
  return used;
}

}  // namespace

LoadAwareScheduling::Thresholds LoadAwareScheduling::thresholds_for(const NodeLoadState& state) const {
  if (state.custom_thresholds() == nullptr) return args_thresholds_;
  // The node's annotation: each field it gives replaces the args'.
  const CustomUsageThresholds& custom = *state.custom_thresholds();
  Thresholds out = args_thresholds_;
  if (!custom.usage_thresholds.empty()) out.usage = per_axis(axes_, custom.usage_thresholds);
  if (!custom.prod_usage_thresholds.empty()) out.prod = per_axis(axes_, custom.prod_usage_thresholds);
  if (custom.aggregated) {
    out.aggregated = &*custom.aggregated;
    out.aggregated_usage = per_axis(axes_, custom.aggregated->usage_thresholds);
  }
  return out;
}

struct LoadAwareScheduling::Incoming : StateData {
  LoadVector estimate;  // the pod's own, on the axes
  bool prod = false;    // koord-prod (with default)
  Timestamp now;
};

LoadAwareScheduling::LoadAwareScheduling(LoadAwareSchedulingArgs args)
    : args_(std::move(args)), axes_(load_axes_of(args_)), estimator_(args_, axes_) {
  weights_ = per_axis(axes_, args_.resource_weights);
  args_thresholds_.usage = per_axis(axes_, args_.usage_thresholds);
  args_thresholds_.prod = per_axis(axes_, args_.prod_usage_thresholds);
  if (args_.aggregated && args_.aggregated->filters_aggregated()) {
    args_thresholds_.aggregated = &*args_.aggregated;
    args_thresholds_.aggregated_usage = per_axis(axes_, args_.aggregated->usage_thresholds);
  }
}

Result<std::shared_ptr<const Plugin>> LoadAwareScheduling::make(const YAML::Node& args) {
  return build_plugin<LoadAwareSchedulingArgs, LoadAwareScheduling>(args, [](const YAML::Node& node) {
    LoadAwareSchedulingArgs decoded = LoadAwareSchedulingArgs::from_yaml(node);
    load_axes_of(decoded);  // throws when the args name too many resources
    return decoded;
  });
}

const LoadAwareScheduling* LoadAwareScheduling::of(const Framework& framework) {
  return framework.find_plugin<LoadAwareScheduling>();
}

LoadAwareScheduling::Incoming LoadAwareScheduling::estimate_incoming(const CycleState& state,
                                                                     const PodInfo& pod) const {
  Incoming in;
  const PodEstimateInputs inputs = estimate_inputs_of(*pod.pod);
  in.estimate = estimator_.estimate(inputs);
  in.prod = inputs.priority_class == numa::KoordPriorityClass::prod;
  // The cycle's clock when it shares one (the evaluation cache then keys on its second), else now.
  const auto* clock = state.input<CycleClock>();
  in.now = clock != nullptr ? clock->now : timestamp_now();
  return in;
}

PluginStatus LoadAwareScheduling::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) const {
  state.write(state_slot(), estimate_incoming(state, pod));
  return {};
}

LoadAwareScheduling::Incoming LoadAwareScheduling::incoming(const CycleState& state, const PodInfo& pod) const {
  if (const auto* in = state.read<Incoming>(state_slot())) return *in;
  return estimate_incoming(state, pod);
}

PluginStatus LoadAwareScheduling::filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  if (node.node() == nullptr) return PluginStatus::internal_error("node not found");
  if (owned_by_daemon_set(*pod.pod)) return {};
  // Without a NodeMetric every path below passes: checked first, so that a
  // profile running the plugin on nodes koordlet does not report costs nothing.
  const NodeLoadState* load = load_state(node);
  if (load == nullptr || load->metric() == nullptr) return {};
  const Incoming in = incoming(state, pod);
  const Thresholds chosen = thresholds_for(*load);
  const bool as_prod = chosen.prod.present && in.prod;
  const bool aggregated = !as_prod && chosen.aggregated != nullptr;
  const LoadVector& thresholds = as_prod ? chosen.prod : aggregated ? chosen.aggregated_usage : chosen.usage;
  if (!thresholds.present) return {};
  const NodeMetric& metric = *load->metric();
  if (args_.filter_expired_node_metrics && metric_expired(metric, args_.node_metric_expiration_seconds, in.now)) {
    if (args_.enable_schedule_when_node_metrics_expired) return {};
    return PluginStatus::unschedulable(kReasonNodeMetricExpired);
  }
  if (!metric.node_metric) return {};

  const UsageEstimates& estimates = usage_estimates(*node.node(), *load, node.generation(), estimator_, args_);
  LoadVector used =
      existing_usage(estimates, *metric.node_metric, axes_, as_prod,
                     aggregated ? &chosen.aggregated->usage_aggregation_type : nullptr,
                     aggregated ? chosen.aggregated->usage_aggregated_duration : std::chrono::nanoseconds(0));
  const LoadVector& allocatable = estimates.allocatable;
  auto over = over_threshold(used, allocatable, thresholds, axes_.size());
  if (!over) {
    used.add(in.estimate);
    over = over_threshold(used, allocatable, thresholds, axes_.size());
  }
  if (!over) return {};
  const std::string& resource = axes_.names[*over];
  return PluginStatus::unschedulable("node(s) " + resource + (aggregated ? " aggregated" : "") +
                                     " usage exceed threshold");
}

ScoreResult LoadAwareScheduling::score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  ScoreResult result;
  if (!weights_.present && args_.dominant_resource_weight == 0) return result;
  if (node.node() == nullptr) {
    result.status = PluginStatus::internal_error("node not found");
    return result;
  }
  const NodeLoadState* load = load_state(node);
  if (load == nullptr || load->metric() == nullptr) return result;
  const NodeMetric& metric = *load->metric();
  const Incoming in = incoming(state, pod);
  if (metric_expired(metric, args_.node_metric_expiration_seconds, in.now) || !metric.node_metric) return result;

  const UsageEstimates& estimates = usage_estimates(*node.node(), *load, node.generation(), estimator_, args_);
  // Scoring reads the aggregated window of the args only (not the node's annotation).
  const AggregatedArgs* aggregated = args_.aggregated && args_.aggregated->scores_aggregated() ? &*args_.aggregated : nullptr;
  LoadVector used = existing_usage(estimates, *metric.node_metric, axes_, args_.score_according_prod_usage && in.prod,
                                   aggregated ? &aggregated->score_aggregation_type : nullptr,
                                   aggregated ? aggregated->score_aggregated_duration : std::chrono::nanoseconds(0));
  used.add(in.estimate);
  const LoadVector& allocatable = estimates.allocatable;
  result.score = load_score(used, allocatable, weights_, axes_.size(), args_.dominant_resource_weight);
  return result;
}

std::vector<ClusterEvent> LoadAwareScheduling::events_to_register() const {
  return {{EventResource::pod, kDelete, "AssignedPodDelete"},
          {EventResource::node, kAdd | kUpdateNodeAllocatable | kUpdateNodeAnnotation, "NodeChange"},
          {EventResource::other, kAdd | kUpdate | kDelete, "nodemetrics.v1alpha1.slo.koordinator.sh"}};
}

}  // namespace troupe::plugins::load_aware
