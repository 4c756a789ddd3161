#include <catch2/catch.hpp>

#include <algorithm>

#include "plugins/coscheduling/gang_book.hpp"
#include "test/plugins/coscheduling/gang_specs.hpp"

using namespace troupe::plugins::coscheduling;
using troupe::test::gang;

namespace {

/// A member that names its gang by the PodGroup label alone.
GangSpec pod_group_member(const std::string& id) {
  GangSpec spec = gang(id, 0);
  spec.from_pod_group = true;
  return spec;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("gang book: PreFilter waits for min-available members", "[coscheduling]") {
  GangBook book;
  auto g = gang("ns/g", 3);
  struct Step {
    int members;  // members known before the check
    bool ready;
  };
  for (const Step& step : std::vector<Step>{{1, false}, {2, false}, {3, true}, {4, true}}) {
    INFO(step.members << " members");
    GangBook fresh;
    for (int i = 0; i < step.members; ++i) fresh.add_member("u" + std::to_string(i), g, false);
    auto reason = fresh.pre_filter(g, "ns/p0");
    CHECK(reason.has_value() == !step.ready);
    if (reason)
      CHECK(*reason == "gang child pod not collect enough, gangName: ns/g, podName: ns/p0 (" +
                           std::to_string(step.members) + " of 3 members exist)");
  }
  // Members that go away no longer count; adding one twice counts once.
  book.add_member("a", g, false);
  book.add_member("a", g, false);
  book.add_member("b", g, false);
  book.add_member("c", g, false);
  CHECK_FALSE(book.pre_filter(g, "ns/a"));
  book.remove_member("b");
  CHECK(book.pre_filter(g, "ns/a"));
  CHECK(book.counts("ns/g")->children == 2);
  // A bound member counts too, and makes the gang satisfied once (Koordinator):
  // once-satisfied gangs then pass PreFilter whatever their count.
  book.add_member("d", g, true);
  CHECK(book.counts("ns/g")->bound == 1);
  book.remove_member("c");
  CHECK_FALSE(book.pre_filter(g, "ns/a"));
}

TEST_CASE("gang book: PreFilter checks every gang of the group", "[coscheduling]") {
  GangBook book;
  auto a = gang("ns/a", 1, MatchPolicy::once_satisfied, GangMode::strict, {"ns/a", "ns/b"});
  auto b = gang("ns/b", 2, MatchPolicy::once_satisfied, GangMode::strict, {"ns/a", "ns/b"});
  book.add_member("a0", a, false);
  CHECK(*book.pre_filter(a, "ns/a0") == "can't find gang, gangName: ns/b, podName: ns/a0");
  book.add_member("b0", b, false);
  CHECK_THAT(*book.pre_filter(a, "ns/a0"), Catch::StartsWith("gang child pod not collect enough, gangName: ns/b"));
  book.add_member("b1", b, false);
  CHECK_FALSE(book.pre_filter(a, "ns/a0"));
}

TEST_CASE("gang book: Permit lets the whole gang go once min members wait", "[coscheduling]") {
  GangBook book;
  auto g = gang("ns/g", 3);
  for (const char* uid : {"a", "b", "c"}) book.add_member(uid, g, false);
  auto first = book.permit(g, "a");
  CHECK_FALSE(first.allowed);
  CHECK(book.is_waiting("a"));
  CHECK(book.waiting_groups() == 1);
  CHECK_FALSE(book.permit(g, "b").allowed);
  auto last = book.permit(g, "c");
  CHECK(last.allowed);
  CHECK(sorted(last.released) == std::vector<std::string>{"a", "b"});
  CHECK_FALSE(book.is_waiting("a"));
  CHECK(book.waiting_groups() == 0);
  // Satisfied once only when a member is bound: a group whose bindings all
  // fail is still tried as a whole.
  CHECK_FALSE(book.counts("ns/g")->once_satisfied);
  book.mark_bound("b");
  CHECK(book.counts("ns/g")->once_satisfied);
}

TEST_CASE("gang book: the match policies", "[coscheduling]") {
  struct Case {
    const char* name;
    MatchPolicy policy;
    int bound;           // members already bound
    bool satisfied_once; // a member was bound before (and has gone since)
    int waiting_needed;  // the Permit call (counting itself) that is allowed
  };
  const std::vector<Case> cases = {
      {"only-waiting ignores bound members", MatchPolicy::only_waiting, 2, false, 3},
      {"waiting-and-running counts bound members", MatchPolicy::waiting_and_running, 2, false, 1},
      {"once-satisfied before satisfaction", MatchPolicy::once_satisfied, 0, false, 3},
      {"once-satisfied with a member bound: satisfied already (Koordinator)", MatchPolicy::once_satisfied, 1, false, 1},
      {"once-satisfied after satisfaction lets each member go", MatchPolicy::once_satisfied, 0, true, 1},
      {"only-waiting after satisfaction waits again", MatchPolicy::only_waiting, 0, true, 3},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    GangBook book;
    auto g = gang("ns/g", 3, c.policy);
    if (c.satisfied_once) {
      for (const char* uid : {"s0", "s1", "s2"}) book.add_member(uid, g, false);
      for (const char* uid : {"s0", "s1", "s2"}) (void)book.permit(g, uid);
      book.mark_bound("s0");
      book.add_member("keep", g, false);  // keeps the gang known once the others are gone
      for (const char* uid : {"s0", "s1", "s2"}) book.remove_member(uid);
    }
    for (int i = 0; i < c.bound; ++i) book.add_member("bound" + std::to_string(i), g, true);
    for (int i = 1; i <= 3; ++i) book.add_member("w" + std::to_string(i), g, false);
    for (int i = 1; i <= 3; ++i) {
      auto decision = book.permit(g, "w" + std::to_string(i));
      CHECK(decision.allowed == (i >= c.waiting_needed));
      if (decision.allowed) break;
    }
  }
}

TEST_CASE("gang book: members allowed and still binding count for the next one, as WaitingForBindChildren",
          "[coscheduling]") {
  struct Case {
    const char* name;
    MatchPolicy policy;
    const char* then;  // what became of w1 and w2 before w3 reaches Permit
    bool w3_allowed;
  };
  const std::vector<Case> cases = {
      {"waiting-and-running, siblings binding", MatchPolicy::waiting_and_running, "binding", true},
      {"only-waiting, siblings binding", MatchPolicy::only_waiting, "binding", true},
      {"waiting-and-running, siblings bound", MatchPolicy::waiting_and_running, "bound", true},
      {"only-waiting, siblings bound: they count no more", MatchPolicy::only_waiting, "bound", false},
      {"waiting-and-running, siblings' bindings failed", MatchPolicy::waiting_and_running, "failed", false},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    GangBook book;
    auto g = gang("ns/g", 2, c.policy);
    for (const char* uid : {"w1", "w2", "w3"}) book.add_member(uid, g, false);
    REQUIRE_FALSE(book.permit(g, "w1").allowed);
    REQUIRE(book.permit(g, "w2").allowed);  // w1 and w2 go to bind
    for (const char* uid : {"w1", "w2"}) {
      if (std::string(c.then) == "bound") book.mark_bound(uid);
      if (std::string(c.then) == "failed") book.binding_failed(uid);
    }
    CHECK(book.permit(g, "w3").allowed == c.w3_allowed);
  }
}

TEST_CASE("gang book: a gang group is allowed only when each of its gangs is valid", "[coscheduling]") {
  GangBook book;
  std::vector<std::string> group = {"ns/a", "ns/b"};
  auto a = gang("ns/a", 1, MatchPolicy::once_satisfied, GangMode::strict, group);
  auto b = gang("ns/b", 2, MatchPolicy::once_satisfied, GangMode::strict, group);
  book.add_member("a0", a, false);
  book.add_member("b0", b, false);
  book.add_member("b1", b, false);
  CHECK_FALSE(book.permit(a, "a0").allowed);  // ns/a is valid, ns/b has nobody waiting
  CHECK_FALSE(book.permit(b, "b0").allowed);
  auto last = book.permit(b, "b1");
  CHECK(last.allowed);
  CHECK(sorted(last.released) == std::vector<std::string>{"a0", "b0"});
  CHECK_FALSE(book.counts("ns/a")->once_satisfied);
  // One member of the group bound satisfies every gang of it (GangGroupInfo).
  book.mark_bound("b1");
  CHECK(book.counts("ns/a")->once_satisfied);
  CHECK(book.counts("ns/b")->once_satisfied);
}

TEST_CASE("gang book: which failures reject the waiting group", "[coscheduling]") {
  struct Case {
    const char* name;
    GangMode mode;
    MatchPolicy policy;
    bool satisfied_once;
    bool rejects;
  };
  const std::vector<Case> cases = {
      {"Strict", GangMode::strict, MatchPolicy::once_satisfied, false, true},
      {"NonStrict", GangMode::non_strict, MatchPolicy::once_satisfied, false, false},
      {"Strict, once-satisfied and satisfied", GangMode::strict, MatchPolicy::once_satisfied, true, false},
      {"Strict, only-waiting and satisfied", GangMode::strict, MatchPolicy::only_waiting, true, true},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    GangBook book;
    auto g = gang("ns/g", 1, c.policy, c.mode);
    book.add_member("a", g, false);
    if (c.satisfied_once) book.mark_bound("a");
    CHECK(book.failure_rejects_group(g) == c.rejects);
  }
}

TEST_CASE("gang book: rejecting takes every waiting pod of the group", "[coscheduling]") {
  GangBook book;
  std::vector<std::string> group = {"ns/a", "ns/b"};
  auto a = gang("ns/a", 2, MatchPolicy::once_satisfied, GangMode::strict, group);
  auto b = gang("ns/b", 2, MatchPolicy::once_satisfied, GangMode::strict, group);
  auto other = gang("ns/other", 2);
  for (const char* uid : {"a0", "a1"}) book.add_member(uid, a, false);
  for (const char* uid : {"b0", "b1"}) book.add_member(uid, b, false);
  for (const char* uid : {"o0", "o1"}) book.add_member(uid, other, false);
  (void)book.permit(a, "a0");
  (void)book.permit(b, "b0");
  (void)book.permit(other, "o0");
  CHECK(book.waiting_groups() == 2);
  CHECK(sorted(book.take_waiting_of_group(b)) == std::vector<std::string>{"a0", "b0"});
  CHECK_FALSE(book.is_waiting("a0"));
  CHECK(book.is_waiting("o0"));
  CHECK(book.take_waiting_of_group(a).empty());
  CHECK(book.waiting_groups() == 1);
}

TEST_CASE("gang book: a member that goes away stops waiting; an empty gang is forgotten", "[coscheduling]") {
  GangBook book;
  auto g = gang("ns/g", 2);
  book.add_member("a", g, false);
  book.add_member("b", g, false);
  (void)book.permit(g, "a");
  book.remove_member("a");
  CHECK_FALSE(book.is_waiting("a"));
  CHECK(book.counts("ns/g")->waiting == 0);
  CHECK(book.stop_waiting("a") == false);
  book.remove_member("b");
  CHECK_FALSE(book.counts("ns/g"));
  // A new gang of that name starts afresh, with the new rules.
  book.add_member("c", gang("ns/g", 1), false);
  CHECK(book.permit(gang("ns/g", 1), "c").allowed);
}

TEST_CASE("gang book: the first member's rules are the gang's", "[coscheduling]") {
  GangBook book;
  book.add_member("a", gang("ns/g", 2), false);
  book.add_member("b", gang("ns/g", 5), false);
  CHECK_FALSE(book.pre_filter(gang("ns/g", 5), "ns/b"));  // 2 members, min 2 (the first member's)
  CHECK_FALSE(book.permit(gang("ns/g", 5), "a").allowed);
  CHECK(book.permit(gang("ns/g", 5), "b").allowed);
}

TEST_CASE("gang book: a gang named by its PodGroup waits for the PodGroup, then goes by its rules", "[coscheduling]") {
  GangBook book;
  const GangSpec member = pod_group_member("ns/pg");
  book.add_member("a", member, false);
  book.add_member("b", member, false);
  CHECK(*book.pre_filter(member, "ns/a") == "can't find gang, gangName: ns/pg, podName: ns/a (no PodGroup ns/pg)");
  CHECK_FALSE(book.permit(member, "a").allowed);  // never allowed without its rules
  CHECK(book.stop_waiting("a"));

  book.set_pod_group("ns/pg", troupe::Error{"PodGroup ns/pg: spec.minMember: Invalid value: must be greater than or equal to 0"});
  CHECK(*book.pre_filter(member, "ns/a") == "PodGroup ns/pg: spec.minMember: Invalid value: must be greater than or equal to 0");

  book.set_pod_group("ns/pg", gang("ns/pg", 3));
  CHECK(book.rules("ns/pg")->min_member == 3);
  CHECK_THAT(*book.pre_filter(member, "ns/a"), Catch::EndsWith("(2 of 3 members exist)"));
  book.set_pod_group("ns/pg", gang("ns/pg", 2));
  CHECK_FALSE(book.pre_filter(member, "ns/a"));
  CHECK_FALSE(book.permit(member, "a").allowed);
  CHECK(book.permit(member, "b").allowed);

  book.remove_pod_group("ns/pg");
  CHECK(book.rules("ns/pg")->from_pod_group);
  CHECK_FALSE(book.rules("ns/other"));
}

TEST_CASE("gang book: a PodGroup's rules win over its members' annotations", "[coscheduling]") {
  GangBook book;
  book.add_member("a", gang("ns/g", 1), false);
  book.set_pod_group("ns/g", gang("ns/g", 2));
  CHECK_THAT(*book.pre_filter(gang("ns/g", 1), "ns/a"), Catch::EndsWith("(1 of 2 members exist)"));
  CHECK_FALSE(book.permit(gang("ns/g", 1), "a").allowed);
}

TEST_CASE("gang book: a bound member means satisfied once (a restarted scheduler lists them)", "[coscheduling]") {
  GangBook book;
  auto g = gang("ns/g", 3);
  book.add_member("a", g, false);
  CHECK_FALSE(book.counts("ns/g")->once_satisfied);
  book.mark_bound("a");
  CHECK(book.counts("ns/g")->once_satisfied);
  // After a restart: two bound, one replacement pending; once-satisfied lets it go on alone.
  GangBook restarted;
  restarted.add_member("a", g, true);
  restarted.add_member("b", g, true);
  restarted.add_member("c", g, false);
  CHECK_FALSE(restarted.pre_filter(g, "ns/c"));
  CHECK(restarted.permit(g, "c").allowed);
}

TEST_CASE("gang book: a pod that is no longer a member neither waits nor counts", "[coscheduling]") {
  GangBook book;
  auto g = gang("ns/g", 2);
  book.add_member("a", g, false);
  book.add_member("b", g, false);
  book.remove_member("b");  // deleted while its attempt was under way
  auto gone = book.permit(g, "b");
  CHECK(gone.gone);
  CHECK_FALSE(gone.allowed);
  CHECK_FALSE(book.is_waiting("b"));
  CHECK_FALSE(book.permit(g, "a").allowed);  // a alone is not 2
  CHECK(book.counts("ns/g")->children == 1);
  // A pod never reported as a member does not count either.
  CHECK(book.permit(g, "stranger").gone);
  CHECK(book.counts("ns/g")->waiting == 1);
}


TEST_CASE("gang book: a member whose annotations do not read joins under its gang's rules", "[coscheduling]") {
  GangBook book;
  // Before any readable member: not counted yet, and the gang is unknown.
  book.add_unreadable_member("x", "ns/g", false, "ns/x");
  CHECK_FALSE(book.counts("ns/g"));
  CHECK_FALSE(book.rules("ns/g"));
  // The first readable member gives the rules; the unreadable one joins.
  auto g = gang("ns/g", 3);
  book.add_member("a", g, false);
  CHECK(book.counts("ns/g")->children == 2);
  // Later ones join at once, bound ones as bound.
  book.add_unreadable_member("y", "ns/g", true, "ns/y");
  CHECK(book.counts("ns/g")->children == 3);
  CHECK(book.counts("ns/g")->bound == 1);
  CHECK_FALSE(book.pre_filter(g, "ns/a"));
  // They leave like any member, and one gone before the gang had rules is forgotten.
  book.remove_member("y");
  CHECK(book.counts("ns/g")->children == 2);
  book.add_unreadable_member("z", "ns/h", false);
  book.remove_member("z");
  book.add_member("b", gang("ns/h", 1), false);
  CHECK(book.counts("ns/h")->children == 1);
}
