#include "plugins/node_numa_resource/numa_args.hpp"

#include "config/yaml_fields.hpp"
#include "model/resource_names.hpp"

namespace troupe::plugins::numa {

using config::FieldError;

namespace {

NumaScoringStrategy read_strategy(const YAML::Node& node, const std::string& path) {
  NumaScoringStrategy out;
  if (config::is_absent(node)) return out;
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path, {"type", "resources"});
  std::string type = "LeastAllocated";
  config::read_optional(node, path, "type", type);
  if (type == "MostAllocated")
    out.type = ScoringType::most_allocated;
  else if (type != "LeastAllocated")
    throw FieldError(config::child_path(path, "type"),
                     "Unsupported value: \"" + type + "\": supported values: \"LeastAllocated\", \"MostAllocated\"");
  if (!config::is_absent(node["resources"]))
    out.resources = read_resource_specs(node["resources"], config::child_path(path, "resources"), 1, 100);
  return out;
}

}  // namespace

bool scored_resource(const std::string& name, int64_t pod_request) {
  if (name == resource_names::kPods) return false;
  return pod_request != 0 || !resource_names::is_scalar_resource_name(name);
}

NodeNumaResourceArgs NodeNumaResourceArgs::from_yaml(const YAML::Node& args) {
  NodeNumaResourceArgs out;
  if (config::is_absent(args)) return out;
  config::expect_map(args, "");
  config::reject_unknown_fields(args, "", {"defaultCPUBindPolicy", "scoringStrategy", "numaScoringStrategy"});
  std::string policy;
  config::read_optional(args, "", "defaultCPUBindPolicy", policy);
  if (!policy.empty()) {
    out.default_cpu_bind_policy = parse_cpu_bind_policy(policy);
    if (!binds_cpus(out.default_cpu_bind_policy))
      throw FieldError("defaultCPUBindPolicy", "Invalid value: \"" + policy +
                                                   "\": must specified CPU bind policy FullPCPUs or SpreadByPCPUs");
  }
  out.scoring_strategy = read_strategy(args["scoringStrategy"], "scoringStrategy");
  out.numa_scoring_strategy = read_strategy(args["numaScoringStrategy"], "numaScoringStrategy");
  return out;
}

}  // namespace troupe::plugins::numa
