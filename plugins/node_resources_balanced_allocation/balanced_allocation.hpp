#pragma once
// NodeResourcesBalancedAllocation: favours nodes whose resource fractions
// (requested with the pod / allocatable, capped at 1) are close to each
// other: score = (1 − std) × 100, with std = |f1 − f2| / 2 for two resources
// and the population standard deviation for more. Uses the plain requests
// (not the 100m/200Mi defaults) and skips best-effort pods, as upstream.

#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/common/args.hpp"
#include "plugins/common/resource_allocation.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins {

struct BalancedAllocationArgs {
  std::vector<ResourceSpec> resources = default_resource_specs();  // weights must be 1

  static BalancedAllocationArgs from_yaml(const YAML::Node& args);
};

/// balancedResourceScorer over (requested, allocatable) pairs; pairs with
/// allocatable 0 are left out.
int64_t balanced_resource_score(const std::vector<AllocatableRequested>& resources);

class NodeResourcesBalancedAllocation final : public PreScorePlugin, public ScorePlugin, public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kNodeResourcesBalancedAllocation;

  explicit NodeResourcesBalancedAllocation(BalancedAllocationArgs args);
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);

  std::string_view name() const override { return kName; }
  /// Skip for a pod that requests none of the configured resources.
  PluginStatus pre_score(CycleState& state, const PodInfo& pod) const override;
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  std::vector<ClusterEvent> events_to_register() const override;

 private:
  BalancedAllocationArgs args_;
  std::vector<ScoredResource> scored_;
};

}  // namespace troupe::plugins
