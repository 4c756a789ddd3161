#include "plugins/coscheduling/pod_group_status.hpp"

#include <algorithm>

namespace troupe::plugins::coscheduling {

namespace {

bool is_final(const std::string& phase) { return phase == kPodGroupFinished || phase == kPodGroupFailed; }

/// "ns/owner,..." sorted: who holds the group (Koordinator's fillOccupiedObj).
std::string occupied_by(const std::string& ns, const PodGroupMember& member) {
  std::vector<std::string> refs;
  for (const std::string& owner : member.owners) refs.push_back(ns + "/" + owner);
  std::sort(refs.begin(), refs.end());
  std::string out;
  for (const std::string& ref : refs) out += (out.empty() ? "" : ",") + ref;
  return out;
}

/// The counts and the phase they give a group that left Pending.
void from_counts(PodGroupStatus& status, int32_t min_member, const std::vector<PodGroupMember>& members) {
  if (members.empty()) {
    status.phase = kPodGroupPending;
    return;
  }
  status.scheduled = status.running = status.succeeded = status.failed = 0;
  for (const PodGroupMember& member : members) {
    status.scheduled += member.bound ? 1 : 0;
    status.running += member.phase == "Running" ? 1 : 0;
    status.succeeded += member.phase == "Succeeded" ? 1 : 0;
    status.failed += member.phase == "Failed" ? 1 : 0;
  }
  status.phase = status.scheduled < min_member ? kPodGroupScheduling : kPodGroupScheduled;
  if (status.phase == kPodGroupScheduled && status.running + status.succeeded >= min_member)
    status.phase = kPodGroupRunning;
  if (status.failed != 0 && status.failed + status.running + status.succeeded >= min_member)
    status.phase = kPodGroupFailed;
  if (status.succeeded >= min_member) status.phase = kPodGroupFinished;
}

/// One sync of Koordinator's controller.
PodGroupStatus step(PodGroupStatus status, int32_t min_member, const std::string& ns,
                    const std::vector<PodGroupMember>& members) {
  if (status.phase.empty()) {
    status.phase = kPodGroupPending;
  } else if (status.phase == kPodGroupPending) {
    if (min_member > 0 && members.size() >= static_cast<size_t>(min_member)) {
      status.phase = kPodGroupPreScheduling;
      if (std::string holders = occupied_by(ns, members.front()); !holders.empty()) status.occupied_by = holders;
    }
  } else if (!is_final(status.phase)) {
    from_counts(status, min_member, members);
  }
  return status;
}

bool past_pre_scheduling(const std::string& phase) {
  return phase != kPodGroupPending && phase != kPodGroupPreScheduling;
}

}  // namespace

PodGroupStatus pod_group_status(const PodGroupStatus& current, int32_t min_member, const std::string& ns,
                                const std::vector<PodGroupMember>& members, Timestamp now) {
  PodGroupStatus status = current;
  // At most "" → Pending → PreScheduling → from the counts (→ Pending when
  // the members are gone, which then stays): four steps reach the fixed point.
  for (int i = 0; i < 4; ++i) {
    PodGroupStatus next = step(status, min_member, ns, members);
    if (same_pod_group_status(next, status)) break;
    status = std::move(next);
  }
  if (!status.schedule_start_time && past_pre_scheduling(status.phase) && !is_final(current.phase))
    status.schedule_start_time = now;
  return status;
}

bool same_pod_group_status(const PodGroupStatus& a, const PodGroupStatus& b) {
  return a.phase == b.phase && a.occupied_by == b.occupied_by && a.scheduled == b.scheduled &&
         a.running == b.running && a.succeeded == b.succeeded && a.failed == b.failed &&
         a.schedule_start_time == b.schedule_start_time;
}

bool pod_group_left_alone(const PodGroup& group) {
  const PodGroupStatus& status = group.status;
  if (is_final(status.phase)) return true;
  const auto& created = group.meta.creation_timestamp;
  return status.scheduled == group.spec.min_member && status.running == 0 && status.schedule_start_time &&
         created && *status.schedule_start_time - *created > std::chrono::hours(48);
}

std::optional<PodGroupStatus> pod_group_status_update(const PodGroup& group,
                                                      const std::vector<PodGroupMember>& members, Timestamp now) {
  if (pod_group_left_alone(group)) return std::nullopt;
  PodGroupStatus next = pod_group_status(group.status, group.spec.min_member, group.meta.namespace_name, members, now);
  if (same_pod_group_status(next, group.status)) return std::nullopt;
  return next;
}

}  // namespace troupe::plugins::coscheduling
