#include "plugins/common/args.hpp"

#include <set>

namespace troupe::plugins {

using config::FieldError;

std::vector<ResourceSpec> read_resource_specs(const YAML::Node& list, const std::string& path, int64_t min_weight,
                                              int64_t max_weight) {
  config::expect_sequence(list, path);
  std::vector<ResourceSpec> specs;
  std::set<std::string> seen;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string entry = config::index_path(path, i);
    config::expect_map(list[i], entry);
    config::reject_unknown_fields(list[i], entry, {"name", "weight"});
    ResourceSpec spec;
    spec.weight = 0;
    config::read_optional(list[i], entry, "name", spec.name);
    config::read_optional(list[i], entry, "weight", spec.weight);
    if (spec.name.empty()) throw FieldError(config::child_path(entry, "name"), "Required value");
    if (!seen.insert(spec.name).second)
      throw FieldError(config::child_path(entry, "name"), "Duplicate value: \"" + spec.name + "\"");
    if (spec.weight == 0) spec.weight = 1;
    if (spec.weight < min_weight || spec.weight > max_weight) {
      std::string range = min_weight == max_weight ? "must be " + std::to_string(min_weight)
                                                   : "resource weight of " + spec.name + " not in valid range [" +
                                                         std::to_string(min_weight) + ", " +
                                                         std::to_string(max_weight) + "]";
      throw FieldError(config::child_path(entry, "weight"), "Invalid value: " + std::to_string(spec.weight) + ": " + range);
    }
    specs.push_back(spec);
  }
  return specs;
}

std::vector<ResourceSpec> default_resource_specs() { return {{"cpu", 1}, {"memory", 1}}; }

}  // namespace troupe::plugins
