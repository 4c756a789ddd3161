#pragma once
// What the configuration needs to know about plugins without depending on
// plugins/ (which depends on config/): each plugin's name, the extension
// points it implements, whether and with what weight it is on by default, and
// a function that decodes and checks its args. plugins/registry builds the
// in-tree catalog (plugins::in_tree_catalog()).

#include <functional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "config/extension_point.hpp"
#include "model/result.hpp"

namespace troupe::config {

struct PluginDescriptor {
  std::string name;                 // "NodeResourcesFit"
  ExtensionPointSet points;         // what the plugin implements
  bool enabled_by_default = false;  // part of the default profile (as multiPoint)
  int32_t default_weight = 0;       // score weight in the default profile
  /// Decodes and validates the plugin's args (a YAML map without
  /// apiVersion/kind; a Null node when none were given). The error message
  /// names the field inside args ("scoringStrategy.type: ...").
  std::function<Status(const YAML::Node& args)> validate_args;
};

class PluginCatalog {
 public:
  PluginCatalog() = default;
  PluginCatalog(std::vector<PluginDescriptor> plugins, std::vector<std::string> known_elsewhere = {});

  /// nullptr when the name is not a plugin troupe implements.
  const PluginDescriptor* find(const std::string& name) const;
  /// Plugins of kube-scheduler or Koordinator that troupe does not implement:
  /// they may be disabled (a no-op) but not enabled.
  bool known_elsewhere(const std::string& name) const;
  const std::vector<PluginDescriptor>& plugins() const { return plugins_; }

 private:
  std::vector<PluginDescriptor> plugins_;
  std::vector<std::string> known_elsewhere_;
};

}  // namespace troupe::config
