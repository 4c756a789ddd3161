#pragma once
// DefaultPreemptionArgs (kube-scheduler config v1): how many candidate nodes
// the preemption search looks for before choosing one.

#include <cstdint>

#include <yaml-cpp/yaml.h>

namespace troupe::plugins::preemption {

struct DefaultPreemptionArgs {
  /// Share of the nodes to find candidates on, 0..100 (default 10).
  int32_t min_candidate_nodes_percentage = 10;
  /// At least this many candidates (default 100); not both zero.
  int32_t min_candidate_nodes_absolute = 100;

  /// kube-scheduler's defaults and ValidateDefaultPreemptionArgs; throws
  /// config::FieldError naming the field.
  static DefaultPreemptionArgs from_yaml(const YAML::Node& args);
};

}  // namespace troupe::plugins::preemption
