#include "plugins/node_resources_fit/node_resources_fit.hpp"

#include <algorithm>
#include <cmath>

#include "config/yaml_fields.hpp"
#include "model/resource_names.hpp"

namespace troupe::plugins {

using config::FieldError;
namespace rn = resource_names;

namespace {

constexpr int64_t kMaxCustomPriorityScore = 10;
constexpr int64_t kMaxUtilization = 100;

std::vector<std::string> read_names(const YAML::Node& list, const std::string& path) {
  std::vector<std::string> out;
  if (config::is_absent(list)) return out;
  config::expect_sequence(list, path);
  for (size_t i = 0; i < list.size(); ++i) out.push_back(config::read_string(list[i], config::index_path(path, i)));
  return out;
}

ScoringStrategyType read_type(const YAML::Node& node, const std::string& path) {
  const std::string type = config::read_string(node, path);
  if (type == "LeastAllocated") return ScoringStrategyType::least_allocated;
  if (type == "MostAllocated") return ScoringStrategyType::most_allocated;
  if (type == "RequestedToCapacityRatio") return ScoringStrategyType::requested_to_capacity_ratio;
  throw FieldError(path, "Unsupported value: \"" + type +
                             "\": supported values: \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\"");
}

std::vector<UtilizationShapePoint> read_shape(const YAML::Node& rtcr, const std::string& path) {
  const std::string shape_path = config::child_path(path, "shape");
  if (config::is_absent(rtcr)) throw FieldError(path, "Required value");
  config::expect_map(rtcr, path);
  config::reject_unknown_fields(rtcr, path, {"shape"});
  const YAML::Node shape = rtcr["shape"];
  if (config::is_absent(shape) || shape.size() == 0)
    throw FieldError(shape_path, "Required value: at least one point must be specified");
  config::expect_sequence(shape, shape_path);
  std::vector<UtilizationShapePoint> points;
  for (size_t i = 0; i < shape.size(); ++i) {
    const std::string entry = config::index_path(shape_path, i);
    config::expect_map(shape[i], entry);
    config::reject_unknown_fields(shape[i], entry, {"utilization", "score"});
    UtilizationShapePoint p;
    config::read_optional(shape[i], entry, "utilization", p.utilization);
    config::read_optional(shape[i], entry, "score", p.score);
    if (p.utilization < 0 || p.utilization > kMaxUtilization)
      throw FieldError(config::child_path(entry, "utilization"),
                       "Invalid value: " + std::to_string(p.utilization) + ": not in valid range [0, 100]");
    if (i > 0 && p.utilization <= points.back().utilization)
      throw FieldError(config::child_path(entry, "utilization"),
                       "Invalid value: " + std::to_string(p.utilization) + ": utilization values must be sorted in increasing order");
    if (p.score < 0 || p.score > kMaxCustomPriorityScore)
      throw FieldError(config::child_path(entry, "score"),
                       "Invalid value: " + std::to_string(p.score) + ": not in valid range [0, 10]");
    points.push_back(p);
  }
  return points;
}

void validate_groups(const std::vector<std::string>& groups) {
  for (size_t i = 0; i < groups.size(); ++i)
    if (groups[i].find('/') != std::string::npos || groups[i].empty())
      throw FieldError(config::index_path("ignoredResourceGroups", i),
                       "Invalid value: \"" + groups[i] + "\": resource group name can't contain '/'");
}

}  // namespace

NodeResourcesFitArgs NodeResourcesFitArgs::from_yaml(const YAML::Node& args) {
  NodeResourcesFitArgs out;
  if (config::is_absent(args)) return out;
  config::reject_unknown_fields(args, "", {"ignoredResources", "ignoredResourceGroups", "scoringStrategy"});
  out.ignored_resources = read_names(args["ignoredResources"], "ignoredResources");
  out.ignored_resource_groups = read_names(args["ignoredResourceGroups"], "ignoredResourceGroups");
  validate_groups(out.ignored_resource_groups);
  const YAML::Node strategy = args["scoringStrategy"];
  if (config::is_absent(strategy)) return out;
  const std::string path = "scoringStrategy";
  config::expect_map(strategy, path);
  config::reject_unknown_fields(strategy, path, {"type", "resources", "requestedToCapacityRatio"});
  if (!config::is_absent(strategy["type"])) out.strategy = read_type(strategy["type"], config::child_path(path, "type"));
  const YAML::Node resources = strategy["resources"];
  if (!config::is_absent(resources) && resources.size() > 0)
    out.resources = read_resource_specs(resources, config::child_path(path, "resources"), 1, 100);
  const std::string rtcr_path = config::child_path(path, "requestedToCapacityRatio");
  if (out.strategy == ScoringStrategyType::requested_to_capacity_ratio)
    out.shape = read_shape(strategy["requestedToCapacityRatio"], rtcr_path);
  else if (!config::is_absent(strategy["requestedToCapacityRatio"]))
    throw FieldError(rtcr_path, "Forbidden: only allowed with type RequestedToCapacityRatio");
  return out;
}

int64_t broken_linear(const std::vector<UtilizationShapePoint>& shape, int64_t p) {
  for (size_t i = 0; i < shape.size(); ++i) {
    if (p > shape[i].utilization) continue;
    if (i == 0) return shape[0].score;
    const auto& a = shape[i - 1];
    const auto& b = shape[i];
    return a.score + (b.score - a.score) * (p - a.utilization) / (b.utilization - a.utilization);
  }
  return shape.empty() ? 0 : shape.back().score;
}

NodeResourcesFit::NodeResourcesFit(NodeResourcesFitArgs args,
                                   std::shared_ptr<const reservation::ReservedCapacity> reserved)
    : args_(std::move(args)), scored_(classify_resources(args_.resources)), reserved_(std::move(reserved)) {
  for (const auto& p : args_.shape)
    scaled_shape_.push_back({p.utilization, p.score * (kMaxNodeScore / kMaxCustomPriorityScore)});
}

Result<std::shared_ptr<const Plugin>> NodeResourcesFit::make(const YAML::Node& args) {
  return build_plugin<NodeResourcesFitArgs, NodeResourcesFit>(args, NodeResourcesFitArgs::from_yaml);
}

Result<std::shared_ptr<const Plugin>> NodeResourcesFit::make_with_reserved_capacity(
    const YAML::Node& args, std::shared_ptr<const reservation::ReservedCapacity> reserved) {
  auto plugin = make(args);  // validates the args
  if (!plugin) return plugin;
  const auto& fit = dynamic_cast<const NodeResourcesFit&>(**plugin);
  return std::shared_ptr<const Plugin>(std::make_shared<const NodeResourcesFit>(fit.args(), std::move(reserved)));
}

bool NodeResourcesFit::ignored(const std::string& resource) const {
  if (!rn::is_extended_resource_name(resource)) return false;
  if (std::find(args_.ignored_resources.begin(), args_.ignored_resources.end(), resource) !=
      args_.ignored_resources.end())
    return true;
  if (args_.ignored_resource_groups.empty()) return false;
  const std::string_view group = std::string_view(resource).substr(0, resource.find('/'));
  return std::find(args_.ignored_resource_groups.begin(), args_.ignored_resource_groups.end(), group) !=
         args_.ignored_resource_groups.end();
}

/// The pod's non-zero scalar requests that are not ignored, in name order.
struct NodeResourcesFit::CheckedScalars : StateData {
  std::vector<std::pair<std::string, int64_t>> scalars;
};

PluginStatus NodeResourcesFit::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) const {
  CheckedScalars checked;
  for (const auto& [name, amount] : pod.requests.scalars)
    if (amount != 0 && !ignored(name)) checked.scalars.emplace_back(name, amount);
  state.write(state_slot(), std::move(checked));
  return {};
}

PluginStatus NodeResourcesFit::filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  // Reasons are only built for a node that fails: the common case allocates nothing.
  PluginStatus status;
  auto insufficient = [&status](std::string reason) {
    status.code = Code::unschedulable;
    status.reasons.push_back(std::move(reason));
  };
  const ResourceVector& want = pod.requests;
  const ResourceVector& alloc = node.allocatable();
  ResourceVector restored;  // the node as this pod sees it when reservations give their holds back
  int64_t pods = static_cast<int64_t>(node.pod_count());
  const ResourceVector& used =
      reserved_ && reserved_->usage_for(state, pod, node, restored, pods) ? restored : node.requested();
  if (pods + 1 > alloc.allowed_pods) insufficient(kTooManyPods);
  if (want.milli_cpu > 0 && want.milli_cpu > alloc.milli_cpu - used.milli_cpu) insufficient("Insufficient cpu");
  if (want.memory > 0 && want.memory > alloc.memory - used.memory) insufficient("Insufficient memory");
  if (want.ephemeral_storage > 0 && want.ephemeral_storage > alloc.ephemeral_storage - used.ephemeral_storage)
    insufficient("Insufficient ephemeral-storage");
  auto check = [&](const std::string& name, int64_t amount) {
    if (amount > alloc.scalar(name) - used.scalar(name)) insufficient("Insufficient " + name);
  };
  if (const auto* checked = state.read<CheckedScalars>(state_slot())) {
    for (const auto& [name, amount] : checked->scalars) check(name, amount);
  } else {  // PreFilter did not run (a direct call): classify here
    for (const auto& [name, amount] : want.scalars)
      if (amount != 0 && !ignored(name)) check(name, amount);
  }
  return status;
}

ScoreResult NodeResourcesFit::score(const CycleState&, const PodInfo& pod, const NodeInfo& node) const {
  int64_t node_score = 0;
  int64_t weight_sum = 0;
  for (const auto& r : scored_) {
    const AllocatableRequested ar = allocatable_and_requested(r, node, pod_request(r, pod, false), false);
    if (ar.allocatable == 0) continue;
    int64_t s = 0;
    switch (args_.strategy) {
      case ScoringStrategyType::least_allocated: s = least_requested_score(ar.requested, ar.allocatable); break;
      case ScoringStrategyType::most_allocated: s = most_requested_score(ar.requested, ar.allocatable); break;
      case ScoringStrategyType::requested_to_capacity_ratio: {
        const int64_t utilization =
            ar.requested > ar.allocatable ? kMaxUtilization : ar.requested * kMaxUtilization / ar.allocatable;
        s = broken_linear(scaled_shape_, utilization);
        if (s <= 0) continue;  // upstream counts only resources scoring above zero
        break;
      }
    }
    node_score += s * r.weight;
    weight_sum += r.weight;
  }
  ScoreResult result;
  if (weight_sum == 0) return result;
  if (args_.strategy == ScoringStrategyType::requested_to_capacity_ratio)
    result.score = static_cast<int64_t>(std::llround(static_cast<double>(node_score) / static_cast<double>(weight_sum)));
  else
    result.score = node_score / weight_sum;
  return result;
}

std::vector<ClusterEvent> NodeResourcesFit::events_to_register() const {
  return {{EventResource::pod, kDelete | kUpdatePodScaleDown, "AssignedPodDeleteOrScaleDown"},
          {EventResource::node, kAdd | kUpdateNodeAllocatable | kUpdateNodeTaint | kUpdateNodeLabel, "NodeChange"}};
}

}  // namespace troupe::plugins
