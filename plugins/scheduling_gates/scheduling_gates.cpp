#include "plugins/scheduling_gates/scheduling_gates.hpp"

namespace troupe::plugins {

PluginStatus SchedulingGates::pre_enqueue(const PodInfo& pod) const {
  const auto& gates = pod.spec().scheduling_gates;
  if (gates.empty()) return {};
  // Go's %v of a []string: the names space-separated in brackets.
  std::string names = "[";
  for (size_t i = 0; i < gates.size(); ++i) names += (i ? " " : "") + gates[i].name;
  names += "]";
  return PluginStatus::unresolvable("waiting for scheduling gates: " + names);
}

}  // namespace troupe::plugins
