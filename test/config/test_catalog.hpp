#pragma once
// A plugin catalog shaped like kube-scheduler's defaults, so the config tests
// do not depend on plugins/ (which depends on config/).

#include "config/plugin_catalog.hpp"

namespace troupe::config::testing {

inline PluginCatalog make_test_catalog() {
  using P = ExtensionPoint;
  auto no_args = [](const YAML::Node& args) -> Status {
    if (!args.IsNull() && args.size() > 0) return Error{"takes no args"};
    return Status::success();
  };
  auto fit_args = [](const YAML::Node& args) -> Status {
    if (args.IsNull()) return Status::success();
    const YAML::Node strategy = args["scoringStrategy"];
    if (strategy && strategy["type"] && strategy["type"].Scalar() != "LeastAllocated" &&
        strategy["type"].Scalar() != "MostAllocated")
      return Error{"scoringStrategy.type: unsupported value \"" + strategy["type"].Scalar() + "\""};
    return Status::success();
  };
  std::vector<PluginDescriptor> plugins = {
      {"PrioritySort", {P::queue_sort}, true, 0, no_args},
      {"NodeUnschedulable", {P::filter}, true, 0, no_args},
      {"NodeName", {P::filter}, true, 0, no_args},
      {"TaintToleration", {P::filter, P::pre_score, P::score}, true, 3, no_args},
      {"NodeAffinity", {P::pre_filter, P::filter, P::pre_score, P::score}, true, 2, no_args},
      {"NodeResourcesFit", {P::pre_filter, P::filter, P::pre_score, P::score}, true, 1, fit_args},
      {"DefaultBinder", {P::bind}, true, 0, no_args},
      {"OtherSort", {P::queue_sort}, false, 0, no_args},
      {"Extra", {P::filter, P::score}, false, 0, no_args},
  };
  return PluginCatalog(std::move(plugins), {"DynamicResources", "DefaultPreemption", "DeviceShare"});
}

}  // namespace troupe::config::testing
