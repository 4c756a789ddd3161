#include "plugins/load_aware/queueing_hint.hpp"

namespace troupe::plugins::load_aware {

bool node_metric_may_make_room(const NodeMetric* before, const NodeMetric* after) {
  if (before == nullptr || after == nullptr || !before->node_metric || !after->node_metric) return true;
  const ResourceList& old_usage = before->node_metric->node_usage.resources;
  for (const auto& [name, quantity] : after->node_metric->node_usage.resources) {
    auto it = old_usage.find(name);
    if (it == old_usage.end() || quantity < it->second) return true;
  }
  return false;
}

}  // namespace troupe::plugins::load_aware
