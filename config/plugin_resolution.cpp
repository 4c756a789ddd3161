#include "config/plugin_resolution.hpp"

#include <algorithm>
#include <set>

#include "config/yaml_fields.hpp"

namespace troupe::config {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

int find_enabled(const std::vector<PluginRef>& refs, const std::string& name) {
  for (size_t i = 0; i < refs.size(); ++i)
    if (refs[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

/// Names in an enabled list must be plugins troupe implements and, outside
/// multiPoint, implement that point; names may appear once per list.
void check_enabled(const PluginSet& set, const std::optional<ExtensionPoint>& point, const PluginCatalog& catalog,
                   const std::string& set_path) {
  std::set<std::string> seen;
  for (size_t i = 0; i < set.enabled.size(); ++i) {
    const PluginRef& ref = set.enabled[i];
    const std::string entry = index_path(child_path(set_path, "enabled"), i);
    const std::string name_path = child_path(entry, "name");
    if (ref.name.empty()) throw FieldError(name_path, "Required value");
    const PluginDescriptor* plugin = catalog.find(ref.name);
    if (plugin == nullptr) {
      if (catalog.known_elsewhere(ref.name))
        throw FieldError(name_path, "plugin " + quoted(ref.name) + " is not implemented by troupe");
      throw FieldError(name_path, "unknown plugin " + quoted(ref.name));
    }
    if (point && !plugin->points.has(*point))
      throw FieldError(name_path, "plugin " + quoted(ref.name) + " does not extend " +
                                      std::string(interface_name(*point)));
    if (!seen.insert(ref.name).second)
      throw FieldError(name_path, "plugin " + quoted(ref.name) + " already registered as " +
                                      quoted(point ? std::string(interface_name(*point)) : "multiPoint"));
    if (ref.weight < 0) throw FieldError(child_path(entry, "weight"), "must not be negative");
  }
}

void check_disabled(const PluginSet& set, const PluginCatalog& catalog, const std::string& set_path) {
  for (size_t i = 0; i < set.disabled.size(); ++i) {
    const std::string& name = set.disabled[i];
    const std::string name_path = child_path(index_path(child_path(set_path, "disabled"), i), "name");
    if (name.empty()) throw FieldError(name_path, "Required value");
    if (name != "*" && catalog.find(name) == nullptr && !catalog.known_elsewhere(name))
      throw FieldError(name_path, "unknown plugin " + quoted(name));
  }
}

/// kube-scheduler's mergePluginSet (apis/config/v1/default_plugins.go).
PluginSet merge_with_defaults(const PluginSet& defaults, const PluginSet& custom) {
  PluginSet merged;
  merged.disabled = custom.disabled;
  merged.disabled.insert(merged.disabled.end(), defaults.disabled.begin(), defaults.disabled.end());
  std::vector<bool> replaced(custom.enabled.size(), false);
  if (!contains(merged.disabled, "*")) {
    for (const PluginRef& def : defaults.enabled) {
      if (contains(merged.disabled, def.name)) continue;
      int i = find_enabled(custom.enabled, def.name);
      if (i >= 0) {
        merged.enabled.push_back(custom.enabled[static_cast<size_t>(i)]);
        replaced[static_cast<size_t>(i)] = true;
      } else {
        merged.enabled.push_back(def);
      }
    }
  }
  for (size_t i = 0; i < custom.enabled.size(); ++i)
    if (!replaced[i]) merged.enabled.push_back(custom.enabled[i]);
  return merged;
}

PluginSet default_multi_point(const PluginCatalog& catalog) {
  PluginSet defaults;
  for (const PluginDescriptor& p : catalog.plugins())
    if (p.enabled_by_default) defaults.enabled.push_back({p.name, p.default_weight});
  return defaults;
}

/// kube-scheduler's expandMultiPointPlugins for one extension point.
std::vector<std::string> expand_point(ExtensionPoint point, const PluginSet& specific, const PluginSet& multi,
                                      const PluginCatalog& catalog, const std::string& plugins_path) {
  std::vector<std::string> specific_names;
  for (const PluginRef& ref : specific.enabled) specific_names.push_back(ref.name);
  if (contains(specific.disabled, "*")) return specific_names;

  std::vector<std::string> overrides, from_multi;
  for (const PluginRef& ref : multi.enabled) {
    const PluginDescriptor* plugin = catalog.find(ref.name);
    if (plugin == nullptr || !plugin->points.has(point)) continue;
    if (contains(specific.disabled, ref.name)) continue;
    if (contains(specific_names, ref.name)) {
      overrides.push_back(ref.name);
      continue;
    }
    if (contains(from_multi, ref.name))
      throw FieldError(child_path(plugins_path, "multiPoint"),
                       "plugin " + quoted(ref.name) + " already registered as " +
                           quoted(std::string(interface_name(point))));
    from_multi.push_back(ref.name);
  }
  std::vector<std::string> ordered;
  for (const std::string& name : specific_names)
    if (contains(overrides, name)) ordered.push_back(name);
  ordered.insert(ordered.end(), from_multi.begin(), from_multi.end());
  for (const std::string& name : specific_names)
    if (!contains(overrides, name)) ordered.push_back(name);
  return ordered;
}

/// kube-scheduler's getScoreWeights: the score point's entry first, then multiPoint's.
int32_t score_weight(const std::string& name, const PluginSet& score, const PluginSet& multi) {
  int i = find_enabled(score.enabled, name);
  int32_t weight = i >= 0 ? score.enabled[static_cast<size_t>(i)].weight : 0;
  if (i < 0) {
    int j = find_enabled(multi.enabled, name);
    if (j >= 0) weight = multi.enabled[static_cast<size_t>(j)].weight;
  }
  return weight == 0 ? 1 : weight;
}

void check_cardinality(const Profile& profile, const std::string& plugins_path) {
  const auto& queue_sort = profile.enabled_at(ExtensionPoint::queue_sort);
  if (queue_sort.empty()) throw FieldError(child_path(plugins_path, "queueSort"), "no queue sort plugin is enabled");
  if (queue_sort.size() > 1)
    throw FieldError(child_path(plugins_path, "queueSort"), "only one queue sort plugin can be enabled");
  if (profile.enabled_at(ExtensionPoint::bind).empty())
    throw FieldError(child_path(plugins_path, "bind"), "at least one bind plugin is needed");
}

}  // namespace

Status resolve_profile_plugins(Profile& profile, const PluginCatalog& catalog, const std::string& path) {
  return catch_field_errors([&] {
    const std::string plugins_path = child_path(path, "plugins");
    check_enabled(profile.plugins.multi_point, std::nullopt, catalog, child_path(plugins_path, "multiPoint"));
    check_disabled(profile.plugins.multi_point, catalog, child_path(plugins_path, "multiPoint"));
    for (ExtensionPoint point : kAllExtensionPoints) {
      const std::string set_path = child_path(plugins_path, std::string(yaml_key(point)));
      check_enabled(profile.plugins.at(point), point, catalog, set_path);
      check_disabled(profile.plugins.at(point), catalog, set_path);
    }

    const PluginSet multi = merge_with_defaults(default_multi_point(catalog), profile.plugins.multi_point);
    const PluginSet& score = profile.plugins.at(ExtensionPoint::score);
    for (ExtensionPoint point : kAllExtensionPoints) {
      // Specific points have no defaults of their own: merging only copies.
      const PluginSet specific = merge_with_defaults(PluginSet{}, profile.plugins.at(point));
      auto& out = profile.enabled[index_of(point)];
      out.clear();
      for (const std::string& name : expand_point(point, specific, multi, catalog, plugins_path)) {
        int32_t weight = point == ExtensionPoint::score ? score_weight(name, score, multi) : 0;
        out.push_back({name, weight});
      }
    }
    check_cardinality(profile, plugins_path);
  });
}

}  // namespace troupe::config
