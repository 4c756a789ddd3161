#include "config/scheduler_config.hpp"

#include <cmath>

#include <fstream>
#include <set>
#include <sstream>

#include "config/plugin_resolution.hpp"
#include "config/yaml_fields.hpp"
#include "model/resource_names.hpp"

namespace troupe::config {

std::vector<std::string> Profile::plugin_names() const {
  std::vector<std::string> names;
  for (const auto& point : enabled)
    for (const auto& plugin : point)
      if (std::find(names.begin(), names.end(), plugin.name) == names.end()) names.push_back(plugin.name);
  return names;
}

YAML::Node Profile::args_for(const std::string& plugin) const {
  auto it = plugin_args.find(plugin);
  return it == plugin_args.end() ? YAML::Node(YAML::NodeType::Null) : it->second;
}

const Profile* SchedulerConfiguration::profile(const std::string& scheduler_name) const {
  for (const auto& p : profiles)
    if (p.scheduler_name == scheduler_name) return &p;
  return nullptr;
}

namespace {

// plugins/names.hpp spells it too; config/ does not depend on plugins/.
constexpr const char* kNodeResourcesFit = "NodeResourcesFit";

// ---- plugins and pluginConfig ------------------------------------------------

PluginSet parse_plugin_set(const YAML::Node& node, const std::string& path) {
  PluginSet set;
  if (is_absent(node)) return set;
  expect_map(node, path);
  reject_unknown_fields(node, path, {"enabled", "disabled"});
  const YAML::Node enabled = node["enabled"];
  if (!is_absent(enabled)) {
    const std::string list_path = child_path(path, "enabled");
    expect_sequence(enabled, list_path);
    for (size_t i = 0; i < enabled.size(); ++i) {
      const std::string entry_path = index_path(list_path, i);
      expect_map(enabled[i], entry_path);
      reject_unknown_fields(enabled[i], entry_path, {"name", "weight"});
      PluginRef ref;
      read_optional(enabled[i], entry_path, "name", ref.name);
      read_optional(enabled[i], entry_path, "weight", ref.weight);
      set.enabled.push_back(ref);
    }
  }
  const YAML::Node disabled = node["disabled"];
  if (!is_absent(disabled)) {
    const std::string list_path = child_path(path, "disabled");
    expect_sequence(disabled, list_path);
    for (size_t i = 0; i < disabled.size(); ++i) {
      const std::string entry_path = index_path(list_path, i);
      expect_map(disabled[i], entry_path);
      reject_unknown_fields(disabled[i], entry_path, {"name", "weight"});
      std::string name;
      read_optional(disabled[i], entry_path, "name", name);
      set.disabled.push_back(name);
    }
  }
  return set;
}

PluginSets parse_plugin_sets(const YAML::Node& node, const std::string& path) {
  expect_map(node, path);
  PluginSets sets;
  for (const auto& entry : node) {
    const std::string key = entry.first.Scalar();
    const std::string set_path = child_path(path, key);
    if (key == "multiPoint") {
      sets.multi_point = parse_plugin_set(entry.second, set_path);
    } else if (auto point = extension_point_from_yaml_key(key)) {
      sets.at(*point) = parse_plugin_set(entry.second, set_path);
    } else {
      throw FieldError(set_path, "unknown field");
    }
  }
  return sets;
}

/// A deep copy of the args without apiVersion/kind, which only tag the type.
YAML::Node strip_type_meta(const YAML::Node& args) {
  YAML::Node copy(YAML::NodeType::Map);
  for (const auto& entry : args) {
    const std::string key = entry.first.Scalar();
    if (key == "apiVersion" || key == "kind") continue;
    copy[key] = YAML::Clone(entry.second);
  }
  return copy;
}

void parse_plugin_config(const YAML::Node& list, const std::string& path, const PluginCatalog& catalog,
                         Profile& profile) {
  expect_sequence(list, path);
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string entry_path = index_path(path, i);
    const YAML::Node entry = list[i];
    expect_map(entry, entry_path);
    reject_unknown_fields(entry, entry_path, {"name", "args"});
    std::string name;
    read_optional(entry, entry_path, "name", name);
    const std::string name_path = child_path(entry_path, "name");
    if (name.empty()) throw FieldError(name_path, "Required value");
    const PluginDescriptor* plugin = catalog.find(name);
    if (plugin == nullptr && !catalog.known_elsewhere(name))
      throw FieldError(name_path, "unknown plugin \"" + name + "\"");
    if (profile.plugin_args.count(name) > 0) throw FieldError(name_path, "duplicate value \"" + name + "\"");

    const std::string args_path = child_path(entry_path, "args");
    YAML::Node args = entry["args"];
    YAML::Node stripped(YAML::NodeType::Null);
    if (!is_absent(args)) {
      expect_map(args, args_path);
      const YAML::Node kind = args["kind"];
      if (!is_absent(kind) && read_string(kind, child_path(args_path, "kind")) != name + "Args")
        throw FieldError(child_path(args_path, "kind"),
                         "must be \"" + name + "Args\", got \"" + kind.Scalar() + "\"");
      stripped = strip_type_meta(args);
    }
    // Args of plugins implemented elsewhere are kept but never decoded.
    if (plugin != nullptr && plugin->validate_args) {
      Status valid = plugin->validate_args(stripped);
      if (!valid) throw FieldError(args_path, valid.message());
    }
    profile.plugin_args[name] = stripped;
  }
}

// ---- profiles ----------------------------------------------------------------

Profile parse_profile(const YAML::Node& node, const std::string& path, const PluginCatalog& catalog) {
  expect_map(node, path);
  reject_unknown_fields(node, path, {"schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig"});
  Profile profile;
  read_optional(node, path, "schedulerName", profile.scheduler_name);
  if (profile.scheduler_name.empty()) throw FieldError(child_path(path, "schedulerName"), "Required value");
  const YAML::Node percentage = node["percentageOfNodesToScore"];
  if (!is_absent(percentage)) {
    int32_t value = 0;
    read_optional(node, path, "percentageOfNodesToScore", value);
    if (value < 0 || value > 100)
      throw FieldError(child_path(path, "percentageOfNodesToScore"),
                       std::to_string(value) + " not in valid range [0-100]");
    profile.percentage_of_nodes_to_score = value;
  }
  const YAML::Node plugins = node["plugins"];
  if (!is_absent(plugins)) {
    profile.plugins_given = true;
    profile.plugins = parse_plugin_sets(plugins, child_path(path, "plugins"));
  }
  const YAML::Node plugin_config = node["pluginConfig"];
  if (!is_absent(plugin_config)) parse_plugin_config(plugin_config, child_path(path, "pluginConfig"), catalog, profile);
  Status resolved = resolve_profile_plugins(profile, catalog, path);
  if (!resolved) throw FieldError("", resolved.message());
  return profile;
}

void check_profiles_agree(const std::vector<Profile>& profiles) {
  std::set<std::string> names;
  for (size_t i = 0; i < profiles.size(); ++i) {
    const std::string path = index_path("profiles", i);
    if (!names.insert(profiles[i].scheduler_name).second)
      throw FieldError(child_path(path, "schedulerName"), "duplicate value \"" + profiles[i].scheduler_name + "\"");
    // All profiles share one queue, so one QueueSort.
    const std::string& first = profiles[0].enabled_at(ExtensionPoint::queue_sort).front().name;
    const std::string& mine = profiles[i].enabled_at(ExtensionPoint::queue_sort).front().name;
    if (mine != first)
      throw FieldError(child_path(child_path(path, "plugins"), "queueSort"),
                       "must be the same for all profiles: profiles[0] uses \"" + first + "\", this one \"" +
                           mine + "\"");
  }
}

// ---- top-level sections --------------------------------------------------------

LeaderElection parse_leader_election(const YAML::Node& node, const std::string& path) {
  LeaderElection le;
  expect_map(node, path);
  reject_unknown_fields(node, path, {"leaderElect", "leaseDuration", "renewDeadline", "retryPeriod",
                                     "resourceLock", "resourceName", "resourceNamespace"});
  read_optional(node, path, "leaderElect", le.leader_elect);
  read_optional(node, path, "leaseDuration", le.lease_duration);
  read_optional(node, path, "renewDeadline", le.renew_deadline);
  read_optional(node, path, "retryPeriod", le.retry_period);
  read_optional(node, path, "resourceLock", le.resource_lock);
  read_optional(node, path, "resourceName", le.resource_name);
  read_optional(node, path, "resourceNamespace", le.resource_namespace);
  return le;
}

/// client-go's constraints: leaseDuration > renewDeadline > 1.2 × retryPeriod.
void validate_leader_election(const LeaderElection& le, const std::string& path) {
  if (!le.leader_elect) return;
  using std::chrono::nanoseconds;
  if (le.lease_duration <= nanoseconds::zero()) throw FieldError(child_path(path, "leaseDuration"), "must be greater than zero");
  if (le.renew_deadline <= nanoseconds::zero()) throw FieldError(child_path(path, "renewDeadline"), "must be greater than zero");
  if (le.retry_period <= nanoseconds::zero()) throw FieldError(child_path(path, "retryPeriod"), "must be greater than zero");
  if (le.lease_duration <= le.renew_deadline)
    throw FieldError(child_path(path, "leaseDuration"), "must be greater than renewDeadline");
  if (le.renew_deadline.count() <= le.retry_period.count() * 12 / 10)
    throw FieldError(child_path(path, "renewDeadline"), "must be greater than retryPeriod*JitterFactor (1.2)");
  if (le.resource_lock != "leases")
    throw FieldError(child_path(path, "resourceLock"), "unsupported value \"" + le.resource_lock + "\": only \"leases\"");
  if (le.resource_name.empty()) throw FieldError(child_path(path, "resourceName"), "Required value");
  if (le.resource_namespace.empty()) throw FieldError(child_path(path, "resourceNamespace"), "Required value");
}

ExtenderTls parse_tls(const YAML::Node& node, const std::string& path) {
  ExtenderTls tls;
  expect_map(node, path);
  reject_unknown_fields(node, path, {"insecure", "serverName", "certFile", "keyFile", "caFile", "certData",
                                     "keyData", "caData"});
  read_optional(node, path, "insecure", tls.insecure);
  read_optional(node, path, "serverName", tls.server_name);
  read_optional(node, path, "certFile", tls.cert_file);
  read_optional(node, path, "keyFile", tls.key_file);
  read_optional(node, path, "caFile", tls.ca_file);
  read_optional(node, path, "certData", tls.cert_data);
  read_optional(node, path, "keyData", tls.key_data);
  read_optional(node, path, "caData", tls.ca_data);
  return tls;
}

Extender parse_extender(const YAML::Node& node, const std::string& path) {
  Extender e;
  expect_map(node, path);
  reject_unknown_fields(node, path, {"urlPrefix", "filterVerb", "prioritizeVerb", "preemptVerb", "bindVerb",
                                     "weight", "enableHTTPS", "tlsConfig", "httpTimeout", "nodeCacheCapable",
                                     "managedResources", "ignorable"});
  read_optional(node, path, "urlPrefix", e.url_prefix);
  read_optional(node, path, "filterVerb", e.filter_verb);
  read_optional(node, path, "prioritizeVerb", e.prioritize_verb);
  read_optional(node, path, "preemptVerb", e.preempt_verb);
  read_optional(node, path, "bindVerb", e.bind_verb);
  read_optional(node, path, "weight", e.weight);
  read_optional(node, path, "enableHTTPS", e.enable_https);
  if (!is_absent(node["tlsConfig"])) e.tls = parse_tls(node["tlsConfig"], child_path(path, "tlsConfig"));
  read_optional(node, path, "httpTimeout", e.http_timeout);
  read_optional(node, path, "nodeCacheCapable", e.node_cache_capable);
  read_optional(node, path, "ignorable", e.ignorable);
  const YAML::Node managed = node["managedResources"];
  if (!is_absent(managed)) {
    const std::string list_path = child_path(path, "managedResources");
    expect_sequence(managed, list_path);
    for (size_t i = 0; i < managed.size(); ++i) {
      const std::string entry_path = index_path(list_path, i);
      expect_map(managed[i], entry_path);
      reject_unknown_fields(managed[i], entry_path, {"name", "ignoredByScheduler"});
      ExtenderManagedResource r;
      read_optional(managed[i], entry_path, "name", r.name);
      read_optional(managed[i], entry_path, "ignoredByScheduler", r.ignored_by_scheduler);
      const std::string name_path = child_path(entry_path, "name");
      if (r.name.empty()) throw FieldError(name_path, "Required value");
      // As kube-scheduler's validateExtendedResourceName: `cpu` here would hand every pod to the extender.
      if (!resource_names::is_extended_resource_name(r.name))
        throw FieldError(name_path, "\"" + r.name + "\": is an invalid extended resource name");
      for (const auto& earlier : e.managed_resources)
        if (earlier.name == r.name) throw FieldError(name_path, "duplicate extender managed resource name \"" + r.name + "\"");
      e.managed_resources.push_back(r);
    }
  }
  if (e.url_prefix.empty()) throw FieldError(child_path(path, "urlPrefix"), "Required value");
  if (!e.prioritize_verb.empty() && e.weight <= 0)
    throw FieldError(child_path(path, "weight"), "must have a positive weight applied to it");
  if (e.http_timeout < Duration::zero()) throw FieldError(child_path(path, "httpTimeout"), "must not be negative");
  if (e.http_timeout == Duration::zero()) e.http_timeout = std::chrono::seconds(5);  // as NewHTTPExtender does
  return e;
}

TroupeSettings parse_troupe(const YAML::Node& node, const std::string& path) {
  TroupeSettings t;
  expect_map(node, path);
  reject_unknown_fields(node, path, {"bindAddress", "nodePartitions", "workerThreads", "bindConcurrency", "eventQueueSize",
                                     "evaluationCache"});
  read_optional(node, path, "bindAddress", t.bind_address);
  read_optional(node, path, "nodePartitions", t.node_partitions);
  read_optional(node, path, "workerThreads", t.worker_threads);
  read_optional(node, path, "bindConcurrency", t.bind_concurrency);
  read_optional(node, path, "eventQueueSize", t.event_queue_size);
  read_optional(node, path, "evaluationCache", t.evaluation_cache);
  // Upper bounds: each partition, thread and binding slot costs memory and a thread or actor up front.
  auto within = [&](int32_t value, int32_t low, int32_t high, const char* field) {
    if (value < low || value > high)
      throw FieldError(child_path(path, field),
                       "Invalid value: " + std::to_string(value) + ": must be between " + std::to_string(low) +
                           " and " + std::to_string(high));
  };
  within(t.node_partitions, 0, 4096, "nodePartitions");
  within(t.worker_threads, 0, 1024, "workerThreads");
  within(t.bind_concurrency, 1, 1024, "bindConcurrency");
  within(t.event_queue_size, 0, 10000000, "eventQueueSize");
  return t;
}

void parse_type_meta(const YAML::Node& root) {
  const YAML::Node api_version = root["apiVersion"];
  if (is_absent(api_version)) throw FieldError("apiVersion", std::string("Required value (want ") + kApiVersion + ")");
  const std::string version = read_string(api_version, "apiVersion");
  if (version != kApiVersion)
    throw FieldError("apiVersion", "unsupported version \"" + version + "\" (want " + kApiVersion + ")");
  const YAML::Node kind = root["kind"];
  if (is_absent(kind)) throw FieldError("kind", std::string("Required value (want ") + kKind + ")");
  const std::string kind_text = read_string(kind, "kind");
  if (kind_text != kKind) throw FieldError("kind", "must be " + std::string(kKind) + ", got \"" + kind_text + "\"");
}

void parse_scalars(const YAML::Node& root, SchedulerConfiguration& config) {
  read_optional(root, "", "parallelism", config.parallelism);
  read_optional(root, "", "percentageOfNodesToScore", config.percentage_of_nodes_to_score);
  read_optional(root, "", "podInitialBackoffSeconds", config.pod_initial_backoff_seconds);
  read_optional(root, "", "podMaxBackoffSeconds", config.pod_max_backoff_seconds);
  read_optional(root, "", "enableProfiling", config.enable_profiling);
  read_optional(root, "", "enableContentionProfiling", config.enable_contention_profiling);
  read_optional(root, "", "delayCacheUntilActive", config.delay_cache_until_active);
  if (config.parallelism <= 0) throw FieldError("parallelism", "should be an integer value greater than zero");
  if (config.percentage_of_nodes_to_score < 0 || config.percentage_of_nodes_to_score > 100)
    throw FieldError("percentageOfNodesToScore",
                     std::to_string(config.percentage_of_nodes_to_score) + " not in valid range [0-100]");
  if (config.pod_initial_backoff_seconds <= 0) throw FieldError("podInitialBackoffSeconds", "must be greater than 0");
  if (config.pod_max_backoff_seconds < config.pod_initial_backoff_seconds)
    throw FieldError("podMaxBackoffSeconds", "must be greater than or equal to podInitialBackoffSeconds");
}

void parse_extenders(const YAML::Node& node, SchedulerConfiguration& config) {
  expect_sequence(node, "extenders");
  int binders = 0;
  for (size_t i = 0; i < node.size(); ++i) {
    config.extenders.push_back(parse_extender(node[i], index_path("extenders", i)));
    if (!config.extenders.back().bind_verb.empty() && ++binders > 1)
      throw FieldError(child_path(index_path("extenders", i), "bindVerb"),
                       "only one extender can implement bind, found " + std::to_string(binders));
  }
}

void parse_profiles(const YAML::Node& node, const PluginCatalog& catalog, SchedulerConfiguration& config) {
  if (!is_absent(node)) {
    expect_sequence(node, "profiles");
    for (size_t i = 0; i < node.size(); ++i) {
      const std::string path = index_path("profiles", i);
      // As kube-scheduler: only a lone profile gets the default name.
      if (node.size() > 1 && node[i].IsMap() && is_absent(node[i]["schedulerName"]))
        throw FieldError(child_path(path, "schedulerName"), "Required value");
      config.profiles.push_back(parse_profile(node[i], path, catalog));
    }
  }
  if (config.profiles.empty())
    config.profiles.push_back(parse_profile(YAML::Node(YAML::NodeType::Map), "profiles[0]", catalog));
  check_profiles_agree(config.profiles);
}

// kube-scheduler's buildExtenders: the resources an extender manages with
// ignoredByScheduler are NodeResourcesFit's ignoredResources in every profile,
// in place of what its args say (the extender decides whether they fit).
void pass_ignored_resources_to_fit(SchedulerConfiguration& config) {
  YAML::Node ignored(YAML::NodeType::Sequence);
  for (const Extender& e : config.extenders)
    for (const ExtenderManagedResource& r : e.managed_resources)
      if (r.ignored_by_scheduler) ignored.push_back(r.name);
  if (ignored.size() == 0) return;
  for (Profile& profile : config.profiles) {
    YAML::Node& args = profile.plugin_args[kNodeResourcesFit];
    args = args.IsMap() ? YAML::Clone(args) : YAML::Node(YAML::NodeType::Map);
    args["ignoredResources"] = YAML::Clone(ignored);
  }
}

SchedulerConfiguration parse_root(const YAML::Node& root, const PluginCatalog& catalog) {
  if (is_absent(root)) throw FieldError("", "the configuration is empty");
  expect_map(root, "");
  reject_unknown_fields(root, "", {"apiVersion", "kind", "parallelism", "percentageOfNodesToScore",
                                   "podInitialBackoffSeconds", "podMaxBackoffSeconds", "enableProfiling",
                                   "enableContentionProfiling", "delayCacheUntilActive", "clientConnection",
                                   "leaderElection", "profiles", "extenders", "troupe"});
  parse_type_meta(root);
  SchedulerConfiguration config;
  parse_scalars(root, config);
  config.client_connection = parse_client_connection(root["clientConnection"], "clientConnection");
  if (!is_absent(root["leaderElection"]))
    config.leader_election = parse_leader_election(root["leaderElection"], "leaderElection");
  validate_leader_election(config.leader_election, "leaderElection");
  if (!is_absent(root["extenders"])) parse_extenders(root["extenders"], config);
  if (!is_absent(root["troupe"])) config.troupe = parse_troupe(root["troupe"], "troupe");
  parse_profiles(root["profiles"], catalog, config);
  pass_ignored_resources_to_fit(config);
  return config;
}

}  // namespace

Result<SchedulerConfiguration> parse_scheduler_configuration(const std::string& yaml_text,
                                                             const PluginCatalog& catalog) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    return Error{"invalid YAML at line " + std::to_string(e.mark.line + 1) + ", column " +
                 std::to_string(e.mark.column + 1) + ": " + e.msg};
  }
  SchedulerConfiguration config;
  Status parsed = catch_field_errors([&] {
    reject_duplicate_fields(root);
    config = parse_root(root, catalog);
  });
  if (!parsed) return Error{parsed.message()};
  return config;
}

Status apply_leader_elect_flag(SchedulerConfiguration& config, bool leader_elect) {
  config.leader_election.leader_elect = leader_elect;
  return catch_field_errors([&] { validate_leader_election(config.leader_election, "leaderElection"); });
}

Result<SchedulerConfiguration> load_scheduler_configuration(const std::string& path, const PluginCatalog& catalog) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open the scheduler configuration"};
  std::ostringstream text;
  text << in.rdbuf();
  auto config = parse_scheduler_configuration(text.str(), catalog);
  if (!config) return Error{path + ": " + config.message()};
  return config;
}

}  // namespace troupe::config
