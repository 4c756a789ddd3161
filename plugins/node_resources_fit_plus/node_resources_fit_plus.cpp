#include "plugins/node_resources_fit_plus/node_resources_fit_plus.hpp"

#include <algorithm>

#include "config/yaml_fields.hpp"
#include "model/resource_names.hpp"

namespace troupe::plugins {

using config::FieldError;
namespace rn = resource_names;

namespace {

/// Koordinator reads a requested scalar with IsScalarResourceName and other
/// names as untracked; cpu/memory take the node's non-zero requested.
AllocatableRequested fit_plus_allocatable_requested(const ScoredResource& r, const NodeInfo& node, int64_t pod) {
  switch (r.kind) {
    case ScoredResource::Kind::cpu: return {node.allocatable().milli_cpu, node.non_zero_requested().milli_cpu + pod};
    case ScoredResource::Kind::memory: return {node.allocatable().memory, node.non_zero_requested().memory + pod};
    case ScoredResource::Kind::ephemeral_storage:
      return {node.allocatable().ephemeral_storage, node.requested().ephemeral_storage + pod};
    case ScoredResource::Kind::scalar:
      return {node.allocatable().scalar(r.name), node.requested().scalar(r.name) + pod};
    case ScoredResource::Kind::untracked: return {};
  }
  return {};
}

/// The pod requests the resource (its effective request is above zero).
bool pod_requests(const ScoredResource& r, const PodInfo& pod) {
  switch (r.kind) {
    case ScoredResource::Kind::cpu: return pod.requests.milli_cpu > 0;
    case ScoredResource::Kind::memory: return pod.requests.memory > 0;
    case ScoredResource::Kind::ephemeral_storage: return pod.requests.ephemeral_storage > 0;
    case ScoredResource::Kind::scalar: return pod.requests.scalar(r.name) > 0;
    case ScoredResource::Kind::untracked: return false;
  }
  return false;
}

}  // namespace

NodeResourcesFitPlusArgs NodeResourcesFitPlusArgs::from_yaml(const YAML::Node& args) {
  NodeResourcesFitPlusArgs out;
  if (config::is_absent(args)) return out;
  config::reject_unknown_fields(args, "", {"resources"});
  const YAML::Node resources = args["resources"];
  if (config::is_absent(resources)) return out;
  config::expect_map(resources, "resources");
  for (const auto& entry : resources) {
    FitPlusResource r;
    r.name = entry.first.Scalar();
    const std::string path = "resources[" + r.name + "]";
    config::expect_map(entry.second, path);
    config::reject_unknown_fields(entry.second, path, {"type", "weight"});
    std::string type;
    config::read_optional(entry.second, path, "type", type);
    config::read_optional(entry.second, path, "weight", r.weight);
    if (type == "MostAllocated") r.most_allocated = true;
    else if (type != "LeastAllocated")
      throw FieldError(config::child_path(path, "type"),
                       "Unsupported value: \"" + type + "\": supported values: \"LeastAllocated\", \"MostAllocated\"");
    if (r.weight < 0) throw FieldError(config::child_path(path, "weight"), "must not be negative");
    out.resources.push_back(std::move(r));
  }
  std::sort(out.resources.begin(), out.resources.end(),
            [](const FitPlusResource& a, const FitPlusResource& b) { return a.name < b.name; });
  return out;
}

NodeResourcesFitPlus::NodeResourcesFitPlus(NodeResourcesFitPlusArgs args) : args_(std::move(args)) {
  std::vector<ResourceSpec> specs;
  for (const auto& r : args_.resources) specs.push_back({r.name, r.weight});
  scored_ = classify_resources(specs);
}

Result<std::shared_ptr<const Plugin>> NodeResourcesFitPlus::make(const YAML::Node& args) {
  return build_plugin<NodeResourcesFitPlusArgs, NodeResourcesFitPlus>(args, NodeResourcesFitPlusArgs::from_yaml);
}

ScoreResult NodeResourcesFitPlus::score(const CycleState&, const PodInfo& pod, const NodeInfo& node) const {
  int64_t node_score = 0;
  int64_t weight_sum = 0;
  for (size_t i = 0; i < scored_.size(); ++i) {
    const ScoredResource& r = scored_[i];
    if (!pod_requests(r, pod)) continue;
    const AllocatableRequested ar = fit_plus_allocatable_requested(r, node, pod_request(r, pod, false));
    const int64_t s = args_.resources[i].most_allocated ? most_requested_score(ar.requested, ar.allocatable)
                                                        : least_requested_score(ar.requested, ar.allocatable);
    node_score += s * r.weight;
    weight_sum += r.weight;
  }
  ScoreResult result;
  result.score = weight_sum == 0 ? kMaxNodeScore : node_score / weight_sum;
  return result;
}

}  // namespace troupe::plugins
