#include "plugins/default_preemption/default_preemption_plugin.hpp"

#include "plugins/common/args.hpp"

namespace troupe::plugins::preemption {

Result<std::shared_ptr<const Plugin>> DefaultPreemption::make(const YAML::Node& args) {
  return build_plugin<DefaultPreemptionArgs, DefaultPreemption>(args, DefaultPreemptionArgs::from_yaml);
}

PreemptionOptions DefaultPreemption::options(Timestamp now) const {
  return preemption_options(args_.min_candidate_nodes_percentage, args_.min_candidate_nodes_absolute, now);
}

PostFilterResult DefaultPreemption::post_filter(CycleState& state, const PodInfo&, const NodeStatuses&) const {
  return preemption_verdict(state);
}

}  // namespace troupe::plugins::preemption
