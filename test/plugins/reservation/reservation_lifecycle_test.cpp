// The reservation controller's decisions: one reservation, its owner pods,
// its node and the clock in; the action and the status out.
#include <catch2/catch.hpp>

#include "plugins/reservation/pod_annotations.hpp"
#include "plugins/reservation/reservation_lifecycle.hpp"
#include "plugins/reservation/reservation_status.hpp"
#include "reservation_test_support.hpp"

namespace troupe::plugins::reservation {
namespace {

using namespace testing;

Timestamp at(const char* text) { return *parse_timestamp(text); }

const char* kCreated = "2026-01-01T00:00:00Z";

Reservation pending(const char* name) {
  Reservation r = ReservationBuilder(name).phase("").get();
  r.status.node_name.clear();
  r.status.allocatable = {};
  r.meta.creation_timestamp = at(kCreated);
  return r;
}

Reservation available(const char* name) {
  Reservation r = ReservationBuilder(name, {{"cpu", "4"}, {"memory", "8Gi"}}).get();
  r.meta.creation_timestamp = at(kCreated);
  r.status = bound_status(r, "node-a", resources({{"cpu", "4"}, {"memory", "8Gi"}}), at(kCreated));
  return r;
}

Reservation finished(const char* name, const char* phase, const char* when) {
  Reservation r = available(name);
  r.status = std::string(phase) == kPhaseSucceeded ? succeeded_status(r, at(when))
                                                   : failed_status(r, kReasonExpired, "expired", at(when));
  return r;
}

/// A pod bound on the reservation's node that allocated from it.
Pod owner(const char* name, const Amounts& requests, const Reservation& of) {
  return with_annotation(owner_pod(name, requests).node_name(of.status.node_name).pod(),
                         kAnnotationReservationAllocated, encode_reservation_allocated({of.meta.name, of.meta.uid}));
}

const char* action_name(LifecycleAction a) {
  switch (a) {
    case LifecycleAction::none: return "none";
    case LifecycleAction::schedule: return "schedule";
    case LifecycleAction::write_status: return "write_status";
    case LifecycleAction::delete_object: return "delete_object";
  }
  return "?";
}

const Condition* condition(const ReservationStatus& s, const char* type) { return find_condition(s.conditions, type); }

}  // namespace

TEST_CASE("lifecycle: which action for which reservation", "[reservation][lifecycle]") {
  struct Case {
    const char* what;
    Reservation r;
    const char* now;
    bool node_exists;
    LifecycleAction action;
    const char* phase;       // of the written status ("" when nothing is written)
    const char* condition;   // the condition type the write sets
    const char* reason;
    const char* message_part;
  };
  Reservation no_owner = pending("no-owner");
  no_owner.spec.owners.clear();
  Reservation no_template = pending("no-template");
  no_template.spec.pod_template.reset();
  Reservation no_expiry = pending("no-expiry");
  no_expiry.spec.ttl.reset();
  Reservation never = pending("never");
  never.spec.ttl = std::chrono::nanoseconds(0);
  Reservation expires_at = pending("expires-at");
  expires_at.spec.ttl.reset();
  expires_at.spec.expires = at("2026-01-01T00:05:00Z");
  Reservation waiting_no_node = available("waiting");
  waiting_no_node.status.node_name.clear();

  const std::vector<Case> cases = {
      {"pending and valid is scheduled", pending("p"), "2026-01-01T00:10:00Z", true, LifecycleAction::schedule, "",
       "", "", ""},
      {"pending without owners fails", no_owner, "2026-01-01T00:10:00Z", true, LifecycleAction::write_status,
       kPhaseFailed, kConditionScheduled, kReasonInvalid, "misses the owner spec"},
      {"pending without template fails", no_template, "2026-01-01T00:10:00Z", true, LifecycleAction::write_status,
       kPhaseFailed, kConditionScheduled, kReasonInvalid, "misses the template spec"},
      {"pending without ttl or expires fails", no_expiry, "2026-01-01T00:10:00Z", true,
       LifecycleAction::write_status, kPhaseFailed, kConditionScheduled, kReasonInvalid, "expiration spec"},
      {"pending past its ttl expires", pending("old"), "2026-01-01T01:00:01Z", true, LifecycleAction::write_status,
       kPhaseFailed, kConditionReady, kReasonExpired, "ttl"},
      {"pending past spec.expires expires", expires_at, "2026-01-01T00:05:01Z", true, LifecycleAction::write_status,
       kPhaseFailed, kConditionReady, kReasonExpired, "2026-01-01T00:05:00Z"},
      {"ttl 0 never expires", never, "2030-01-01T00:00:00Z", true, LifecycleAction::schedule, "", "", "", ""},
      {"available past its ttl expires", available("a"), "2026-01-01T01:00:01Z", true, LifecycleAction::write_status,
       kPhaseFailed, kConditionReady, kReasonExpired, "ttl"},
      {"available on a gone node fails", available("a"), "2026-01-01T00:10:00Z", false,
       LifecycleAction::write_status, kPhaseFailed, kConditionReady, kReasonExpired, "node node-a not found"},
      {"available, no owners, nothing to do", available("a"), "2026-01-01T00:10:00Z", true, LifecycleAction::none,
       "", "", "", ""},
      {"available without a node name is left alone", waiting_no_node, "2026-01-01T00:10:00Z", true,
       LifecycleAction::none, "", "", "", ""},
      {"succeeded within retention stays", finished("s", kPhaseSucceeded, "2026-01-01T00:30:00Z"),
       "2026-01-02T00:29:59Z", true, LifecycleAction::none, "", "", "", ""},
      {"succeeded past retention is deleted", finished("s", kPhaseSucceeded, "2026-01-01T00:30:00Z"),
       "2026-01-02T00:30:01Z", true, LifecycleAction::delete_object, "", "", "", ""},
      {"failed past retention is deleted", finished("f", kPhaseFailed, "2026-01-01T00:30:00Z"),
       "2026-01-02T00:30:01Z", true, LifecycleAction::delete_object, "", "", "", ""},
      {"failed never expires again", finished("f", kPhaseFailed, "2026-01-01T00:30:00Z"), "2026-01-01T02:00:00Z",
       false, LifecycleAction::none, "", "", "", ""},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    LifecycleContext context;
    context.now = at(c.now);
    context.node_exists = c.node_exists;
    LifecycleDecision d = decide_lifecycle(c.r, context);
    CHECK(action_name(d.action) == std::string(action_name(c.action)));
    CHECK((d.action == LifecycleAction::none || !d.why.empty()));
    if (c.action != LifecycleAction::write_status) {
      CHECK_FALSE(d.status);
      continue;
    }
    REQUIRE(d.status);
    CHECK(d.status->phase == c.phase);
    const Condition* cond = condition(*d.status, c.condition);
    REQUIRE(cond != nullptr);
    CHECK(cond->status == "False");
    CHECK(cond->reason == c.reason);
    CHECK(cond->message.find(c.message_part) != std::string::npos);
    CHECK(cond->last_transition_time == context.now);
  }
}

TEST_CASE("lifecycle: owners, allocated and allocateOnce", "[reservation][lifecycle]") {
  Reservation r = available("r1");
  r.spec.allocate_once = false;
  Pod a = owner("a", {{"cpu", "1"}, {"memory", "1Gi"}, {"nvidia.com/gpu", "1"}}, r);
  Pod b = owner("b", {{"cpu", "2"}}, r);
  Reservation other = available("r2");
  Pod stranger = owner("c", {{"cpu", "3"}}, other);
  LifecycleContext context;
  context.now = at("2026-01-01T00:10:00Z");

  context.owner_pods = {&a, &b, &stranger};
  LifecycleDecision d = decide_lifecycle(r, context);
  REQUIRE(d.action == LifecycleAction::write_status);
  REQUIRE(d.status);
  CHECK(d.status->phase == kPhaseAvailable);
  REQUIRE(d.status->current_owners.size() == 2);
  CHECK(d.status->current_owners[0].name == "a");
  CHECK(d.status->current_owners[1].name == "b");
  // gpu is not reserved: masked out of allocated.
  CHECK(d.status->allocated.same_amounts(resources({{"cpu", "3"}, {"memory", "1Gi"}})));

  SECTION("the same owners again write nothing") {
    r.status = *d.status;
    CHECK(decide_lifecycle(r, context).action == LifecycleAction::none);
  }
  SECTION("an owner gone shrinks allocated") {
    r.status = *d.status;
    context.owner_pods = {&b};
    LifecycleDecision again = decide_lifecycle(r, context);
    REQUIRE(again.status);
    CHECK(again.status->current_owners.size() == 1);
    CHECK(again.status->allocated.same_amounts(resources({{"cpu", "2"}})));
  }
  SECTION("the last owner gone clears owners and allocated") {
    r.status = *d.status;
    context.owner_pods = {};
    LifecycleDecision again = decide_lifecycle(r, context);
    REQUIRE(again.status);
    CHECK(again.status->current_owners.empty());
    CHECK(again.status->allocated.is_zero());
  }
  SECTION("allocateOnce with an owner succeeds and records the owner") {
    r.spec.allocate_once = true;
    context.owner_pods = {&b};
    LifecycleDecision once = decide_lifecycle(r, context);
    REQUIRE(once.status);
    CHECK(once.status->phase == kPhaseSucceeded);
    CHECK(once.status->current_owners.size() == 1);
    const Condition* ready = find_condition(once.status->conditions, kConditionReady);
    REQUIRE(ready);
    CHECK(ready->status == "False");
    CHECK(ready->reason == kReasonSucceeded);
    CHECK(once.why.find("default/b") != std::string::npos);
  }
  SECTION("allocateOnce without an owner stays Available") {
    r.spec.allocate_once = true;
    context.owner_pods = {&stranger};
    CHECK(decide_lifecycle(r, context).action == LifecycleAction::none);
  }
  SECTION("a terminated owner holds nothing") {
    b.status.phase = "Succeeded";
    context.owner_pods = {&b};
    CHECK(decide_lifecycle(r, context).action == LifecycleAction::none);
  }
}

TEST_CASE("lifecycle: garbage collection can be switched off and measures from the Ready transition",
          "[reservation][lifecycle]") {
  Reservation done = finished("s", kPhaseSucceeded, "2026-01-01T00:30:00Z");
  LifecycleContext context;
  context.now = at("2026-01-01T00:40:00Z");
  context.retention = std::chrono::seconds(60);
  CHECK(decide_lifecycle(done, context).action == LifecycleAction::delete_object);
  context.garbage_collection = false;
  CHECK(decide_lifecycle(done, context).action == LifecycleAction::none);

  REQUIRE(finished_at(done));
  CHECK(*finished_at(done) == at("2026-01-01T00:30:00Z"));
  Reservation bare = pending("bare");
  bare.status.phase = kPhaseFailed;
  CHECK(*finished_at(bare) == at(kCreated));
  bare.meta.creation_timestamp.reset();
  CHECK_FALSE(finished_at(bare));
  context.garbage_collection = true;
  CHECK(decide_lifecycle(bare, context).action == LifecycleAction::none);  // unknown age: kept

  // Unschedulable since long ago, then failed (Scheduled already False: only its probe time moves).
  Reservation late = pending("late");
  late.status = unschedulable_status(late, "0/1 nodes are available", at("2025-12-01T00:00:00Z"));
  late.status.phase = kPhaseFailed;
  set_condition(late.status.conditions, kConditionScheduled, "False", kReasonInvalid, "bad", at("2026-01-01T00:39:30Z"));
  CHECK(*finished_at(late) == at("2026-01-01T00:39:30Z"));
  CHECK(decide_lifecycle(late, context).action == LifecycleAction::none);  // 30 s ago, retention 60 s
  // One being deleted (finalizers) is not deleted again.
  Reservation going = done;
  going.meta.deletion_timestamp = at("2026-01-01T00:35:00Z");
  CHECK(decide_lifecycle(going, context).action == LifecycleAction::none);
}

TEST_CASE("lifecycle: a reservation is due for collection strictly after the retention", "[reservation][lifecycle]") {
  struct Case {
    const char* what;
    std::optional<Timestamp> finished;
    bool garbage_collection;
    bool due;
  };
  const std::vector<Case> cases = {
      {"61 s ago", at("2026-01-01T00:38:59Z"), true, true},
      {"exactly 60 s ago", at("2026-01-01T00:39:00Z"), true, false},
      {"just now", at("2026-01-01T00:40:00Z"), true, false},
      {"in the future (clock skew)", at("2026-01-01T01:00:00Z"), true, false},
      {"unknown", std::nullopt, true, false},
      {"collection off", at("2026-01-01T00:00:00Z"), false, false},
  };
  LifecycleContext context;
  context.now = at("2026-01-01T00:40:00Z");
  context.retention = std::chrono::seconds(60);
  for (const auto& c : cases) {
    INFO(c.what);
    context.garbage_collection = c.garbage_collection;
    CHECK(due_for_collection(c.finished, context) == c.due);
  }
}

TEST_CASE("lifecycle: status transitions keep what they do not own", "[reservation][lifecycle]") {
  Reservation r = pending("r");
  const Timestamp t0 = at("2026-01-01T00:01:00Z"), t1 = at("2026-01-01T00:02:00Z"), t2 = at("2026-01-01T00:03:00Z");

  ReservationStatus first = unschedulable_status(r, "0/3 nodes are available: 3 Insufficient cpu.", t0);
  CHECK(first.phase.empty());  // still Pending
  REQUIRE(first.conditions.size() == 1);
  CHECK(first.conditions[0].type == kConditionScheduled);
  CHECK(first.conditions[0].reason == kReasonUnschedulable);
  r.status = first;
  ReservationStatus second = unschedulable_status(r, "0/3 nodes are available: 3 Insufficient memory.", t1);
  CHECK(second.conditions[0].last_transition_time == t0);  // same status: the transition stays
  CHECK(second.conditions[0].last_probe_time == t1);
  CHECK(second.conditions[0].message.find("memory") != std::string::npos);

  r.status = second;
  ReservationStatus bound = bound_status(r, "node-b", resources({{"cpu", "2"}}), t2);
  CHECK(bound.phase == kPhaseAvailable);
  CHECK(bound.node_name == "node-b");
  CHECK(bound.allocatable.same_amounts(resources({{"cpu", "2"}})));
  REQUIRE(bound.conditions.size() == 2);
  const Condition* scheduled = find_condition(bound.conditions, kConditionScheduled);
  const Condition* ready = find_condition(bound.conditions, kConditionReady);
  REQUIRE(scheduled);
  REQUIRE(ready);
  CHECK(scheduled->status == "True");
  CHECK(scheduled->reason == kReasonScheduled);
  CHECK(scheduled->message.empty());
  CHECK(scheduled->last_transition_time == t2);
  CHECK(ready->status == "True");
  CHECK(ready->reason == kReasonAvailable);

  r.status = bound;
  ReservationStatus failed = failed_status(r, kReasonExpired, "gone", t2);
  CHECK(failed.phase == kPhaseFailed);
  CHECK(failed.node_name == "node-b");
  CHECK(failed.allocatable.same_amounts(bound.allocatable));
  r.status = failed;
  CHECK(is_expired(r));
}

TEST_CASE("status writes: what binding does to the fresh object", "[reservation][lifecycle]") {
  const Timestamp now = at("2026-01-01T00:02:00Z");
  Reservation fresh = pending("r");
  Reservation unschedulable = pending("r");
  unschedulable.status = unschedulable_status(unschedulable, "0/1 nodes are available", at(kCreated));
  Reservation replaced = pending("r");
  replaced.meta.uid = "another-uid";
  Reservation bound_here = available("r");
  Reservation failed = finished("r", kPhaseFailed, "2026-01-01T00:01:00Z");
  struct Case {
    const char* what;
    Reservation r;
    bool writes;
    const char* refusal_part;  // "" when not refused
  };
  const std::vector<Case> cases = {
      {"pending: bound", fresh, true, ""},
      {"pending after a failed attempt: bound", unschedulable, true, ""},
      {"replaced by another reservation of that name: refused", replaced, false, "was replaced (uid another-uid)"},
      {"already Available on that node (a retried write): nothing", bound_here, false, ""},
      {"expired meanwhile: refused", failed, false, "is Failed, not Pending"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    StatusUpdate u = bind_update(c.r, "ruid-r", "node-a", now);
    CHECK(u.status.has_value() == c.writes);
    CHECK(u.refusal.find(c.refusal_part) != std::string::npos);
    CHECK(u.refusal.empty() == (std::string(c.refusal_part) == ""));
    if (!u.status) continue;
    CHECK(u.status->phase == kPhaseAvailable);
    CHECK(u.status->node_name == "node-a");
    // allocatable: the template's requests (ReservationBuilder's 4 cpu, 8Gi).
    CHECK(u.status->allocatable.same_amounts(resources({{"cpu", "4"}, {"memory", "8Gi"}})));
    const Condition* scheduled = find_condition(u.status->conditions, kConditionScheduled);
    REQUIRE(scheduled);
    CHECK(scheduled->status == "True");
    CHECK(scheduled->message.empty());
  }
  Reservation moved = available("r");
  moved.status.node_name = "node-b";
  StatusUpdate elsewhere = bind_update(moved, "ruid-r", "node-a", now);
  CHECK_FALSE(elsewhere.status);
  CHECK(elsewhere.refusal == "reservation r is Available, not Pending");
}

TEST_CASE("status writes: unschedulable and decided updates", "[reservation][lifecycle]") {
  const Timestamp now = at("2026-01-01T00:02:00Z");
  Reservation r = pending("r");
  auto first = unschedulable_update(r, "ruid-r", "0/2 nodes: Insufficient cpu", now);
  REQUIRE(first);
  r.status = *first;
  CHECK_FALSE(unschedulable_update(r, "ruid-r", "0/2 nodes: Insufficient cpu", now));  // says so already
  CHECK(unschedulable_update(r, "ruid-r", "0/3 nodes: Insufficient cpu", now));       // a new message
  CHECK_FALSE(unschedulable_update(r, "another-uid", "x", now));
  CHECK_FALSE(unschedulable_update(available("r"), "ruid-r", "x", now));  // bound meanwhile

  Reservation decided_from = available("r");
  decided_from.meta.resource_version = "7";
  ReservationStatus status = failed_status(decided_from, kReasonExpired, "expired", now);
  Reservation same = decided_from;
  CHECK(decided_update(same, decided_from, status));
  Reservation newer = decided_from;
  newer.meta.resource_version = "8";
  CHECK_FALSE(decided_update(newer, decided_from, status));
  Reservation other = decided_from;
  other.meta.uid = "another-uid";
  CHECK_FALSE(decided_update(other, decided_from, status));
}

}  // namespace troupe::plugins::reservation
