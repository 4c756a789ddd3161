#pragma once
// FrameworkMetrics: the FrameworkObserver of one profile, recording
// scheduler_framework_extension_point_duration_seconds{extension_point,status,profile}
// and scheduler_plugin_execution_duration_seconds{plugin,extension_point,status}
// with kube-scheduler's buckets. Observations go into preallocated
// AtomicHistograms (Filter and Score report from every node partition at
// once); a registry collector moves them into the MetricsRegistry when
// /metrics is rendered.

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "actors/atomic_histogram.hpp"
#include "actors/metrics_registry.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/framework_observer.hpp"

namespace troupe::actors {

class FrameworkMetrics : public plugins::FrameworkObserver {
 public:
  /// Histograms for every extension point, and for each plugin at the points
  /// `framework` enables it at. `registry` must declare both families
  /// (declare_scheduler_metrics).
  FrameworkMetrics(const plugins::Framework& framework, const MetricsRegistry& registry);

  void extension_point_done(plugins::MetricPoint point, plugins::Code code, double seconds) override;
  void plugin_done(size_t plugin_slot, plugins::MetricPoint point, plugins::Code code, double seconds) override;

  /// Moves what was observed since the last call into `registry`.
  void drain_into(MetricsRegistry& registry);

 private:
  /// One histogram per status code.
  using ByCode = std::vector<std::unique_ptr<AtomicHistogram>>;

  static size_t code_index(plugins::Code code) { return static_cast<size_t>(code); }
  static size_t point_index(plugins::MetricPoint point) { return static_cast<size_t>(point); }

  std::string profile_;
  std::vector<std::string> plugin_names_;  // by slot
  std::vector<ByCode> points_;             // by MetricPoint
  /// by slot, then MetricPoint: index into plugin_histograms_, or -1 when the
  /// plugin does not run there (calls there are then not recorded).
  std::vector<std::array<int, plugins::kMetricPointCount>> plugin_index_;
  std::vector<ByCode> plugin_histograms_;
  std::vector<std::pair<size_t, plugins::MetricPoint>> plugin_keys_;  // per plugin_histograms_ entry
};

/// Gives `framework` a FrameworkMetrics observer recording into `registry`
/// (registered there as a collector).
void observe_framework(plugins::Framework& framework, const std::shared_ptr<MetricsRegistry>& registry);

}  // namespace troupe::actors
