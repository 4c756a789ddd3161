#include "plugins/framework/plugin_registry.hpp"

namespace troupe::plugins {

config::ExtensionPointSet extension_points_of(const Plugin& plugin) {
  using P = config::ExtensionPoint;
  config::ExtensionPointSet points;
  if (dynamic_cast<const PreEnqueuePlugin*>(&plugin)) points.add(P::pre_enqueue);
  if (dynamic_cast<const QueueSortPlugin*>(&plugin)) points.add(P::queue_sort);
  if (dynamic_cast<const PreFilterPlugin*>(&plugin)) points.add(P::pre_filter);
  if (dynamic_cast<const FilterPlugin*>(&plugin)) points.add(P::filter);
  if (dynamic_cast<const PostFilterPlugin*>(&plugin)) points.add(P::post_filter);
  if (dynamic_cast<const PreScorePlugin*>(&plugin)) points.add(P::pre_score);
  if (dynamic_cast<const ScorePlugin*>(&plugin)) points.add(P::score);
  if (dynamic_cast<const ReservePlugin*>(&plugin)) points.add(P::reserve);
  if (dynamic_cast<const PermitPlugin*>(&plugin)) points.add(P::permit);
  if (dynamic_cast<const PreBindPlugin*>(&plugin)) points.add(P::pre_bind);
  if (dynamic_cast<const BindPlugin*>(&plugin)) points.add(P::bind);
  if (dynamic_cast<const PostBindPlugin*>(&plugin)) points.add(P::post_bind);
  return points;
}

Status Registry::add(std::string name, PluginFactory factory, bool enabled_by_default, int32_t default_weight) {
  if (find(name) != nullptr) return Error{"a plugin named \"" + name + "\" already exists"};
  auto instance = factory(YAML::Node(YAML::NodeType::Null));
  if (!instance) return Error{"plugin \"" + name + "\" does not build with default args: " + instance.message()};
  config::ExtensionPointSet points = extension_points_of(**instance);
  entries_.push_back({std::move(name), std::move(factory), points, enabled_by_default, default_weight});
  return Status::success();
}

const Registry::Entry* Registry::find(const std::string& name) const {
  for (const auto& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

config::PluginCatalog Registry::catalog(std::vector<std::string> known_elsewhere) const {
  std::vector<config::PluginDescriptor> descriptors;
  for (const auto& e : entries_) {
    PluginFactory factory = e.factory;
    descriptors.push_back({e.name, e.points, e.enabled_by_default, e.default_weight,
                           [factory](const YAML::Node& args) -> Status {
                             auto plugin = factory(args);
                             if (!plugin) return Error{plugin.message()};
                             return Status::success();
                           }});
  }
  return config::PluginCatalog(std::move(descriptors), std::move(known_elsewhere));
}

}  // namespace troupe::plugins
