// GangBook's per-gang schedule cycles (Koordinator's coscheduling/core
// gang.go: ScheduleCycle, ScheduleCycleValid, ChildrenScheduleRoundMap; and
// the Strict-mode part of PodGroupManager.PreFilter).
//
// Why: once a member of a Strict gang fails, the group is rejected; the
// members queued behind it in the same round would each run a full Filter
// round, reserve a node and wait at Permit for a group that cannot complete.
// The cycle turns them away at PreFilter instead, and starts afresh once each
// has had its turn.

#include "plugins/coscheduling/gang_book.hpp"

#include <algorithm>
#include <string>

namespace troupe::plugins::coscheduling {

void GangBook::try_begin_next_cycle(Gang& gang, const GangSpec& rules) {
  int tried = 0;
  for (const auto& [uid, cycle] : gang.member_cycles)
    if (cycle == gang.schedule_cycle) ++tried;
  // Koordinator counts to total-number; a bound member is never tried again
  // and a deleted one is gone, so the count stops at the members left to try.
  const int total = rules.total_number > 0 ? rules.total_number : rules.min_member;
  const int left = static_cast<int>(gang.children.size() - gang.bound.size());
  if (tried < std::min(total, left)) return;
  gang.schedule_cycle_valid = true;
  ++gang.schedule_cycle;
}

GangBook::CycleCheck GangBook::enter_schedule_cycle(const GangSpec& spec, const std::string& uid,
                                                    const std::string& pod_key, bool nominated) {
  CycleCheck check;
  auto it = gangs_.find(spec.id);
  if (it == gangs_.end()) return check;
  Gang& gang = it->second;
  const GangSpec& rules = rules_of(gang);
  if (gang.once_satisfied && rules.match_policy == MatchPolicy::once_satisfied) return check;
  try_begin_next_cycle(gang, rules);
  const int cycle = gang.schedule_cycle;
  const int member_cycle = gang.member_cycles[uid];
  gang.member_cycles[uid] = cycle;  // tried in this cycle, whatever the answer
  if (rules.mode != GangMode::strict || nominated) return check;
  if (!gang.schedule_cycle_valid) {
    check.skip_reject = true;
    check.rejection = "gang scheduleCycle not valid, gangName: " + spec.id + ", podName: " + pod_key;
  } else if (member_cycle >= cycle) {
    check.rejection = "pod's schedule cycle too large, gangName: " + spec.id + ", podName: " + pod_key +
                      ", podCycle: " + std::to_string(member_cycle) + ", gangCycle: " + std::to_string(cycle);
  }
  return check;
}

void GangBook::end_schedule_cycles(const GangSpec& spec) {
  const Gang* own = find(spec.id);
  const std::vector<std::string> group = own ? rules_of(*own).group : spec.group;
  for (const auto& id : group) {
    auto it = gangs_.find(id);
    if (it == gangs_.end()) continue;
    Gang& gang = it->second;
    // Invalid already: the members tried since count for the next cycle (Koordinator's setScheduleCycleValid).
    if (!gang.schedule_cycle_valid) ++gang.schedule_cycle;
    gang.schedule_cycle_valid = false;
  }
}

}  // namespace troupe::plugins::coscheduling
