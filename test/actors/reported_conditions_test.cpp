// ReportedConditions: when a failed attempt writes PodScheduled=False, and
// the lastTransitionTime it keeps (kube-scheduler's UpdatePodCondition).
#include <catch2/catch.hpp>

#include "actors/reported_conditions.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

Timestamp at(const char* text) {
  auto t = parse_timestamp(text);
  REQUIRE(t);
  return *t;
}

Pod pod(const char* uid, std::vector<Condition> conditions = {}) {
  Pod p;
  p.meta.uid = uid;
  p.status.conditions = std::move(conditions);
  return p;
}

Condition scheduled(const char* status, const char* reason, const char* message, const char* since) {
  Condition c;
  c.type = "PodScheduled";
  c.status = status;
  c.reason = reason;
  c.message = message;
  c.last_transition_time = at(since);
  return c;
}

}  // namespace

TEST_CASE("reported conditions: written once per change, the time it became False kept", "[reported-conditions]") {
  const char* t0 = "2026-12-07T10:00:00Z";
  const char* t1 = "2026-12-07T10:01:00Z";
  const char* t2 = "2026-12-07T10:02:00Z";
  const char* t3 = "2026-12-07T10:07:00Z";  // 5 minutes after the error was written
  struct Step {
    const char* what;
    Pod pod;
    const char* reason;
    const char* message;
    const char* now;
    bool write;
    const char* since;  // nullptr: none given (the write's own time)
  };
  const std::vector<Step> steps = {
      {"first failure: written", pod("a"), "Unschedulable", "0/3 nodes", t0, true, nullptr},
      {"the same again: nothing", pod("a"), "Unschedulable", "0/3 nodes", t1, false, t0},
      {"a new message: written, still False since the first", pod("a"), "Unschedulable", "0/4 nodes", t1, true, t0},
      {"an error: written, same time", pod("a"), "SchedulerError", "boom", t2, true, t0},
      {"the error again: nothing", pod("a"), "SchedulerError", "boom", t2, false, t0},
      {"the error again 5 minutes on: written again (a lost write heals), same time", pod("a"), "SchedulerError",
       "boom", t3, true, t0},
      {"and not again right after", pod("a"), "SchedulerError", "boom", t3, false, t0},
      {"another pod is its own", pod("b"), "SchedulerError", "boom", t2, true, nullptr},
      {"unseen, carrying the same condition (a restart): nothing", pod("c", {scheduled("False", "Unschedulable", "0/3 nodes", t0)}),
       "Unschedulable", "0/3 nodes", t2, false, t0},
      {"unseen, False for another message: written, its time kept", pod("d", {scheduled("False", "Unschedulable", "old", t0)}),
       "Unschedulable", "0/3 nodes", t2, true, t0},
      {"unseen, PodScheduled True (bound once, now pending): written anew", pod("e", {scheduled("True", "", "", t0)}),
       "Unschedulable", "0/3 nodes", t2, true, nullptr},
  };
  ReportedConditions reported;
  for (const auto& s : steps) {
    INFO(s.what);
    auto d = reported.report(s.pod, s.reason, s.message, at(s.now));
    CHECK(d.write == s.write);
    REQUIRE(d.since.has_value() == (s.since != nullptr));
    if (s.since) CHECK(*d.since == at(s.since));
  }
  CHECK(reported.size() == 5);
}

TEST_CASE("reported conditions: a forgotten pod is judged by its object again", "[reported-conditions]") {
  ReportedConditions reported;
  const Timestamp now = at("2026-12-07T10:00:00Z");
  CHECK(reported.report(pod("a"), "Unschedulable", "m", now).write);
  CHECK_FALSE(reported.report(pod("a"), "Unschedulable", "m", now).write);
  reported.forget("a");
  CHECK(reported.size() == 0);
  CHECK(reported.report(pod("a"), "Unschedulable", "m", now).write);
}

TEST_CASE("reported conditions: a deleted pod's late failures write and keep nothing", "[reported-conditions]") {
  ReportedConditions reported;
  const Timestamp now = at("2026-12-07T10:00:00Z");
  CHECK(reported.report(pod("a"), "Unschedulable", "m", now).write);
  reported.gone("a");
  CHECK(reported.size() == 0);
  // Its Binding (or the wait for its claims) fails after the deletion was seen.
  auto late = reported.report(pod("a"), "SchedulerError", "pod does not exist any more", now);
  CHECK_FALSE(late.write);
  CHECK(reported.size() == 0);
  // Only the last kGoneRemembered deletions are remembered.
  for (int i = 0; i < 1024; ++i) reported.gone("other-" + std::to_string(i));
  CHECK(reported.report(pod("a"), "Unschedulable", "m", now).write);
}
