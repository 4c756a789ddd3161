#include "plugins/node_resources_balanced_allocation/balanced_allocation.hpp"

#include <cmath>

namespace troupe::plugins {

namespace {

/// Up to this many resources the fractions live on the stack.
constexpr size_t kInlineResources = 16;

int64_t score_fractions(const double* fractions, size_t n, double total) {
  double std_dev = 0;
  if (n == 2) {
    std_dev = std::fabs((fractions[0] - fractions[1]) / 2);
  } else if (n > 2) {
    const double mean = total / static_cast<double>(n);
    double sum = 0;
    for (size_t i = 0; i < n; ++i) sum += (fractions[i] - mean) * (fractions[i] - mean);
    std_dev = std::sqrt(sum / static_cast<double>(n));
  }
  return static_cast<int64_t>((1 - std_dev) * static_cast<double>(kMaxNodeScore));
}

double fraction(const AllocatableRequested& r) {
  const double f = static_cast<double>(r.requested) / static_cast<double>(r.allocatable);
  return f > 1 ? 1 : f;
}

}  // namespace

BalancedAllocationArgs BalancedAllocationArgs::from_yaml(const YAML::Node& args) {
  BalancedAllocationArgs out;
  if (config::is_absent(args)) return out;
  config::reject_unknown_fields(args, "", {"resources"});
  const YAML::Node resources = args["resources"];
  if (!config::is_absent(resources) && resources.size() > 0)
    out.resources = read_resource_specs(resources, "resources", 1, 1);
  return out;
}

int64_t balanced_resource_score(const std::vector<AllocatableRequested>& resources) {
  std::vector<double> fractions;
  double total = 0;
  for (const auto& r : resources) {
    if (r.allocatable == 0) continue;
    fractions.push_back(fraction(r));
    total += fractions.back();
  }
  return score_fractions(fractions.data(), fractions.size(), total);
}

NodeResourcesBalancedAllocation::NodeResourcesBalancedAllocation(BalancedAllocationArgs args)
    : args_(std::move(args)), scored_(classify_resources(args_.resources)) {}

Result<std::shared_ptr<const Plugin>> NodeResourcesBalancedAllocation::make(const YAML::Node& args) {
  return build_plugin<BalancedAllocationArgs, NodeResourcesBalancedAllocation>(args, BalancedAllocationArgs::from_yaml);
}

PluginStatus NodeResourcesBalancedAllocation::pre_score(CycleState&, const PodInfo& pod) const {
  for (const auto& r : scored_)
    if (pod_request(r, pod, true) != 0) return {};
  return PluginStatus(Code::skip);
}

ScoreResult NodeResourcesBalancedAllocation::score(const CycleState&, const PodInfo& pod, const NodeInfo& node) const {
  double inline_fractions[kInlineResources];
  std::vector<double> heap_fractions;
  double* fractions = inline_fractions;
  if (scored_.size() > kInlineResources) {
    heap_fractions.resize(scored_.size());
    fractions = heap_fractions.data();
  }
  size_t n = 0;
  double total = 0;
  for (const auto& r : scored_) {
    const AllocatableRequested ar = allocatable_and_requested(r, node, pod_request(r, pod, true), true);
    if (ar.allocatable == 0) continue;
    fractions[n] = fraction(ar);
    total += fractions[n++];
  }
  ScoreResult result;
  result.score = score_fractions(fractions, n, total);
  return result;
}

std::vector<ClusterEvent> NodeResourcesBalancedAllocation::events_to_register() const {
  return {{EventResource::pod, kDelete, "AssignedPodDelete"},
          {EventResource::node, kAdd | kUpdateNodeAllocatable, "NodeAddOrAllocatableChange"}};
}

}  // namespace troupe::plugins
