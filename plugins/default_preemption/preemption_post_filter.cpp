#include "plugins/default_preemption/preemption_post_filter.hpp"

namespace troupe::plugins::preemption {

namespace {

/// The verdict, kept in the slot in place of the search so the caller can act on the victims.
struct ChosenCandidate {
  Candidate candidate;
};

}  // namespace

PreemptionOptions preemption_options(int32_t min_candidate_nodes_percentage, int32_t min_candidate_nodes_absolute,
                                     Timestamp now) {
  PreemptionOptions out;
  out.min_candidate_nodes_percentage = min_candidate_nodes_percentage;
  out.min_candidate_nodes_absolute = min_candidate_nodes_absolute;
  out.victims.now = now;
  return out;
}

void PreemptionPostFilter::write_search(CycleState& state, PreemptionSearchState search) const {
  state.write<PreemptionSearchState>(state_slot(), std::move(search));
}

const Candidate* PreemptionPostFilter::chosen(const CycleState& state) const {
  const auto* verdict = state.read<ChosenCandidate>(state_slot());
  return verdict ? &verdict->candidate : nullptr;
}

PostFilterResult PreemptionPostFilter::preemption_verdict(CycleState& state) const {
  PostFilterResult out;
  const auto* search = state.read<PreemptionSearchState>(state_slot());
  if (search == nullptr) {
    out.status = PluginStatus::unschedulable(kSearchMissing);
    out.message = kSearchMissing;
    return out;
  }
  if (!search->searched_by.empty()) {
    out.status = PluginStatus(Code::unschedulable);
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

}  // namespace troupe::plugins::preemption
