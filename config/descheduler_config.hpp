#pragma once
// DeschedulerConfiguration (Koordinator's descheduler/v1alpha2) as plain
// structs, defaulted as koord-descheduler defaults it
// (pkg/descheduler/apis/config/v1alpha2/defaults.go). Plugin args stay YAML
// here: plugins/descheduler decodes LowNodeLoad and MigrationController args,
// so config/ never depends on plugins/. The shape is documented in
// plugins/descheduler/README.md.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "config/client_connection.hpp"
#include "model/int_or_string.hpp"
#include "model/label_selector.hpp"
#include "model/result.hpp"

namespace troupe::config {

inline constexpr const char* kDeschedulerApiVersion = "descheduler/v1alpha2";
inline constexpr const char* kDeschedulerKind = "DeschedulerConfiguration";
inline constexpr const char* kDefaultDeschedulerProfile = "koord-descheduler";
inline constexpr const char* kMigrationControllerPlugin = "MigrationController";
inline constexpr const char* kLowNodeLoadPlugin = "LowNodeLoad";

/// The descheduler's extension points, in the order a cycle runs them.
enum class DeschedulerPoint { deschedule, balance, evict, filter };
inline constexpr DeschedulerPoint kDeschedulerPoints[] = {DeschedulerPoint::deschedule, DeschedulerPoint::balance,
                                                          DeschedulerPoint::evict, DeschedulerPoint::filter};
/// "deschedule", "balance", "evict", "filter".
const char* to_string(DeschedulerPoint point);

/// `enabled` / `disabled` plugin names of one extension point.
struct DeschedulerPluginSet {
  std::vector<std::string> enabled;
  std::vector<std::string> disabled;
};

struct DeschedulerProfile {
  std::string name;
  /// As written, one set per DeschedulerPoint.
  std::map<DeschedulerPoint, DeschedulerPluginSet> plugins;
  /// Resolved: defaults (evict and filter = MigrationController) merged with
  /// the written sets ("*" in disabled drops every default), in order.
  std::map<DeschedulerPoint, std::vector<std::string>> enabled;
  /// pluginConfig[].args by plugin name, apiVersion/kind removed.
  std::map<std::string, YAML::Node> plugin_args;
  std::optional<LabelSelector> node_selector;

  const std::vector<std::string>& enabled_at(DeschedulerPoint point) const;
  /// The args for a plugin, or a Null node (the plugin applies its defaults).
  YAML::Node args_for(const std::string& plugin) const;
};

struct DeschedulerLeaderElection {
  bool leader_elect = true;
  std::chrono::nanoseconds lease_duration = std::chrono::seconds(15);
  std::chrono::nanoseconds renew_deadline = std::chrono::seconds(10);
  std::chrono::nanoseconds retry_period = std::chrono::seconds(2);
  std::string resource_lock = "leases";
  std::string resource_name = "koord-descheduler";
  std::string resource_namespace = "koordinator-system";
};

struct DeschedulerConfiguration {
  DeschedulerLeaderElection leader_election;
  ClientConnection client_connection;
  std::string healthz_bind_address = "0.0.0.0:10251";
  std::string metrics_bind_address = "0.0.0.0:10251";
  /// 0 runs one descheduling cycle and stops.
  std::chrono::nanoseconds descheduling_interval{0};
  bool dry_run = false;
  std::optional<LabelSelector> node_selector;
  /// Eviction counters, reset at the start of every cycle; nullopt = no limit.
  std::optional<uint32_t> max_pods_to_evict_per_node;       // maxNoOfPodsToEvictPerNode
  std::optional<uint32_t> max_pods_to_evict_per_namespace;  // maxNoOfPodsToEvictPerNamespace
  std::optional<uint32_t> max_pods_to_evict_total;          // maxNoOfPodsToEvictTotal
  std::vector<DeschedulerProfile> profiles;
};

/// Decodes and defaults a DeschedulerConfiguration document. apiVersion and
/// kind may be left out; when given they must be descheduler/v1alpha2 and
/// DeschedulerConfiguration. Unknown fields are errors; every error names the
/// field ("profiles[0].plugins.balance.enabled[1].name: must be a string ...").
Result<DeschedulerConfiguration> parse_descheduler_configuration(const YAML::Node& document);
/// YAML text -> parse_descheduler_configuration; YAML syntax errors included.
Result<DeschedulerConfiguration> load_descheduler_configuration(std::string_view text);

// Readers shared with plugins/descheduler's args (throw FieldError).

/// A metav1.LabelSelector ({matchLabels, matchExpressions}); operators In,
/// NotIn, Exists, DoesNotExist with their value rules.
LabelSelector read_label_selector(const YAML::Node& node, const std::string& path);
/// intstr.IntOrString: an integer, or a string that is "N%" or an integer.
IntOrString read_int_or_percent(const YAML::Node& node, const std::string& path);
/// A list of strings.
std::vector<std::string> read_string_list(const YAML::Node& node, const std::string& path);

}  // namespace troupe::config
