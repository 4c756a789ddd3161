#include "plugins/reservation/reservation_args.hpp"

#include <algorithm>

#include "config/yaml_fields.hpp"
#include "model/resource_names.hpp"

namespace troupe::plugins::reservation {

using config::FieldError;

namespace {

std::vector<std::string> read_strings(const YAML::Node& list, const std::string& path) {
  std::vector<std::string> out;
  if (config::is_absent(list)) return out;
  config::expect_sequence(list, path);
  for (size_t i = 0; i < list.size(); ++i) out.push_back(config::read_string(list[i], config::index_path(path, i)));
  return out;
}

void require_positive(int64_t value, const char* field) {
  if (value <= 0) throw FieldError(field, "Invalid value: " + std::to_string(value) + ": must be greater than 0");
}

void validate_ignored(const ReservationArgs& args) {
  for (size_t i = 0; i < args.ignored_resources.size(); ++i) {
    const std::string& name = args.ignored_resources[i];
    if (!resource_names::is_extended_resource_name(name))
      throw FieldError(config::index_path("ignoredResources", i),
                       "Invalid value: \"" + name + "\": must be an extended resource name");
  }
  for (size_t i = 0; i < args.ignored_resource_groups.size(); ++i) {
    const std::string& group = args.ignored_resource_groups[i];
    const std::string path = config::index_path("ignoredResourceGroups", i);
    if (group.empty() || group.find('/') != std::string::npos)
      throw FieldError(path, "Invalid value: \"" + group + "\": resource group name can't contain '/'");
    if (group == "kubernetes.io")
      throw FieldError(path, "Invalid value: \"" + group + "\": native resource group can't be ignored");
  }
}

void validate_preemption(const ReservationArgs& args) {
  if (args.min_candidate_nodes_percentage < 0 || args.min_candidate_nodes_percentage > 100)
    throw FieldError("minCandidateNodesPercentage", "Invalid value: " +
                                                        std::to_string(args.min_candidate_nodes_percentage) +
                                                        ": not in valid range [0, 100]");
  if (args.min_candidate_nodes_absolute < 0)
    throw FieldError("minCandidateNodesAbsolute", "Invalid value: " + std::to_string(args.min_candidate_nodes_absolute) +
                                                      ": not in valid range [0, inf)");
  if (args.min_candidate_nodes_percentage == 0 && args.min_candidate_nodes_absolute == 0)
    throw FieldError("minCandidateNodesPercentage",
                     "Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute");
}

PreAllocationConfig read_pre_allocation(const YAML::Node& node, const std::string& path) {
  PreAllocationConfig out;
  if (config::is_absent(node)) return out;
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path, {"enableClusterMode", "clusterLabelKey", "clusterPriorityAnnotationKey",
                                             "preferNoPreAllocatedPods"});
  config::read_optional(node, path, "enableClusterMode", out.enable_cluster_mode);
  config::read_optional(node, path, "clusterLabelKey", out.cluster_label_key);
  config::read_optional(node, path, "clusterPriorityAnnotationKey", out.cluster_priority_annotation_key);
  config::read_optional(node, path, "preferNoPreAllocatedPods", out.prefer_no_pre_allocated_pods);
  return out;
}

ReservationSelectorIndex read_selector_index(const YAML::Node& node, const std::string& path) {
  ReservationSelectorIndex out;
  if (config::is_absent(node)) return out;
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path, {"enabled", "keyPrefixes", "keys"});
  config::read_optional(node, path, "enabled", out.enabled);
  out.key_prefixes = read_strings(node["keyPrefixes"], config::child_path(path, "keyPrefixes"));
  out.keys = read_strings(node["keys"], config::child_path(path, "keys"));
  return out;
}

}  // namespace

ReservationArgs ReservationArgs::from_yaml(const YAML::Node& args) {
  ReservationArgs out;
  if (config::is_absent(args)) return out;
  config::reject_unknown_fields(
      args, "",
      {"enablePreemption", "minCandidateNodesPercentage", "minCandidateNodesAbsolute", "controllerWorkers",
       "gcDurationSeconds", "gcIntervalSeconds", "resyncIntervalSeconds", "disableGarbageCollection",
       "ignoredResources", "ignoredResourceGroups", "preAllocationConfig", "reservationSelectorIndex"});
  config::read_optional(args, "", "enablePreemption", out.enable_preemption);
  config::read_optional(args, "", "minCandidateNodesPercentage", out.min_candidate_nodes_percentage);
  config::read_optional(args, "", "minCandidateNodesAbsolute", out.min_candidate_nodes_absolute);
  config::read_optional(args, "", "controllerWorkers", out.controller_workers);
  config::read_optional(args, "", "gcDurationSeconds", out.gc_duration_seconds);
  config::read_optional(args, "", "gcIntervalSeconds", out.gc_interval_seconds);
  config::read_optional(args, "", "resyncIntervalSeconds", out.resync_interval_seconds);
  config::read_optional(args, "", "disableGarbageCollection", out.disable_garbage_collection);
  out.ignored_resources = read_strings(args["ignoredResources"], "ignoredResources");
  out.ignored_resource_groups = read_strings(args["ignoredResourceGroups"], "ignoredResourceGroups");
  out.pre_allocation = read_pre_allocation(args["preAllocationConfig"], "preAllocationConfig");
  out.selector_index = read_selector_index(args["reservationSelectorIndex"], "reservationSelectorIndex");
  validate_preemption(out);
  require_positive(out.controller_workers, "controllerWorkers");
  require_positive(out.gc_duration_seconds, "gcDurationSeconds");
  require_positive(out.gc_interval_seconds, "gcIntervalSeconds");
  require_positive(out.resync_interval_seconds, "resyncIntervalSeconds");
  validate_ignored(out);
  return out;
}

bool ReservationArgs::ignores(const std::string& resource) const {
  if (std::find(ignored_resources.begin(), ignored_resources.end(), resource) != ignored_resources.end()) return true;
  const auto slash = resource.find('/');
  if (slash == std::string::npos) return false;
  return std::find(ignored_resource_groups.begin(), ignored_resource_groups.end(), resource.substr(0, slash)) !=
         ignored_resource_groups.end();
}

}  // namespace troupe::plugins::reservation
