#include "config/descheduler_config.hpp"

#include <algorithm>
#include <set>

#include "config/yaml_fields.hpp"

namespace troupe::config {

const char* to_string(DeschedulerPoint point) {
  switch (point) {
    case DeschedulerPoint::deschedule: return "deschedule";
    case DeschedulerPoint::balance: return "balance";
    case DeschedulerPoint::evict: return "evict";
    case DeschedulerPoint::filter: return "filter";
  }
  return "?";
}

const std::vector<std::string>& DeschedulerProfile::enabled_at(DeschedulerPoint point) const {
  static const std::vector<std::string> kNone;
  auto it = enabled.find(point);
  return it == enabled.end() ? kNone : it->second;
}

YAML::Node DeschedulerProfile::args_for(const std::string& plugin) const {
  auto it = plugin_args.find(plugin);
  return it == plugin_args.end() ? YAML::Node(YAML::NodeType::Null) : it->second;
}

std::vector<std::string> read_string_list(const YAML::Node& node, const std::string& path) {
  std::vector<std::string> out;
  if (is_absent(node)) return out;
  expect_sequence(node, path);
  for (size_t i = 0; i < node.size(); ++i) out.push_back(read_string(node[i], index_path(path, i)));
  return out;
}

namespace {

LabelRequirement::Op read_selector_operator(const YAML::Node& node, const std::string& path) {
  const std::string op = read_string(node, path);
  if (op == "In") return LabelRequirement::Op::in;
  if (op == "NotIn") return LabelRequirement::Op::not_in;
  if (op == "Exists") return LabelRequirement::Op::exists;
  if (op == "DoesNotExist") return LabelRequirement::Op::does_not_exist;
  throw FieldError(path, "unsupported operator \"" + op + "\" (want In, NotIn, Exists or DoesNotExist)");
}

void check_label_key(const std::string& key, const std::string& path) {
  Status valid = validate_label_key(key);
  if (!valid) throw FieldError(path, "invalid label key \"" + key + "\": " + valid.message());
}

LabelRequirement read_selector_expression(const YAML::Node& node, const std::string& path) {
  expect_map(node, path);
  reject_unknown_fields(node, path, {"key", "operator", "values"});
  LabelRequirement req;
  req.key = read_string(node["key"], child_path(path, "key"));
  check_label_key(req.key, child_path(path, "key"));
  req.op = read_selector_operator(node["operator"], child_path(path, "operator"));
  req.values = read_string_list(node["values"], child_path(path, "values"));
  const bool needs_values = req.op == LabelRequirement::Op::in || req.op == LabelRequirement::Op::not_in;
  if (needs_values && req.values.empty()) {
    throw FieldError(child_path(path, "values"), "must be non-empty when operator is In or NotIn");
  }
  if (!needs_values && !req.values.empty()) {
    throw FieldError(child_path(path, "values"), "must be empty when operator is Exists or DoesNotExist");
  }
  return req;
}

}  // namespace

LabelSelector read_label_selector(const YAML::Node& node, const std::string& path) {
  expect_map(node, path);
  reject_unknown_fields(node, path, {"matchLabels", "matchExpressions"});
  std::vector<LabelRequirement> requirements;
  const YAML::Node labels = node["matchLabels"];
  if (!is_absent(labels)) {
    const std::string labels_path = child_path(path, "matchLabels");
    expect_map(labels, labels_path);
    for (const auto& entry : labels) {
      const std::string key = read_string(entry.first, labels_path);
      const std::string entry_path = child_path(labels_path, key);
      check_label_key(key, entry_path);
      LabelRequirement req;
      req.key = key;
      req.op = LabelRequirement::Op::in;
      req.values = {read_string(entry.second, entry_path)};
      Status value_ok = validate_label_value(req.values[0]);
      if (!value_ok) throw FieldError(entry_path, "invalid label value: " + value_ok.message());
      requirements.push_back(std::move(req));
    }
  }
  const YAML::Node expressions = node["matchExpressions"];
  if (!is_absent(expressions)) {
    const std::string list_path = child_path(path, "matchExpressions");
    expect_sequence(expressions, list_path);
    for (size_t i = 0; i < expressions.size(); ++i) {
      requirements.push_back(read_selector_expression(expressions[i], index_path(list_path, i)));
    }
  }
  return LabelSelector(std::move(requirements));
}

IntOrString read_int_or_percent(const YAML::Node& node, const std::string& path) {
  if (!node.IsScalar()) throw FieldError(path, "must be an integer or a percentage such as \"10%\"");
  const std::string& text = node.Scalar();
  if (!text.empty() && text.back() == '%') {
    const std::string digits = text.substr(0, text.size() - 1);
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        digits.size() > 9) {
      throw FieldError(path, "invalid percentage \"" + text + "\" (want a whole number followed by %)");
    }
    return IntOrString::from_string(text);
  }
  const int64_t value = read_int(node, path);
  if (value < 0 || value > INT32_MAX) throw FieldError(path, "must be between 0 and 2147483647, got " + text);
  return IntOrString::from_int(static_cast<int32_t>(value));
}

namespace {

std::optional<uint32_t> read_optional_count(const YAML::Node& map, const std::string& path, const char* key) {
  const YAML::Node node = map[key];
  if (is_absent(node)) return std::nullopt;
  const std::string field = child_path(path, key);
  const int64_t value = read_int(node, field);
  if (value < 0 || value > UINT32_MAX) throw FieldError(field, "must be between 0 and 4294967295, got " + node.Scalar());
  return static_cast<uint32_t>(value);
}

DeschedulerLeaderElection read_leader_election(const YAML::Node& node, const std::string& path) {
  DeschedulerLeaderElection out;
  if (is_absent(node)) return out;
  expect_map(node, path);
  reject_unknown_fields(node, path,
                        {"leaderElect", "leaseDuration", "renewDeadline", "retryPeriod", "resourceLock",
                         "resourceName", "resourceNamespace"});
  read_optional(node, path, "leaderElect", out.leader_elect);
  read_optional(node, path, "leaseDuration", out.lease_duration);
  read_optional(node, path, "renewDeadline", out.renew_deadline);
  read_optional(node, path, "retryPeriod", out.retry_period);
  read_optional(node, path, "resourceLock", out.resource_lock);
  read_optional(node, path, "resourceName", out.resource_name);
  read_optional(node, path, "resourceNamespace", out.resource_namespace);
  // Defaulting as koord-descheduler: empty strings take the defaults.
  if (out.resource_lock.empty()) out.resource_lock = "leases";
  if (out.resource_name.empty()) out.resource_name = "koord-descheduler";
  if (out.resource_namespace.empty()) out.resource_namespace = "koordinator-system";
  if (out.leader_elect && out.lease_duration <= out.renew_deadline) {
    throw FieldError(child_path(path, "leaseDuration"), "must be greater than renewDeadline");
  }
  return out;
}

/// "host:port" with an empty host -> 0.0.0.0, a bare IP -> IP:10251, as
/// SetDefaults_DeschedulerConfiguration does.
std::string default_bind_address(const std::string& written) {
  const auto colon = written.rfind(':');
  const bool has_port = colon != std::string::npos && written.find(':') == colon;
  if (has_port) return colon == 0 ? "0.0.0.0" + written : written;
  return written + ":10251";
}

DeschedulerPluginSet read_plugin_set(const YAML::Node& node, const std::string& path) {
  DeschedulerPluginSet set;
  if (is_absent(node)) return set;
  expect_map(node, path);
  reject_unknown_fields(node, path, {"enabled", "disabled"});
  for (const char* key : {"enabled", "disabled"}) {
    const YAML::Node list = node[key];
    if (is_absent(list)) continue;
    const std::string list_path = child_path(path, key);
    expect_sequence(list, list_path);
    std::vector<std::string>& out = std::string(key) == "enabled" ? set.enabled : set.disabled;
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string item_path = index_path(list_path, i);
      expect_map(list[i], item_path);
      // v1alpha2 Plugin has a weight field; the descheduler ignores it.
      reject_unknown_fields(list[i], item_path, {"name", "weight"});
      if (is_absent(list[i]["name"])) throw FieldError(child_path(item_path, "name"), "is required");
      const std::string name = read_string(list[i]["name"], child_path(item_path, "name"));
      if (name.empty()) throw FieldError(child_path(item_path, "name"), "must not be empty");
      if (std::find(out.begin(), out.end(), name) != out.end()) {
        throw FieldError(child_path(item_path, "name"), "plugin \"" + name + "\" is listed twice");
      }
      out.push_back(name);
    }
  }
  return set;
}

std::map<DeschedulerPoint, DeschedulerPluginSet> read_plugins(const YAML::Node& node, const std::string& path) {
  std::map<DeschedulerPoint, DeschedulerPluginSet> sets;
  if (is_absent(node)) return sets;
  expect_map(node, path);
  reject_unknown_fields(node, path, {"deschedule", "balance", "evict", "filter"});
  for (DeschedulerPoint point : kDeschedulerPoints) {
    sets[point] = read_plugin_set(node[to_string(point)], child_path(path, to_string(point)));
  }
  return sets;
}

/// mergePlugins: defaults not disabled (or all of them with "*"), then the
/// enabled list; a plugin enabled again keeps its default position.
std::vector<std::string> merge_with_defaults(const std::vector<std::string>& defaults, const DeschedulerPluginSet& set) {
  const bool all_disabled = std::find(set.disabled.begin(), set.disabled.end(), "*") != set.disabled.end();
  std::vector<std::string> merged;
  if (!all_disabled) {
    for (const auto& name : defaults) {
      if (std::find(set.disabled.begin(), set.disabled.end(), name) == set.disabled.end()) merged.push_back(name);
    }
  }
  for (const auto& name : set.enabled) {
    if (std::find(merged.begin(), merged.end(), name) == merged.end()) merged.push_back(name);
  }
  return merged;
}

std::map<std::string, YAML::Node> read_plugin_config(const YAML::Node& node, const std::string& path) {
  std::map<std::string, YAML::Node> args;
  if (is_absent(node)) return args;
  expect_sequence(node, path);
  for (size_t i = 0; i < node.size(); ++i) {
    const std::string item_path = index_path(path, i);
    expect_map(node[i], item_path);
    reject_unknown_fields(node[i], item_path, {"name", "args"});
    if (is_absent(node[i]["name"])) throw FieldError(child_path(item_path, "name"), "is required");
    const std::string name = read_string(node[i]["name"], child_path(item_path, "name"));
    if (name.empty()) throw FieldError(child_path(item_path, "name"), "must not be empty");
    if (args.count(name)) throw FieldError(child_path(item_path, "name"), "repeated config for plugin \"" + name + "\"");
    YAML::Node plugin_args = YAML::Clone(node[i]["args"]);
    if (!is_absent(plugin_args)) {
      expect_map(plugin_args, child_path(item_path, "args"));
      plugin_args.remove("apiVersion");
      plugin_args.remove("kind");
    } else {
      plugin_args = YAML::Node(YAML::NodeType::Null);
    }
    args[name] = plugin_args;
  }
  return args;
}

DeschedulerProfile read_profile(const YAML::Node& node, const std::string& path) {
  expect_map(node, path);
  reject_unknown_fields(node, path, {"name", "plugins", "pluginConfig", "nodeSelector"});
  DeschedulerProfile profile;
  read_optional(node, path, "name", profile.name);
  profile.plugins = read_plugins(node["plugins"], child_path(path, "plugins"));
  profile.plugin_args = read_plugin_config(node["pluginConfig"], child_path(path, "pluginConfig"));
  if (!is_absent(node["nodeSelector"])) {
    profile.node_selector = read_label_selector(node["nodeSelector"], child_path(path, "nodeSelector"));
  }
  const std::vector<std::string> default_evict_filter = {kMigrationControllerPlugin};
  for (DeschedulerPoint point : kDeschedulerPoints) {
    const bool has_default = point == DeschedulerPoint::evict || point == DeschedulerPoint::filter;
    profile.enabled[point] =
        merge_with_defaults(has_default ? default_evict_filter : std::vector<std::string>{}, profile.plugins[point]);
  }
  return profile;
}

std::vector<DeschedulerProfile> read_profiles(const YAML::Node& node, const std::string& path) {
  std::vector<DeschedulerProfile> profiles;
  if (!is_absent(node)) {
    expect_sequence(node, path);
    for (size_t i = 0; i < node.size(); ++i) profiles.push_back(read_profile(node[i], index_path(path, i)));
  }
  if (profiles.empty()) profiles.push_back(read_profile(YAML::Node(YAML::NodeType::Map), index_path(path, 0)));
  // Only a lone profile gets the default name; several must be named.
  if (profiles.size() == 1 && profiles[0].name.empty()) profiles[0].name = kDefaultDeschedulerProfile;
  std::set<std::string> seen;
  for (size_t i = 0; i < profiles.size(); ++i) {
    const std::string name_path = child_path(index_path(path, i), "name");
    if (profiles[i].name.empty()) throw FieldError(name_path, "must not be empty when there are several profiles");
    if (!seen.insert(profiles[i].name).second) {
      throw FieldError(name_path, "duplicate profile name \"" + profiles[i].name + "\"");
    }
  }
  return profiles;
}

void check_type_meta(const YAML::Node& document) {
  if (!is_absent(document["apiVersion"])) {
    const std::string api_version = read_string(document["apiVersion"], "apiVersion");
    if (api_version != kDeschedulerApiVersion) {
      throw FieldError("apiVersion", "must be " + std::string(kDeschedulerApiVersion) + ", got \"" + api_version + "\"");
    }
  }
  if (!is_absent(document["kind"])) {
    const std::string kind = read_string(document["kind"], "kind");
    if (kind != kDeschedulerKind) {
      throw FieldError("kind", "must be " + std::string(kDeschedulerKind) + ", got \"" + kind + "\"");
    }
  }
}

DeschedulerConfiguration read_configuration(const YAML::Node& document) {
  DeschedulerConfiguration config;
  if (is_absent(document)) {
    config.profiles = read_profiles(YAML::Node(), "profiles");
    return config;
  }
  expect_map(document, "");
  reject_unknown_fields(document, "",
                        {"apiVersion", "kind", "leaderElection", "clientConnection", "healthzBindAddress",
                         "metricsBindAddress", "deschedulingInterval", "dryRun", "nodeSelector",
                         "maxNoOfPodsToEvictPerNode", "maxNoOfPodsToEvictPerNamespace", "maxNoOfPodsToEvictTotal",
                         "profiles", "enableProfiling", "enableContentionProfiling"});
  check_type_meta(document);
  config.leader_election = read_leader_election(document["leaderElection"], "leaderElection");
  config.client_connection = parse_client_connection(document["clientConnection"], "clientConnection");
  std::string healthz, metrics;
  read_optional(document, "", "healthzBindAddress", healthz);
  read_optional(document, "", "metricsBindAddress", metrics);
  if (!healthz.empty()) config.healthz_bind_address = default_bind_address(healthz);
  if (!metrics.empty()) config.metrics_bind_address = default_bind_address(metrics);
  read_optional(document, "", "deschedulingInterval", config.descheduling_interval);
  if (config.descheduling_interval.count() < 0) throw FieldError("deschedulingInterval", "must not be negative");
  // Each round plans over every node: a sub-second interval would only spin.
  if (config.descheduling_interval.count() > 0 && config.descheduling_interval < std::chrono::seconds(1))
    throw FieldError("deschedulingInterval", "must be 0 or at least 1s");
  read_optional(document, "", "dryRun", config.dry_run);
  bool profiling = true;  // accepted for compatibility; troupe has no pprof
  read_optional(document, "", "enableProfiling", profiling);
  read_optional(document, "", "enableContentionProfiling", profiling);
  if (!is_absent(document["nodeSelector"])) {
    config.node_selector = read_label_selector(document["nodeSelector"], "nodeSelector");
  }
  config.max_pods_to_evict_per_node = read_optional_count(document, "", "maxNoOfPodsToEvictPerNode");
  config.max_pods_to_evict_per_namespace = read_optional_count(document, "", "maxNoOfPodsToEvictPerNamespace");
  config.max_pods_to_evict_total = read_optional_count(document, "", "maxNoOfPodsToEvictTotal");
  config.profiles = read_profiles(document["profiles"], "profiles");
  return config;
}

}  // namespace

Result<DeschedulerConfiguration> parse_descheduler_configuration(const YAML::Node& document) {
  DeschedulerConfiguration config;
  Status status = catch_field_errors([&] {
    reject_duplicate_fields(document);
    config = read_configuration(document);
  });
  if (!status) return Error{status.message()};
  return config;
}

Result<DeschedulerConfiguration> load_descheduler_configuration(std::string_view text) {
  YAML::Node document;
  try {
    document = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return Error{std::string("invalid YAML: ") + e.what()};
  }
  return parse_descheduler_configuration(document);
}

}  // namespace troupe::config
