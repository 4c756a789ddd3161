#pragma once
// Rounds over a NodePartition as the tests drive them: Filter alone (the
// feasible node names), or Filter and Score as the NODE actor runs a cycle's round.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "actors/node_partition.hpp"

namespace troupe::actors::testing {

inline std::vector<std::string> names_of(const FilterOutcome& outcome) {
  std::vector<std::string> names;
  for (const auto& s : outcome.feasible) names.push_back(s.node_name);
  return names;
}

/// A round without scores, stopping at `limit` feasible nodes.
inline FilterOutcome filter_round(NodePartition& part, const plugins::Framework& fw, const plugins::CycleState& state,
                                  const plugins::PodInfo& pod, int64_t limit) {
  RoundOptions options;
  options.limit = limit;
  options.score = false;
  return part.run_round(fw, state, pod, options);
}

/// The feasible node names of a round without scores.
inline std::vector<std::string> feasible_names(NodePartition& part, const plugins::Framework& fw,
                                               const plugins::CycleState& state, const plugins::PodInfo& pod,
                                               int64_t limit) {
  return names_of(filter_round(part, fw, state, pod, limit));
}

}  // namespace troupe::actors::testing
