#include "actors/framework_metrics.hpp"

namespace troupe::actors {

namespace {

using plugins::MetricPoint;

constexpr const char* kExtensionPointFamily = "scheduler_framework_extension_point_duration_seconds";
constexpr const char* kPluginFamily = "scheduler_plugin_execution_duration_seconds";

/// The configuration's extension point whose plugins run at a metric point
/// (Unreserve is the Reserve plugins' undo, NormalizeScore the Score plugins').
config::ExtensionPoint enabled_at(MetricPoint point) {
  using config::ExtensionPoint;
  switch (point) {
    case MetricPoint::pre_enqueue: return ExtensionPoint::pre_enqueue;
    case MetricPoint::pre_filter: return ExtensionPoint::pre_filter;
    case MetricPoint::filter: return ExtensionPoint::filter;
    case MetricPoint::post_filter: return ExtensionPoint::post_filter;
    case MetricPoint::pre_score: return ExtensionPoint::pre_score;
    case MetricPoint::score:
    case MetricPoint::score_normalize: return ExtensionPoint::score;
    case MetricPoint::reserve:
    case MetricPoint::unreserve: return ExtensionPoint::reserve;
    case MetricPoint::permit: return ExtensionPoint::permit;
    case MetricPoint::pre_bind: return ExtensionPoint::pre_bind;
    case MetricPoint::bind: return ExtensionPoint::bind;
    case MetricPoint::post_bind: return ExtensionPoint::post_bind;
  }
  return ExtensionPoint::filter;
}

std::vector<std::unique_ptr<AtomicHistogram>> histograms_by_code(const std::shared_ptr<const std::vector<double>>& bounds) {
  std::vector<std::unique_ptr<AtomicHistogram>> out;
  for (size_t i = 0; i < plugins::kCodeCount; ++i) out.push_back(std::make_unique<AtomicHistogram>(bounds));
  return out;
}

std::string code_label(size_t code) { return std::string(plugins::to_string(static_cast<plugins::Code>(code))); }

}  // namespace

FrameworkMetrics::FrameworkMetrics(const plugins::Framework& framework, const MetricsRegistry& registry)
    : profile_(framework.profile_name()) {
  auto point_bounds = std::make_shared<const std::vector<double>>(registry.buckets(kExtensionPointFamily));
  auto plugin_bounds = std::make_shared<const std::vector<double>>(registry.buckets(kPluginFamily));
  for (size_t p = 0; p < plugins::kMetricPointCount; ++p) points_.push_back(histograms_by_code(point_bounds));

  for (size_t slot = 0; slot < framework.plugin_count(); ++slot)
    plugin_names_.emplace_back(framework.plugin_name(slot));
  plugin_index_.assign(plugin_names_.size(), {});
  for (auto& row : plugin_index_) row.fill(-1);
  for (size_t p = 0; p < plugins::kMetricPointCount; ++p) {
    const auto point = static_cast<MetricPoint>(p);
    for (const std::string& name : framework.plugin_names(enabled_at(point))) {
      for (size_t slot = 0; slot < plugin_names_.size(); ++slot) {
        if (plugin_names_[slot] != name) continue;
        plugin_index_[slot][p] = static_cast<int>(plugin_histograms_.size());
        plugin_histograms_.push_back(histograms_by_code(plugin_bounds));
        plugin_keys_.emplace_back(slot, point);
      }
    }
  }
}

void FrameworkMetrics::extension_point_done(MetricPoint point, plugins::Code code, double seconds) {
  const size_t p = point_index(point);
  const size_t c = code_index(code);
  if (p < points_.size() && c < plugins::kCodeCount) points_[p][c]->observe(seconds);
}

void FrameworkMetrics::plugin_done(size_t plugin_slot, MetricPoint point, plugins::Code code, double seconds) {
  const size_t p = point_index(point);
  const size_t c = code_index(code);
  if (plugin_slot >= plugin_index_.size() || p >= plugins::kMetricPointCount || c >= plugins::kCodeCount) return;
  const int index = plugin_index_[plugin_slot][p];
  if (index >= 0) plugin_histograms_[static_cast<size_t>(index)][c]->observe(seconds);
}

void FrameworkMetrics::drain_into(MetricsRegistry& registry) {
  for (size_t p = 0; p < points_.size(); ++p) {
    const std::string point(plugins::metric_point_name(static_cast<MetricPoint>(p)));
    for (size_t c = 0; c < plugins::kCodeCount; ++c)
      registry.merge(kExtensionPointFamily, {point, code_label(c), profile_}, points_[p][c]->drain());
  }
  for (size_t i = 0; i < plugin_histograms_.size(); ++i) {
    const auto& [slot, point] = plugin_keys_[i];
    const std::string point_name(plugins::metric_point_name(point));
    for (size_t c = 0; c < plugins::kCodeCount; ++c)
      registry.merge(kPluginFamily, {plugin_names_[slot], point_name, code_label(c)}, plugin_histograms_[i][c]->drain());
  }
}

void observe_framework(plugins::Framework& framework, const std::shared_ptr<MetricsRegistry>& registry) {
  auto observer = std::make_shared<FrameworkMetrics>(framework, *registry);
  registry->add_collector([observer](MetricsRegistry& r) { observer->drain_into(r); });
  framework.set_observer(observer);
}

}  // namespace troupe::actors
