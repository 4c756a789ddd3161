#include <catch2/catch.hpp>

#include "plugins/coscheduling/pod_group_status.hpp"

using namespace troupe;
using namespace troupe::plugins::coscheduling;

namespace {

const Timestamp kNow = Timestamp(std::chrono::seconds(1'800'000'000));
const Timestamp kEarlier = Timestamp(std::chrono::seconds(1'700'000'000));

/// "P" pending, "B" bound and Pending, "R" running, "S" succeeded, "F" failed
/// (the last three bound): one member per letter, named m0, m1, ...
std::vector<PodGroupMember> members(const std::string& letters, std::vector<std::string> owners = {"job"}) {
  std::vector<PodGroupMember> out;
  for (size_t i = 0; i < letters.size(); ++i) {
    PodGroupMember m;
    m.name = "m" + std::to_string(i);
    m.bound = letters[i] != 'P';
    m.phase = letters[i] == 'R' ? "Running" : letters[i] == 'S' ? "Succeeded" : letters[i] == 'F' ? "Failed" : "Pending";
    m.owners = owners;
    out.push_back(m);
  }
  return out;
}

PodGroupStatus status(const std::string& phase, bool started = false) {
  PodGroupStatus s;
  s.phase = phase;
  if (started) s.schedule_start_time = kEarlier;
  return s;
}

}  // namespace

TEST_CASE("pod_group_status: Koordinator's controller, run until nothing changes", "[coscheduling][podgroup]") {
  struct Case {
    const char* what;
    PodGroupStatus current;
    int32_t min_member;
    std::string members;
    const char* phase;
    int32_t scheduled, running, succeeded, failed;
  };
  const Case cases[] = {
      {"a new PodGroup without pods is Pending", status(""), 3, "", "Pending", 0, 0, 0, 0},
      {"fewer pods than minMember stay Pending", status(""), 3, "PP", "Pending", 0, 0, 0, 0},
      {"minMember pods, none bound: Scheduling", status(""), 3, "PPP", "Scheduling", 0, 0, 0, 0},
      {"some bound: Scheduling", status("Pending"), 3, "BBP", "Scheduling", 2, 0, 0, 0},
      {"minMember bound: Scheduled", status("Scheduling"), 3, "BBB", "Scheduled", 3, 0, 0, 0},
      {"bound in one go from a new PodGroup", status(""), 2, "BB", "Scheduled", 2, 0, 0, 0},
      {"more pods than minMember, minMember bound", status("Scheduling"), 2, "BBP", "Scheduled", 2, 0, 0, 0},
      {"running minMember: Running", status("Scheduled"), 3, "RRR", "Running", 3, 3, 0, 0},
      {"running and succeeded count together", status("Scheduled"), 3, "RSR", "Running", 3, 2, 1, 0},
      {"running below minMember stays Scheduled", status("Scheduled"), 3, "RRB", "Scheduled", 3, 2, 0, 0},
      {"succeeded minMember: Finished", status("Running"), 2, "SSR", "Finished", 3, 1, 2, 0},
      {"a failure once minMember ran: Failed", status("Running"), 3, "RRF", "Failed", 3, 2, 0, 1},
      {"a failure with too few others still running is not Failed", status("Running"), 3, "RFB", "Scheduled", 3, 1,
       0, 1},
      {"Failed is final", status("Failed"), 3, "RRR", "Failed", 0, 0, 0, 0},
      {"Finished is final", status("Finished"), 3, "", "Finished", 0, 0, 0, 0},
      {"all members gone: Pending again", status("Scheduled"), 3, "", "Pending", 0, 0, 0, 0},
      {"members gone below minMember after Scheduled: Scheduling", status("Scheduled"), 3, "BB", "Scheduling", 2, 0,
       0, 0},
      {"minMember 0 never leaves Pending", status(""), 0, "BB", "Pending", 0, 0, 0, 0},
      {"Unknown is recomputed", status("Unknown"), 1, "R", "Running", 1, 1, 0, 0},
      {"PreScheduling goes on from the counts", status("PreScheduling"), 2, "BP", "Scheduling", 1, 0, 0, 0},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const PodGroupStatus out = pod_group_status(c.current, c.min_member, "team", members(c.members), kNow);
    CHECK(out.phase == c.phase);
    CHECK(out.scheduled == c.scheduled);
    CHECK(out.running == c.running);
    CHECK(out.succeeded == c.succeeded);
    CHECK(out.failed == c.failed);
  }
}

TEST_CASE("pod_group_status: scheduleStartTime is set once, when the group passes PreScheduling",
          "[coscheduling][podgroup]") {
  CHECK_FALSE(pod_group_status(status(""), 3, "team", members("PP"), kNow).schedule_start_time);
  CHECK(pod_group_status(status(""), 3, "team", members("PPP"), kNow).schedule_start_time == kNow);
  CHECK(pod_group_status(status(""), 2, "team", members("BB"), kNow).schedule_start_time == kNow);
  // Kept once set, through every later phase and a return to Pending.
  CHECK(pod_group_status(status("Scheduling", true), 2, "team", members("BB"), kNow).schedule_start_time ==
        kEarlier);
  CHECK(pod_group_status(status("Scheduled", true), 2, "team", members(""), kNow).schedule_start_time == kEarlier);
  // A final group is left alone.
  CHECK_FALSE(pod_group_status(status("Finished"), 2, "team", members("SS"), kNow).schedule_start_time);
}

TEST_CASE("pod_group_status: occupiedBy names the first member's owners when the group leaves Pending",
          "[coscheduling][podgroup]") {
  auto out = pod_group_status(status(""), 2, "team", members("PP", {"trainer", "launcher"}), kNow);
  CHECK(out.occupied_by == "team/launcher,team/trainer");
  // Without owners nothing is written; one set earlier is kept.
  CHECK(pod_group_status(status(""), 2, "team", members("PP", {}), kNow).occupied_by.empty());
  PodGroupStatus held = status("Scheduling", true);
  held.occupied_by = "team/old";
  CHECK(pod_group_status(held, 2, "team", members("BB", {"new"}), kNow).occupied_by == "team/old");
  // Only the Pending → PreScheduling step reads it: a group already past it keeps none.
  CHECK(pod_group_status(status("Scheduling", true), 2, "team", members("BB", {"new"}), kNow).occupied_by.empty());
}

TEST_CASE("same_pod_group_status compares every written field", "[coscheduling][podgroup]") {
  const PodGroupStatus base = pod_group_status(status(""), 2, "team", members("RR"), kNow);
  CHECK(same_pod_group_status(base, base));
  auto changed = [&](auto mutate) {
    PodGroupStatus other = base;
    mutate(other);
    return same_pod_group_status(base, other);
  };
  CHECK_FALSE(changed([](PodGroupStatus& s) { s.phase = "Scheduled"; }));
  CHECK_FALSE(changed([](PodGroupStatus& s) { s.occupied_by = "x/y"; }));
  CHECK_FALSE(changed([](PodGroupStatus& s) { s.scheduled += 1; }));
  CHECK_FALSE(changed([](PodGroupStatus& s) { s.running += 1; }));
  CHECK_FALSE(changed([](PodGroupStatus& s) { s.succeeded += 1; }));
  CHECK_FALSE(changed([](PodGroupStatus& s) { s.failed += 1; }));
  CHECK_FALSE(changed([](PodGroupStatus& s) { s.schedule_start_time.reset(); }));
}

TEST_CASE("pod_group_status: a group whose members are all gone goes back to Pending and keeps its counts",
          "[coscheduling][podgroup]") {
  PodGroupStatus scheduled = status("Scheduled", true);
  scheduled.scheduled = 3;
  scheduled.running = 2;
  const PodGroupStatus out = pod_group_status(scheduled, 3, "team", members(""), kNow);
  CHECK(out.phase == "Pending");
  CHECK(out.scheduled == 3);  // Koordinator stops before counting
  CHECK(out.running == 2);
}

TEST_CASE("pod_group_status_update: what the controller writes, and the groups it leaves alone",
          "[coscheduling][podgroup]") {
  auto group = [](const std::string& phase, int32_t scheduled, int32_t running, std::chrono::hours started_after) {
    PodGroup g;
    g.meta.name = "job";
    g.meta.namespace_name = "team";
    g.meta.creation_timestamp = kEarlier;
    g.spec.min_member = 2;
    g.status.phase = phase;
    g.status.scheduled = scheduled;
    g.status.running = running;
    g.status.schedule_start_time = kEarlier + started_after;
    return g;
  };
  // Nothing new: nothing to write.
  CHECK_FALSE(pod_group_status_update(group("Scheduled", 2, 0, std::chrono::hours(1)), members("BB"), kNow));
  // A change: the converged status.
  auto next = pod_group_status_update(group("Scheduled", 2, 0, std::chrono::hours(1)), members("RR"), kNow);
  REQUIRE(next);
  CHECK(next->phase == "Running");
  CHECK(next->running == 2);
  CHECK(next->schedule_start_time == kEarlier + std::chrono::hours(1));
  // Final phases.
  CHECK(pod_group_left_alone(group("Finished", 2, 0, std::chrono::hours(1))));
  CHECK(pod_group_left_alone(group("Failed", 2, 0, std::chrono::hours(1))));
  CHECK_FALSE(pod_group_status_update(group("Failed", 2, 0, std::chrono::hours(1)), members("RR"), kNow));
  // Scheduled in full, nothing running, started more than 48 h after creation: its pods may be garbage
  // collected, and their going must not send it back to Pending.
  CHECK(pod_group_left_alone(group("Scheduled", 2, 0, std::chrono::hours(49))));
  CHECK_FALSE(pod_group_status_update(group("Scheduled", 2, 0, std::chrono::hours(49)), members(""), kNow));
  CHECK_FALSE(pod_group_left_alone(group("Scheduled", 2, 0, std::chrono::hours(47))));
  CHECK_FALSE(pod_group_left_alone(group("Scheduled", 2, 1, std::chrono::hours(49))));  // one runs
  CHECK_FALSE(pod_group_left_alone(group("Scheduling", 1, 0, std::chrono::hours(49))));  // not all scheduled
  CHECK(pod_group_status_update(group("Scheduled", 2, 0, std::chrono::hours(47)), members(""), kNow)->phase ==
        "Pending");
}
