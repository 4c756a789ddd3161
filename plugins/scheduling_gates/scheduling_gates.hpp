#pragma once
// SchedulingGates: a pod that still carries spec.schedulingGates is not
// ready to be scheduled. PreEnqueue keeps it out of the scheduling queue
// (the QUEUE actor parks it as "gated") until an update removes the last
// gate; the API server would refuse its Binding anyway.

#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins {

class SchedulingGates final : public PreEnqueuePlugin {
 public:
  static constexpr const char* kName = names::kSchedulingGates;

  std::string_view name() const override { return kName; }
  /// kube-scheduler's message: "waiting for scheduling gates: [a b]".
  PluginStatus pre_enqueue(const PodInfo& pod) const override;
};

}  // namespace troupe::plugins
