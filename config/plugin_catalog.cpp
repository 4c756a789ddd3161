#include "config/plugin_catalog.hpp"

#include <algorithm>

namespace troupe::config {

PluginCatalog::PluginCatalog(std::vector<PluginDescriptor> plugins, std::vector<std::string> known_elsewhere)
    : plugins_(std::move(plugins)), known_elsewhere_(std::move(known_elsewhere)) {}

const PluginDescriptor* PluginCatalog::find(const std::string& name) const {
  for (const auto& p : plugins_)
    if (p.name == name) return &p;
  return nullptr;
}

bool PluginCatalog::known_elsewhere(const std::string& name) const {
  return std::find(known_elsewhere_.begin(), known_elsewhere_.end(), name) != known_elsewhere_.end();
}

}  // namespace troupe::config
