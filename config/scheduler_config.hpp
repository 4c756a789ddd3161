#pragma once
// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) as plain
// structs: what the file said, defaulted as kube-scheduler defaults it, and
// each profile's plugins resolved per extension point (defaults merged,
// multiPoint expanded, weights settled). See ../shared/reference/k8s-protocol.md §5.2.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include <chrono>

#include "model/go_duration.hpp"
#include "config/client_connection.hpp"
#include "config/extension_point.hpp"
#include "config/plugin_catalog.hpp"
#include "model/result.hpp"

namespace troupe::config {

using Duration = std::chrono::nanoseconds;

inline constexpr const char* kApiVersion = "kubescheduler.config.k8s.io/v1";
inline constexpr const char* kKind = "KubeSchedulerConfiguration";
/// troupe is a secondary scheduler: it must not answer to default-scheduler.
inline constexpr const char* kDefaultSchedulerName = "troupe-scheduler";

/// One `{name, weight}` entry of a PluginSet.
struct PluginRef {
  std::string name;
  int32_t weight = 0;  // 0 = not given
};

/// `enabled` / `disabled` lists of one extension point, as written.
struct PluginSet {
  std::vector<PluginRef> enabled;
  std::vector<std::string> disabled;
};

/// The `plugins:` section as written: one set per extension point plus multiPoint.
struct PluginSets {
  PluginSet multi_point;
  std::array<PluginSet, kExtensionPointCount> points;

  PluginSet& at(ExtensionPoint p) { return points[index_of(p)]; }
  const PluginSet& at(ExtensionPoint p) const { return points[index_of(p)]; }
};

/// A plugin enabled at one extension point after resolution.
struct EnabledPlugin {
  std::string name;
  int32_t weight = 0;  // score weight (>= 1) at the score point; 0 elsewhere
};

struct Profile {
  std::string scheduler_name = kDefaultSchedulerName;
  std::optional<int32_t> percentage_of_nodes_to_score;
  bool plugins_given = false;  // false: the profile had no `plugins` section
  PluginSets plugins;          // as written
  /// pluginConfig[].args by plugin name, apiVersion/kind removed; a plugin
  /// without pluginConfig has no entry (its factory applies defaults).
  std::map<std::string, YAML::Node> plugin_args;

  /// Resolved: the plugins that run at each extension point, in order.
  std::array<std::vector<EnabledPlugin>, kExtensionPointCount> enabled;

  const std::vector<EnabledPlugin>& enabled_at(ExtensionPoint p) const { return enabled[index_of(p)]; }
  /// Every plugin enabled at any point, each once, in order of first appearance.
  std::vector<std::string> plugin_names() const;
  /// The args for a plugin, or a Null node.
  YAML::Node args_for(const std::string& plugin) const;
};

struct LeaderElection {
  bool leader_elect = true;
  Duration lease_duration = std::chrono::seconds(15);
  Duration renew_deadline = std::chrono::seconds(10);
  Duration retry_period = std::chrono::seconds(2);
  std::string resource_lock = "leases";
  /// Upstream defaults to "kube-scheduler", the lock of the cluster's own
  /// scheduler; a secondary scheduler sharing it would fight the primary.
  std::string resource_name = kDefaultSchedulerName;
  std::string resource_namespace = "kube-system";
};

struct ExtenderTls {
  bool insecure = false;
  std::string server_name, cert_file, key_file, ca_file, cert_data, key_data, ca_data;
};

struct ExtenderManagedResource {
  std::string name;
  bool ignored_by_scheduler = false;
};

/// extenders[] (k8s-protocol.md §10); parsed and kept for the extender client.
struct Extender {
  std::string url_prefix;
  std::string filter_verb, prioritize_verb, preempt_verb, bind_verb;
  int64_t weight = 0;
  bool enable_https = false;
  ExtenderTls tls;
  Duration http_timeout = std::chrono::seconds(5);  // kube-scheduler's DefaultExtenderTimeout (0 = this)
  bool node_cache_capable = false;
  std::vector<ExtenderManagedResource> managed_resources;
  bool ignorable = false;
};

/// troupe's own process settings, under the top-level `troupe:` key.
struct TroupeSettings {
  std::string bind_address = "0.0.0.0:10259";  // /metrics, /healthz, /readyz (plain HTTP)
  int32_t node_partitions = 0;                  // node actors; 0 = one per scheduler thread
  int32_t worker_threads = 0;                   // CAF scheduler threads; 0 = hardware threads
  int32_t bind_concurrency = 16;                // Binding POSTs in flight
  int32_t event_queue_size = 10000;             // Events waiting behind the bindings at most; more are dropped (counted)
  bool evaluation_cache = true;                 // reuse unchanged nodes' Filter/Score results per pod class
};

struct SchedulerConfiguration {
  int32_t parallelism = 16;
  int32_t percentage_of_nodes_to_score = 0;  // 0 = adaptive
  int64_t pod_initial_backoff_seconds = 1;
  int64_t pod_max_backoff_seconds = 10;
  bool enable_profiling = true;
  bool enable_contention_profiling = true;
  bool delay_cache_until_active = false;
  ClientConnection client_connection;
  LeaderElection leader_election;
  std::vector<Profile> profiles;
  std::vector<Extender> extenders;
  TroupeSettings troupe;

  /// nullptr when no profile has that schedulerName.
  const Profile* profile(const std::string& scheduler_name) const;
};

/// --leader-elect over the file's leaderElection.leaderElect, checked again: a
/// section the file left unchecked (election off) must hold once it is on.
Status apply_leader_elect_flag(SchedulerConfiguration& config, bool leader_elect);

/// Parses, defaults, resolves and validates a configuration. Every error
/// names the field path, e.g.
///   profiles[1].plugins.score.enabled[0].name: unknown plugin "Foo"
Result<SchedulerConfiguration> parse_scheduler_configuration(const std::string& yaml_text,
                                                             const PluginCatalog& catalog);

/// Reads the file and parses it; errors start with the path.
Result<SchedulerConfiguration> load_scheduler_configuration(const std::string& path,
                                                            const PluginCatalog& catalog);

}  // namespace troupe::config
