#include "plugins/default_preemption/default_preemption_plugin.hpp"

#include "plugins/common/args.hpp"

namespace troupe::plugins::preemption {

namespace {

/// PostFilter's verdict, kept beside the search so the caller can act on the victims.
struct ChosenCandidate {
  Candidate candidate;
};

}  // namespace

Result<std::shared_ptr<const Plugin>> DefaultPreemption::make(const YAML::Node& args) {
  return build_plugin<DefaultPreemptionArgs, DefaultPreemption>(args, DefaultPreemptionArgs::from_yaml);
}

PreemptionOptions DefaultPreemption::options(Timestamp now) const {
  PreemptionOptions out;
  out.min_candidate_nodes_percentage = args_.min_candidate_nodes_percentage;
  out.min_candidate_nodes_absolute = args_.min_candidate_nodes_absolute;
  out.victims.now = now;
  return out;
}

void DefaultPreemption::write_search(CycleState& state, PreemptionSearchState search) const {
  state.write<PreemptionSearchState>(state_slot(), std::move(search));
}

PostFilterResult DefaultPreemption::post_filter(CycleState& state, const PodInfo& pod,
                                                const NodeStatuses& statuses) const {
  PostFilterResult out;
  const auto* search = state.read<PreemptionSearchState>(state_slot());
  if (search == nullptr) {
    out.status = PluginStatus::unschedulable(kSearchMissing);
    out.message = kSearchMissing;
    return out;
  }
  if (search->extender_error) {
    out.message = "preemption: " + *search->extender_error;
    out.status = PluginStatus::internal_error(out.message);
    return out;
  }
  MergedPreemption merged =
      merge_partition_preemptions(search->partitions, search->total_nodes, search->now, search->after_extenders);
  if (!merged.chosen) {
    out.status = PluginStatus::unschedulable(merged.message);
    out.message = merged.message;
    if (!merged.keep_nomination) out.nominated_node = std::string();
    return out;
  }
  out.nominated_node = merged.chosen->node;
  // The slot now holds the verdict; the search is no longer needed.
  state.write<ChosenCandidate>(state_slot(), ChosenCandidate{std::move(*merged.chosen)});
  return out;
}

const Candidate* DefaultPreemption::chosen(const CycleState& state, size_t slot) {
  const auto* verdict = state.read<ChosenCandidate>(slot);
  return verdict ? &verdict->candidate : nullptr;
}

}  // namespace troupe::plugins::preemption
