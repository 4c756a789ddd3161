#pragma once
// FrameworkObserver: how the Framework reports kube-scheduler's
// scheduler_framework_extension_point_duration_seconds and
// scheduler_plugin_execution_duration_seconds without depending on whoever
// keeps the metrics (the actors layer implements it over its registry).
//
// The Framework calls it from several node partitions at once (Filter and
// Score run concurrently), so implementations must be thread-safe and cheap:
// no allocation and no lock per call. Plugin executions are reported only
// for sampled cycles, as upstream does (see kPluginMetricsSamplePercent).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "plugins/framework/status.hpp"

namespace troupe::plugins {

/// kube-scheduler's pluginMetricsSamplePercent: plugin execution durations
/// are recorded for this share of scheduling cycles.
inline constexpr uint64_t kPluginMetricsSamplePercent = 10;

/// The `extension_point` label values kube-scheduler uses
/// (pkg/scheduler/metrics/metrics.go); a few more than config's
/// ExtensionPoint because Unreserve and NormalizeScore are timed on their own.
enum class MetricPoint : uint8_t {
  pre_enqueue,
  pre_filter,
  filter,
  post_filter,
  pre_score,
  score,
  score_normalize,
  reserve,
  unreserve,
  permit,
  pre_bind,
  bind,
  post_bind,
};
inline constexpr size_t kMetricPointCount = 13;

/// "PreFilter", "ScoreExtensionNormalize", ... as the metrics label them.
constexpr std::string_view metric_point_name(MetricPoint point) {
  switch (point) {
    case MetricPoint::pre_enqueue: return "PreEnqueue";
    case MetricPoint::pre_filter: return "PreFilter";
    case MetricPoint::filter: return "Filter";
    case MetricPoint::post_filter: return "PostFilter";
    case MetricPoint::pre_score: return "PreScore";
    case MetricPoint::score: return "Score";
    case MetricPoint::score_normalize: return "ScoreExtensionNormalize";
    case MetricPoint::reserve: return "Reserve";
    case MetricPoint::unreserve: return "Unreserve";
    case MetricPoint::permit: return "Permit";
    case MetricPoint::pre_bind: return "PreBind";
    case MetricPoint::bind: return "Bind";
    case MetricPoint::post_bind: return "PostBind";
  }
  return "Unknown";
}

/// Number of status codes (Code::success ... Code::pending), for tables indexed by code.
inline constexpr size_t kCodeCount = 7;

class FrameworkObserver {
 public:
  virtual ~FrameworkObserver() = default;
  /// One run of every plugin at `point` for one pod (or, for Filter and Score,
  /// the whole fan-out over the nodes), with the status it ended with.
  virtual void extension_point_done(MetricPoint point, Code code, double seconds) = 0;
  /// One plugin call in a sampled cycle. `plugin_slot` is the plugin's
  /// Plugin::state_slot() in this Framework (see Framework::plugin_name).
  virtual void plugin_done(size_t plugin_slot, MetricPoint point, Code code, double seconds) = 0;
};

}  // namespace troupe::plugins
