#pragma once
// The in-tree plugin registry (kube-scheduler's NewInTreeRegistry): one line
// per plugin troupe implements, in the order the default profile runs them,
// with kube-scheduler's default score weights.

#include <string>
#include <vector>

#include "config/plugin_catalog.hpp"
#include "config/scheduler_config.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/plugin_registry.hpp"

namespace troupe::plugins {

/// Every plugin troupe implements, all enabled by default.
const Registry& in_tree_registry();

/// kube-scheduler and Koordinator plugins troupe does not implement (yet):
/// a configuration may disable them, or give them pluginConfig, but not enable them.
const std::vector<std::string>& plugins_implemented_elsewhere();

/// The catalog config/ resolves profiles against.
const config::PluginCatalog& in_tree_catalog();

/// load_scheduler_configuration with the in-tree catalog.
Result<config::SchedulerConfiguration> load_scheduler_configuration(const std::string& path);
Result<config::SchedulerConfiguration> parse_scheduler_configuration(const std::string& yaml_text);

/// One Framework per profile, in profile order, built from the in-tree registry.
Result<std::vector<Framework>> make_frameworks(const config::SchedulerConfiguration& config);

}  // namespace troupe::plugins
