#pragma once
// DefaultPreemption, the PostFilter plugin. The search itself runs where the
// nodes are: the scheduling cycle asks every node partition for its best
// candidate (partition_search.hpp), stores the answers in this plugin's
// CycleState slot (write_search) and then runs PostFilter, where this plugin
// merges them and names the node to nominate. PostFilter without a search in
// the state (a caller that cannot fan out) rejects with a message saying so.

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/default_preemption/default_preemption_args.hpp"
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
};

class DefaultPreemption : public PostFilterPlugin {
 public:
  static constexpr const char* kName = "DefaultPreemption";
  static constexpr const char* kSearchMissing = "preemption: no candidate search ran for this pod";

  explicit DefaultPreemption(DefaultPreemptionArgs args) : args_(args) {}
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);

  std::string_view name() const override { return kName; }
  const DefaultPreemptionArgs& args() const { return args_; }
  /// The search options for a preemptor at `now`.
  PreemptionOptions options(Timestamp now) const;

  /// Stores the partitions' answers where post_filter reads them.
  void write_search(CycleState& state, PreemptionSearchState search) const;

  /// Success with the node to nominate; Unschedulable with the
  /// "preemption: ..." message otherwise (nominated_node "" clears an earlier
  /// nomination, nullopt keeps it, as upstream: not eligible, or nothing left
  /// by the extenders); Error when an extender failed (the nomination kept).
  PostFilterResult post_filter(CycleState& state, const PodInfo& pod, const NodeStatuses& statuses) const override;

  /// The chosen candidate of the last post_filter on `state` (its victims).
  static const Candidate* chosen(const CycleState& state, size_t slot);

 private:
  DefaultPreemptionArgs args_;
};

}  // namespace troupe::plugins::preemption
