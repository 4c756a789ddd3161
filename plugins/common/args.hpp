#pragma once
// Shared pieces for decoding plugin args from YAML: field-path errors (via
// config/yaml_fields.hpp) and the {name, weight} resource lists several
// plugins take.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "config/yaml_fields.hpp"
#include "model/result.hpp"
#include "plugins/framework/plugin.hpp"

namespace troupe::plugins {

struct ResourceSpec {
  std::string name;
  int64_t weight = 1;
};

/// Decodes args with `decode` (which throws config::FieldError) and builds
/// the plugin from them; errors carry the field path inside args.
template <class Args, class PluginT, class Decode>
Result<std::shared_ptr<const Plugin>> build_plugin(const YAML::Node& args, Decode decode) {
  Args decoded;
  Status status = config::catch_field_errors([&] {
    if (!config::is_absent(args)) config::expect_map(args, "");
    decoded = decode(args);
  });
  if (!status) return Error{status.message()};
  return std::shared_ptr<const Plugin>(std::make_shared<const PluginT>(std::move(decoded)));
}

/// A list of {name, weight}; weight 0 or absent becomes 1 (as v1 defaulting),
/// names must be unique and weights within [min_weight, max_weight].
std::vector<ResourceSpec> read_resource_specs(const YAML::Node& list, const std::string& path, int64_t min_weight,
                                              int64_t max_weight);

/// cpu and memory with weight 1: the default resources of the scorers.
std::vector<ResourceSpec> default_resource_specs();

}  // namespace troupe::plugins

namespace troupe::plugins {

/// Factory for a plugin that takes no args: any field in args is an error.
template <class PluginT>
Result<std::shared_ptr<const Plugin>> build_without_args(const YAML::Node& args) {
  Status status = config::catch_field_errors([&] {
    if (config::is_absent(args)) return;
    config::expect_map(args, "");
    config::reject_unknown_fields(args, "", {});
  });
  if (!status) return Error{status.message()};
  return std::shared_ptr<const Plugin>(std::make_shared<const PluginT>());
}

}  // namespace troupe::plugins
