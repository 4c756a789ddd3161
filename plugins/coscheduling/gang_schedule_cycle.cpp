// GangBook's schedule cycles, one per gang group (Koordinator's
// coscheduling/core GangGroupInfo: ScheduleCycle, ScheduleCycleValid,
// ChildrenScheduleRoundMap; and the Strict-mode part of
// PodGroupManager.PreFilter).
//
// Why: once a member of a Strict gang fails, the group is rejected; the
// members queued behind it in the same round would each run a full Filter
// round, reserve a node and wait at Permit for a group that cannot complete.
// The cycle turns them away at PreFilter instead, and starts afresh once each
// has had its turn.

#include <algorithm>
#include <string>

#include "plugins/coscheduling/gang_book.hpp"

namespace troupe::plugins::coscheduling {

void GangBook::try_begin_next_cycle(GroupCycle& group, const GangSpec& rules) const {
  int tried = 0;
  for (const auto& [uid, cycle] : group.member_cycles)
    if (cycle == group.cycle) ++tried;
  // Koordinator counts to the sum of the gangs' total-numbers; a bound member
  // is never tried again and a deleted one is gone, so the count stops at the
  // members left to try.
  int total = 0, left = 0;
  for (const auto& id : rules.group) {
    const Gang* gang = find(id);
    if (gang == nullptr) continue;
    const GangSpec& gang_rules = rules_of(*gang);
    total += gang_rules.total_number > 0 ? gang_rules.total_number : gang_rules.min_member;
    left += static_cast<int>(gang->children.size() - gang->bound.size());
  }
  if (tried < std::min(total, left)) return;
  group.valid = true;
  ++group.cycle;
}

GangBook::CycleCheck GangBook::enter_schedule_cycle(const GangSpec& spec, const std::string& uid,
                                                    const std::string& pod_key, bool nominated) {
  CycleCheck check;
  auto member = member_gang_.find(uid);
  const Gang* gang = find(spec.id);
  if (gang == nullptr || member == member_gang_.end() || member->second != spec.id) return check;  // gone
  const GangSpec& rules = rules_of(*gang);
  if (gang->once_satisfied && rules.match_policy == MatchPolicy::once_satisfied) return check;
  GroupCycle& group = group_cycles_[rules.group_id];
  try_begin_next_cycle(group, rules);
  const int cycle = group.cycle;
  const int member_cycle = group.member_cycles[uid];
  group.member_cycles[uid] = cycle;  // tried in this cycle, whatever the answer
  if (rules.mode != GangMode::strict || nominated) return check;
  if (!group.valid) {
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
  const std::string& group_id = own ? rules_of(*own).group_id : spec.group_id;
  auto it = group_cycles_.find(group_id);
  if (it != group_cycles_.end()) it->second.valid = false;
}

void GangBook::forget_member_cycle(const std::string& uid) {
  auto member = member_gang_.find(uid);
  if (member == member_gang_.end()) return;
  const Gang* gang = find(member->second);
  if (gang == nullptr) return;
  auto it = group_cycles_.find(rules_of(*gang).group_id);
  if (it == group_cycles_.end()) return;
  it->second.member_cycles.erase(uid);
  if (it->second.member_cycles.empty() && it->second.valid) group_cycles_.erase(it);  // nothing to remember
}

}  // namespace troupe::plugins::coscheduling
