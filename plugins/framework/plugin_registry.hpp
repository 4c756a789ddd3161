#pragma once
// A map from plugin name to factory (kube-scheduler's runtime.Registry). The
// in-tree registry is plugins/registry.hpp's make_in_tree_registry().

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "config/plugin_catalog.hpp"
#include "model/result.hpp"
#include "plugins/framework/plugin.hpp"

namespace troupe::plugins {

/// Builds a plugin from its args (a YAML map, or Null for the defaults).
/// Errors name the field inside args: "scoringStrategy.type: ...".
using PluginFactory = std::function<Result<std::shared_ptr<const Plugin>>(const YAML::Node& args)>;

/// The extension points an instance implements, found by its interfaces.
config::ExtensionPointSet extension_points_of(const Plugin& plugin);

class Registry {
 public:
  struct Entry {
    std::string name;
    PluginFactory factory;
    config::ExtensionPointSet points;
    bool enabled_by_default = false;
    int32_t default_weight = 0;
  };

  /// Registers a plugin; builds it once with default args to learn which
  /// extension points it implements. Fails on a duplicate name or when the
  /// defaults do not build.
  Status add(std::string name, PluginFactory factory, bool enabled_by_default, int32_t default_weight);

  const Entry* find(const std::string& name) const;
  const std::vector<Entry>& entries() const { return entries_; }

  /// What config/ needs to resolve and validate profiles; `known_elsewhere`
  /// lists plugin names that may be disabled but are not implemented here.
  config::PluginCatalog catalog(std::vector<std::string> known_elsewhere = {}) const;

 private:
  std::vector<Entry> entries_;
};

}  // namespace troupe::plugins
