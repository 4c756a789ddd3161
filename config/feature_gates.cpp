#include "config/feature_gates.hpp"

#include <algorithm>
#include <optional>

namespace troupe::config {

namespace {

constexpr const char* kDevicePluginAdaption = "DevicePluginAdaption";

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

/// Go's strconv.ParseBool.
std::optional<bool> parse_bool(const std::string& s) {
  for (const char* yes : {"1", "t", "T", "TRUE", "true", "True"})
    if (s == yes) return true;
  for (const char* no : {"0", "f", "F", "FALSE", "false", "False"})
    if (s == no) return false;
  return std::nullopt;
}

/// DeviceShare's devicePluginAdaption in every profile that runs DeviceShare
/// and leaves it unset (on a copy: YAML anchors may share one args node).
void set_device_plugin_adaption(SchedulerConfiguration& config, bool on) {
  for (auto& profile : config.profiles) {
    const auto names = profile.plugin_names();
    if (std::find(names.begin(), names.end(), "DeviceShare") == names.end()) continue;
    const YAML::Node given = profile.args_for("DeviceShare");
    // A fresh node: assigning to a YAML::Node would write through to the one it refers to.
    YAML::Node args = given.IsMap() ? YAML::Clone(given) : YAML::Node(YAML::NodeType::Map);
    if (!args["devicePluginAdaption"]) args["devicePluginAdaption"] = on;
    profile.plugin_args.erase("DeviceShare");  // not operator=: that too writes through
    profile.plugin_args.emplace("DeviceShare", args);
  }
}

}  // namespace

Result<FeatureGates> parse_feature_gates(const std::string& text) {
  FeatureGates gates;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string entry = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    if (entry.empty()) continue;  // only an empty entry: " " is a gate without a value, as upstream
    const size_t eq = entry.find('=');
    if (eq == std::string::npos) return Error{"--feature-gates: missing bool value for " + trim(entry)};
    const std::string name = trim(entry.substr(0, eq));
    const std::string value = trim(entry.substr(eq + 1));
    auto parsed = parse_bool(value);
    if (name.empty()) return Error{"--feature-gates: an entry without a name: \"" + entry + "\""};
    if (!parsed)
      return Error{"--feature-gates: invalid value of " + name + "=" + value + ", err: strconv.ParseBool: parsing \"" +
                   value + "\": invalid syntax"};
    gates[name] = *parsed;
  }
  return gates;
}

std::vector<std::string> apply_feature_gates(SchedulerConfiguration& config, const FeatureGates& gates) {
  std::vector<std::string> warnings;
  for (const auto& [name, on] : gates) {
    if (name == kDevicePluginAdaption) {
      set_device_plugin_adaption(config, on);
      continue;
    }
    warnings.push_back("feature gate " + name + "=" + (on ? "true" : "false") +
                       " ignored: troupe has no such switch (what it implements is always on)");
  }
  return warnings;
}

}  // namespace troupe::config
