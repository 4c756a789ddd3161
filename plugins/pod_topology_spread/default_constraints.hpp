#pragma once
// PodTopologySpread's default constraints: what spreads a pod that sets no
// topologySpreadConstraints of its own. With `defaultingType: System` (the
// default) they are kube-scheduler's two ScheduleAnyway constraints, at most 3
// more matching pods per host and 5 per zone; with `List` they are the
// profile's `defaultConstraints`. Either way they count the pod's siblings:
// the pods its Services and its controller select (WorkloadSelectors), and a
// pod that has none gets no default constraints.

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/label_selector.hpp"
#include "model/pod.hpp"
#include "model/scheduling_types.hpp"

namespace troupe::plugins::spread {

struct SpreadConstraint;

/// kube-scheduler's systemDefaultConstraints.
std::vector<TopologySpreadConstraint> system_default_constraints();

/// Reads `defaultConstraints` (a list; errors throw config::FieldError naming
/// the field, with upstream's validation: maxSkew > 0, a valid topologyKey,
/// whenUnsatisfiable DoNotSchedule or ScheduleAnyway, no labelSelector, no
/// two constraints with the same key and action).
std::vector<TopologySpreadConstraint> read_default_constraints(const YAML::Node& list, const std::string& path);

/// The default constraints of one kind for a pod whose siblings `siblings`
/// selects; none when `siblings` is empty (upstream's buildDefaultConstraints).
std::vector<SpreadConstraint> default_constraints_of(const std::vector<TopologySpreadConstraint>& defaults,
                                                     UnsatisfiableAction kind, const LabelSelector& siblings);

}  // namespace troupe::plugins::spread
