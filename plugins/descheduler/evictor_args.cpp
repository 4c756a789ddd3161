#include "plugins/descheduler/evictor_args.hpp"

#include "config/descheduler_config.hpp"
#include "config/yaml_fields.hpp"

namespace troupe::plugins::descheduler {

using config::child_path;
using config::FieldError;
using config::is_absent;

Namespaces read_namespaces(const YAML::Node& node, const std::string& path) {
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path, {"include", "exclude"});
  Namespaces out;
  out.include = config::read_string_list(node["include"], child_path(path, "include"));
  out.exclude = config::read_string_list(node["exclude"], child_path(path, "exclude"));
  if (!out.include.empty() && !out.exclude.empty()) {
    throw FieldError(path, "only one of include and exclude may be set");
  }
  return out;
}

namespace {

PriorityThreshold read_priority_threshold(const YAML::Node& node, const std::string& path) {
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path, {"value", "name"});
  PriorityThreshold out;
  if (!is_absent(node["value"])) {
    const int64_t value = config::read_int(node["value"], child_path(path, "value"));
    if (value < INT32_MIN || value > INT32_MAX) throw FieldError(child_path(path, "value"), "must fit in an int32");
    out.value = static_cast<int32_t>(value);
  }
  config::read_optional(node, path, "name", out.name);
  if (out.value && !out.name.empty()) throw FieldError(path, "only one of value and name may be set");
  // The descheduler does not follow PriorityClasses: a threshold by name would find none and refuse every pod.
  if (!out.name.empty())
    throw FieldError(child_path(path, "name"), "not supported: troupe does not read PriorityClasses; give the value");
  return out;
}

std::set<std::string> read_gates(const YAML::Node& node, const std::string& path) {
  std::set<std::string> gates;
  const auto names = config::read_string_list(node, path);
  for (size_t i = 0; i < names.size(); ++i) {
    if (!eviction_gate_names().count(names[i])) {
      throw FieldError(config::index_path(path, i), "unknown eviction gate \"" + names[i] + "\"");
    }
    gates.insert(names[i]);
  }
  return gates;
}

}  // namespace

EvictorArgs EvictorArgs::from_yaml(const YAML::Node& args, const std::string& path) {
  EvictorArgs out;
  if (is_absent(args)) return out;
  config::read_optional(args, path, "evictFailedBarePods", out.evict_failed_bare_pods);
  config::read_optional(args, path, "evictAllBarePods", out.evict_all_bare_pods);
  config::read_optional(args, path, "evictLocalStoragePods", out.evict_local_storage_pods);
  config::read_optional(args, path, "evictSystemCriticalPods", out.evict_system_critical_pods);
  config::read_optional(args, path, "ignorePvcPods", out.ignore_pvc_pods);
  config::read_optional(args, path, "nodeFit", out.node_fit);
  if (!is_absent(args["priorityThreshold"])) {
    out.priority_threshold = read_priority_threshold(args["priorityThreshold"], child_path(path, "priorityThreshold"));
  }
  if (!is_absent(args["labelSelector"])) {
    out.label_selector = config::read_label_selector(args["labelSelector"], child_path(path, "labelSelector"));
  }
  if (!is_absent(args["namespaces"])) out.namespaces = read_namespaces(args["namespaces"], child_path(path, "namespaces"));
  out.skipped_gates = read_gates(args["skipEvictionGates"], child_path(path, "skipEvictionGates"));
  return out;
}

}  // namespace troupe::plugins::descheduler
