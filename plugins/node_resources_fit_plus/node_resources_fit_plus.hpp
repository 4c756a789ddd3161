#pragma once
// NodeResourcesFitPlus (Koordinator v1.6): a scoring strategy per resource.
// For each resource the pod requests (> 0) that `resources` configures:
//   requested = node's non-zero requested (cpu, memory) or requested (others) + the pod's request
//   MostAllocated:  min(requested, cap) × 100 / cap
//   LeastAllocated: (cap − requested) × 100 / cap, 0 when over capacity
// score = Σ s × w / Σ w; 100 when no configured resource is requested.
//   args: {resources: {"nvidia.com/gpu": {type: MostAllocated, weight: 2}, cpu: {type: LeastAllocated, weight: 1}}}

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/common/resource_allocation.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins {

struct FitPlusResource {
  std::string name;
  bool most_allocated = false;  // else LeastAllocated
  int64_t weight = 0;
};

struct NodeResourcesFitPlusArgs {
  std::vector<FitPlusResource> resources;  // sorted by name

  static NodeResourcesFitPlusArgs from_yaml(const YAML::Node& args);
};

class NodeResourcesFitPlus final : public ScorePlugin {
 public:
  static constexpr const char* kName = names::kNodeResourcesFitPlus;

  explicit NodeResourcesFitPlus(NodeResourcesFitPlusArgs args);
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);

  std::string_view name() const override { return kName; }
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;

 private:
  NodeResourcesFitPlusArgs args_;
  std::vector<ScoredResource> scored_;  // parallel to args_.resources
};

}  // namespace troupe::plugins
