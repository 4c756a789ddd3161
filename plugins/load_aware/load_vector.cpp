#include "plugins/load_aware/load_vector.hpp"

#include <algorithm>
#include <set>

#include "config/yaml_fields.hpp"

namespace troupe::plugins::load_aware {

std::optional<size_t> LoadAxes::index_of(std::string_view name) const {
  auto it = std::lower_bound(names.begin(), names.end(), name);
  if (it == names.end() || *it != name) return std::nullopt;
  return static_cast<size_t>(it - names.begin());
}

LoadAxes load_axes_of(const LoadAwareSchedulingArgs& args) {
  std::set<std::string> names{"cpu", "memory"};
  auto add = [&names](const ResourceInts& map) {
    for (const auto& [name, value] : map) names.insert(name);
  };
  add(args.resource_weights);
  add(args.usage_thresholds);
  add(args.prod_usage_thresholds);
  add(args.estimated_scaling_factors);
  if (args.aggregated) add(args.aggregated->usage_thresholds);
  if (names.size() > kMaxLoadResources)
    throw config::FieldError("", "LoadAwareScheduling compares at most " + std::to_string(kMaxLoadResources) +
                                     " resources, the args name " + std::to_string(names.size()));
  return LoadAxes{{names.begin(), names.end()}};
}

void LoadVector::add(const LoadVector& other) {
  if (!other.present) return;
  for (size_t i = 0; i < kMaxLoadResources; ++i) amounts[i] += other.amounts[i];
  present = true;
}

LoadVector load_of(const LoadAxes& axes, const ResourceList& list) {
  LoadVector out;
  out.present = true;
  for (size_t i = 0; i < axes.size(); ++i) {
    auto it = list.find(axes.names[i]);
    if (it != list.end()) out[i] = amount_of(axes.names[i], it->second);
  }
  return out;
}

ResourceList overlaid(const ResourceList& list, const ResourceList& overlay) {
  ResourceList out = list;
  for (const auto& [name, quantity] : overlay) out[name] = quantity;
  return out;
}

}  // namespace troupe::plugins::load_aware
