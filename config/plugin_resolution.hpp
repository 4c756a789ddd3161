#pragma once
// How a profile's `plugins` section becomes the plugin list of each extension
// point, exactly as kube-scheduler does it:
//   1. the default plugins (every plugin troupe implements, as multiPoint) are
//      merged with the custom sets point by point: disabled (or "*") drops
//      defaults, a custom entry naming a default replaces it in place, other
//      custom entries are appended;
//   2. multiPoint is expanded into every point its plugins implement, unless
//      the point disabled "*" or that plugin. Precedence: a specific
//      extension point > explicit multiPoint > default plugins. Order at a
//      point: plugins re-configured at that point, then multiPoint ones, then
//      the point's other plugins;
//   3. score weights: the score point's weight wins over multiPoint's; 0 means 1.

#include <string>

#include "config/plugin_catalog.hpp"
#include "config/scheduler_config.hpp"
#include "model/result.hpp"

namespace troupe::config {

/// Checks the names in `profile.plugins` against the catalog and fills
/// `profile.enabled`. `path` is the profile's field path ("profiles[0]").
Status resolve_profile_plugins(Profile& profile, const PluginCatalog& catalog, const std::string& path);

}  // namespace troupe::config
