#pragma once
// NodeResourcesFit: the node must have room for the pod's requests (cpu,
// memory, ephemeral-storage, extended and other scalar resources) and for one
// more pod (Filter), and ranks nodes by one scoring strategy (Score):
//   LeastAllocated            Σ w·(cap−req)·100/cap / Σ w        (spreads)
//   MostAllocated             Σ w·min(req,cap)·100/cap / Σ w     (packs)
//   RequestedToCapacityRatio  round(Σ w·shape(req·100/cap) / Σ w) over the
//                             resources scoring above 0 (bin packing by a
//                             piecewise-linear shape, scores 0-10 scaled ×10)

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/common/args.hpp"
#include "plugins/common/resource_allocation.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"
#include "plugins/reservation/reserved_capacity.hpp"

namespace troupe::plugins {

enum class ScoringStrategyType { least_allocated, most_allocated, requested_to_capacity_ratio };

struct UtilizationShapePoint {
  int64_t utilization = 0;  // 0-100
  int64_t score = 0;        // 0-10 in the config; ×10 when scoring
};

struct NodeResourcesFitArgs {
  /// Extended resources the Filter does not check.
  std::vector<std::string> ignored_resources;
  /// Extended-resource groups (the part before '/') the Filter does not check.
  std::vector<std::string> ignored_resource_groups;
  ScoringStrategyType strategy = ScoringStrategyType::least_allocated;
  std::vector<ResourceSpec> resources = default_resource_specs();
  std::vector<UtilizationShapePoint> shape;  // RequestedToCapacityRatio only

  /// kube-scheduler's defaults and ValidateNodeResourcesFitArgs.
  static NodeResourcesFitArgs from_yaml(const YAML::Node& args);
};

/// helper.BuildBrokenLinearFunction: the shape's score at `utilization`,
/// interpolated linearly (integer division) between points, flat outside.
int64_t broken_linear(const std::vector<UtilizationShapePoint>& shape, int64_t utilization);

class NodeResourcesFit final : public PreFilterPlugin, public FilterPlugin, public ScorePlugin, public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kNodeResourcesFit;
  static constexpr const char* kTooManyPods = "Too many pods";

  explicit NodeResourcesFit(NodeResourcesFitArgs args,
                            std::shared_ptr<const reservation::ReservedCapacity> reserved = nullptr);
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);
  /// With the profile's reservations: the Filter sees each node as the pod
  /// does once the reservations it may use give their holds back.
  static Result<std::shared_ptr<const Plugin>> make_with_reserved_capacity(
      const YAML::Node& args, std::shared_ptr<const reservation::ReservedCapacity> reserved);

  std::string_view name() const override { return kName; }
  /// Picks, once per pod, the scalar requests the Filter checks (ignored
  /// extended resources dropped), so Filter does no name classification.
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  /// Unschedulable with every insufficient resource as a reason
  /// ("Too many pods", "Insufficient cpu", "Insufficient nvidia.com/gpu", ...).
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  std::vector<ClusterEvent> events_to_register() const override;

  const NodeResourcesFitArgs& args() const { return args_; }

 private:
  bool ignored(const std::string& resource) const;
  struct CheckedScalars;

  NodeResourcesFitArgs args_;
  std::vector<ScoredResource> scored_;
  std::vector<UtilizationShapePoint> scaled_shape_;
  std::shared_ptr<const reservation::ReservedCapacity> reserved_;  // may be null
};

}  // namespace troupe::plugins
