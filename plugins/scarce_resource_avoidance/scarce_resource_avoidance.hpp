#pragma once
// ScarceResourceAvoidance (Koordinator v1.6): keeps pods that do not need a
// scarce resource off the nodes that have it. D = resources the node has
// (allocatable > 0) that the pod does not request; I = D ∩ args.resources.
// score = 100 when D or I is empty, else (|D| − |I|) × 100 / |D|.
//   args: {resources: ["nvidia.com/gpu"]}

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/resource_name.hpp"
#include "model/result.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins {

struct ScarceResourceAvoidanceArgs {
  std::vector<std::string> resources;

  static ScarceResourceAvoidanceArgs from_yaml(const YAML::Node& args);
};

class ScarceResourceAvoidance final : public ScorePlugin {
 public:
  static constexpr const char* kName = names::kScarceResourceAvoidance;

  explicit ScarceResourceAvoidance(ScarceResourceAvoidanceArgs args);
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);

  std::string_view name() const override { return kName; }
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;

 private:
  bool scarce(ResourceName resource) const;

  ScarceResourceAvoidanceArgs args_;
  std::vector<ResourceName> scarce_names_;  // args_.resources, interned: compared by pointer
};

}  // namespace troupe::plugins
