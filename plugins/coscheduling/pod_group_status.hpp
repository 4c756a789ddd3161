#pragma once
// A PodGroup's status from its member pods, as Koordinator's PodGroup
// controller keeps it (coscheduling/controller/podgroup.go, syncHandler):
//
//   ""                      → Pending
//   Pending                 → PreScheduling once minMember pods exist
//                             (occupiedBy: the first member's owners)
//   any later, non-final    → from the counts: no member → Pending;
//                             scheduled < minMember → Scheduling, else Scheduled;
//                             Scheduled and running + succeeded ≥ minMember → Running;
//                             failed > 0 and failed + running + succeeded ≥ minMember → Failed;
//                             succeeded ≥ minMember → Finished
//   Finished, Failed        final: never changed again
//
// Koordinator takes one step per sync and each write triggers the next sync;
// pod_group_status runs the steps until nothing changes, so one write carries
// the whole way (a group with enough pods passes PreScheduling within that
// write, occupiedBy set on the way, and is never seen there). scheduleStartTime: Koordinator sets it when the group enters
// Scheduling (PostBind or this controller); a group that passes Scheduling in
// one go (its members bound before the first sync) gets it then too, so a
// group past PreScheduling always has one. Pure: the POD GROUP actor
// (actors/pod_group_actor.hpp) feeds it what the watches show.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/pod_group.hpp"
#include "model/timestamp.hpp"

namespace troupe::plugins::coscheduling {

inline constexpr const char* kPodGroupPending = "Pending";
inline constexpr const char* kPodGroupPreScheduling = "PreScheduling";
inline constexpr const char* kPodGroupScheduling = "Scheduling";
inline constexpr const char* kPodGroupScheduled = "Scheduled";
inline constexpr const char* kPodGroupRunning = "Running";
inline constexpr const char* kPodGroupFinished = "Finished";
inline constexpr const char* kPodGroupFailed = "Failed";

/// One pod of the group, as its watch event shows it.
struct PodGroupMember {
  std::string name;                 // members are read in name order (occupiedBy comes from the first)
  std::string phase;                // status.phase: Pending, Running, Succeeded, Failed, Unknown
  bool bound = false;               // spec.nodeName is set
  std::vector<std::string> owners;  // metadata.ownerReferences[].name
};

/// The status Koordinator's controller converges to. `members` sorted by name;
/// `now` is the scheduleStartTime given to a group that gets none yet.
PodGroupStatus pod_group_status(const PodGroupStatus& current, int32_t min_member, const std::string& ns,
                                const std::vector<PodGroupMember>& members, Timestamp now);

/// Whether two statuses say the same (every field the controller writes).
bool same_pod_group_status(const PodGroupStatus& a, const PodGroupStatus& b);

/// Whether Koordinator's controller leaves the group alone (pgAdded): it is
/// Finished or Failed; or minMember are scheduled, none runs, and scheduling
/// started more than 48 h after the group was created (its pods may be gone
/// to garbage collection, and must not send it back to Pending).
bool pod_group_left_alone(const PodGroup& group);

/// The status to write for `group` now: nullopt when it is left alone or
/// nothing changes. `members` sorted by name.
std::optional<PodGroupStatus> pod_group_status_update(const PodGroup& group,
                                                      const std::vector<PodGroupMember>& members, Timestamp now);

}  // namespace troupe::plugins::coscheduling
