#include "plugins/pod_topology_spread/default_constraints.hpp"

#include <optional>

#include "config/yaml_fields.hpp"
#include "model/json_enum.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"

namespace troupe::plugins::spread {

using config::FieldError;

namespace {

constexpr const char* kHostnameLabel = "kubernetes.io/hostname";
constexpr const char* kZoneLabel = "topology.kubernetes.io/zone";

/// An enum field by its API name (model/json_enum.hpp), with the API
/// server's wording for a value outside the enum. Absent or empty: `fallback`,
/// or without one a "Required value" error.
template <class E>
E read_enum(const YAML::Node& entry, const std::string& path, const char* key, std::optional<E> fallback) {
  std::string value;
  config::read_optional(entry, path, key, value);
  if (value.empty() && fallback) return *fallback;
  if (value.empty()) throw FieldError(config::child_path(path, key), "Required value: can not be empty");
  if (auto known = enum_from_name<E>(value)) return *known;
  throw FieldError(config::child_path(path, key), enum_error<E>(value));
}

TopologySpreadConstraint read_constraint(const YAML::Node& entry, const std::string& path) {
  config::expect_map(entry, path);
  config::reject_unknown_fields(entry, path,
                                {"maxSkew", "topologyKey", "whenUnsatisfiable", "labelSelector", "minDomains",
                                 "nodeAffinityPolicy", "nodeTaintsPolicy", "matchLabelKeys"});
  TopologySpreadConstraint c;
  config::read_optional(entry, path, "maxSkew", c.max_skew);
  if (c.max_skew <= 0)
    throw FieldError(config::child_path(path, "maxSkew"),
                     "Invalid value: " + std::to_string(c.max_skew) + ": not in valid range (0, inf)");
  config::read_optional(entry, path, "topologyKey", c.topology_key);
  const std::string key_path = config::child_path(path, "topologyKey");
  if (c.topology_key.empty()) throw FieldError(key_path, "Required value: can not be empty");
  if (Status valid = validate_label_key(c.topology_key); !valid.ok())
    throw FieldError(key_path, "Invalid value: \"" + c.topology_key + "\": " + valid.message());
  c.when_unsatisfiable = read_enum<UnsatisfiableAction>(entry, path, "whenUnsatisfiable", std::nullopt);
  if (!config::is_absent(entry["labelSelector"]))
    throw FieldError(config::child_path(path, "labelSelector"),
                     "Forbidden: constraint must not define a selector, as they deduced for each pod");
  if (!config::is_absent(entry["minDomains"])) {
    int32_t min_domains = 0;
    config::read_optional(entry, path, "minDomains", min_domains);
    if (min_domains <= 0)
      throw FieldError(config::child_path(path, "minDomains"),
                       "Invalid value: " + std::to_string(min_domains) + ": must be greater than zero");
    c.min_domains = min_domains;
  }
  c.node_affinity_policy = read_enum<NodeInclusionPolicy>(entry, path, "nodeAffinityPolicy", NodeInclusionPolicy::honor);
  c.node_taints_policy = read_enum<NodeInclusionPolicy>(entry, path, "nodeTaintsPolicy", NodeInclusionPolicy::ignore);
  // matchLabelKeys are accepted and, as upstream, have no effect: the
  // siblings' selector replaces a default constraint's whole selector.
  const YAML::Node keys = entry["matchLabelKeys"];
  if (!config::is_absent(keys)) {
    config::expect_sequence(keys, config::child_path(path, "matchLabelKeys"));
    for (size_t i = 0; i < keys.size(); ++i)
      c.match_label_keys.push_back(config::read_string(keys[i], config::index_path(config::child_path(path, "matchLabelKeys"), i)));
  }
  return c;
}

}  // namespace

std::vector<TopologySpreadConstraint> system_default_constraints() {
  TopologySpreadConstraint host;
  host.max_skew = 3;
  host.topology_key = kHostnameLabel;
  host.when_unsatisfiable = UnsatisfiableAction::schedule_anyway;
  TopologySpreadConstraint zone = host;
  zone.max_skew = 5;
  zone.topology_key = kZoneLabel;
  return {host, zone};
}

std::vector<TopologySpreadConstraint> read_default_constraints(const YAML::Node& list, const std::string& path) {
  config::expect_sequence(list, path);
  std::vector<TopologySpreadConstraint> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string entry = config::index_path(path, i);
    TopologySpreadConstraint c = read_constraint(list[i], entry);
    for (const auto& earlier : out)
      if (earlier.topology_key == c.topology_key && earlier.when_unsatisfiable == c.when_unsatisfiable)
        throw FieldError(entry, "Duplicate value: \"{" + c.topology_key + ", " + std::string(enum_name(c.when_unsatisfiable)) +
                                    "}\"");
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<SpreadConstraint> default_constraints_of(const std::vector<TopologySpreadConstraint>& defaults,
                                                     UnsatisfiableAction kind, const LabelSelector& siblings) {
  std::vector<SpreadConstraint> out;
  if (siblings.empty()) return out;
  for (const auto& c : defaults) {
    if (c.when_unsatisfiable != kind) continue;
    out.push_back(SpreadConstraint{c.max_skew, c.topology_key, siblings, c.min_domains, c.node_affinity_policy,
                                   c.node_taints_policy});
  }
  return out;
}

}  // namespace troupe::plugins::spread
