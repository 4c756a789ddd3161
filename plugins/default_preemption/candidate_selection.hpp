#pragma once
// pickOneNodeForPreemption (kube-scheduler framework/preemption): the node
// whose eviction hurts least, by these rules in turn, each applied only to
// the nodes tied on the previous ones:
//   1. fewest PDB violations
//   2. lowest priority of the first (most important) victim
//   3. smallest sum of victim priorities (each shifted by MaxInt32+1 so that
//      negative priorities still add up)
//   4. fewest victims
//   5. latest start time of the highest-priority victims (the earliest among them)
// Still tied: the first candidate in the list.

#include <optional>
#include <string>
#include <vector>

#include "plugins/default_preemption/victim_selection.hpp"

namespace troupe::plugins::preemption {

struct Candidate {
  std::string node;
  Victims victims;
};

/// GetEarliestPodStartTime: among the highest-priority victims, the earliest start.
std::optional<Timestamp> earliest_start_of_highest_priority(const Victims& victims, Timestamp now);

/// The index of the chosen candidate; nullopt when there is none.
std::optional<size_t> pick_one_node_for_preemption(const std::vector<Candidate>& candidates, Timestamp now);

}  // namespace troupe::plugins::preemption
