#pragma once
// PreemptionPostFilter: a PostFilter plugin that preempts through the
// scheduling cycle's partition search. Two plugins do: DefaultPreemption, and
// the Reservation plugin with ReservationArgs.enablePreemption (Koordinator's
// PreemptionMgr, DefaultPreemption with the Reservation's candidate counts).
//
// The search runs where the nodes are: the cycle asks every node partition
// for its best candidate (partition_search.hpp) with the options of the first
// plugin of the profile's PostFilter order that preempts, stores the answers
// in that plugin's CycleState slot (write_search), and then runs PostFilter,
// where the plugin merges them and names the node to nominate. One search per
// attempt: a second preempting plugin would search the same nodes under the
// same rules, so it is told the search was another's and adds nothing.

#include <optional>
#include <string>
#include <vector>

#include "plugins/default_preemption/partition_search.hpp"
#include "plugins/framework/plugin.hpp"

namespace troupe::plugins::preemption {

/// What the partitions answered, for PostFilter.
struct PreemptionSearchState {
  std::vector<PartitionPreemption> partitions;
  int64_t total_nodes = 0;
  Timestamp now{};
  /// The candidates the extenders with a preemptVerb left, when they ran.
  std::optional<std::vector<Candidate>> after_extenders;
  /// An extender with a preemptVerb failed (not ignorable): PostFilter
  /// answers Error with it and keeps any earlier nomination, as upstream.
  std::optional<std::string> extender_error;
  /// Set when another plugin of the profile ran the search: this one's
  /// PostFilter adds nothing (no reason, no nomination).
  std::string searched_by;
};

/// The search options for a preemptor at `now` with these minCandidateNodes* args.
PreemptionOptions preemption_options(int32_t min_candidate_nodes_percentage, int32_t min_candidate_nodes_absolute,
                                     Timestamp now);

class PreemptionPostFilter : public virtual PostFilterPlugin {
 public:
  static constexpr const char* kSearchMissing = "preemption: no candidate search ran for this pod";

  /// Whether this plugin preempts in its profile (its args may turn it off).
  virtual bool preempts() const = 0;
  /// The search options for a preemptor at `now` (minCandidateNodes*).
  virtual PreemptionOptions options(Timestamp now) const = 0;

  /// Stores the partitions' answers where PostFilter reads them: the plugin's
  /// own slot, in place of what it kept there since PreFilter (the attempt
  /// has failed; nothing after PostFilter reads that).
  void write_search(CycleState& state, PreemptionSearchState search) const;
  /// The chosen candidate of the last verdict on `state` (its victims); nullptr when none.
  const Candidate* chosen(const CycleState& state) const;

 protected:
  /// Success with the node to nominate; Unschedulable with the
  /// "preemption: ..." message otherwise (nominated_node "" clears an earlier
  /// nomination, nullopt keeps it, as upstream: not eligible, or nothing left
  /// by the extenders); Error when an extender failed (the nomination kept).
  /// Without a search in the slot: Unschedulable saying so.
  PostFilterResult preemption_verdict(CycleState& state) const;
};

}  // namespace troupe::plugins::preemption
