#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "plugins/coscheduling/gang_book.hpp"
#include "test/plugins/coscheduling/gang_specs.hpp"

using namespace troupe::plugins::coscheduling;
using troupe::test::gang;

namespace {

/// One step of a scenario: a member enters PreFilter, or the group's cycle ends.
struct Step {
  std::string member;  // "" = end_schedule_cycles(spec) (a failure rejected the group)
  std::string rejection;  // expected; "" = passes
  bool skip_reject = false;
  bool nominated = false;
};

void run(GangBook& book, const GangSpec& spec, const std::vector<Step>& steps) {
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    INFO("step " << i << " " << (s.member.empty() ? "(cycle ends)" : s.member));
    if (s.member.empty()) {
      book.end_schedule_cycles(spec);
      continue;
    }
    auto check = book.enter_schedule_cycle(spec, s.member, "ns/" + s.member, s.nominated);
    CHECK(check.rejection.value_or("") == s.rejection);
    CHECK(check.skip_reject == s.skip_reject);
  }
}

std::string not_valid(const std::string& member) {
  return "gang scheduleCycle not valid, gangName: ns/g, podName: ns/" + member;
}

}  // namespace

TEST_CASE("gang schedule cycles: each member once per cycle; a failure ends the cycle", "[coscheduling]") {
  const auto g = gang("ns/g", 3);
  struct Case {
    const char* name;
    std::vector<Step> steps;
  };
  const std::vector<Case> cases = {
      {"every member passes in cycle 1", {{"a"}, {"b"}, {"c"}}},
      {"after all three were tried, cycle 2 begins", {{"a"}, {"b"}, {"c"}, {"a"}, {"b"}, {"c"}}},
      {"a member tried twice in one cycle is too large",
       {{"a"}, {"a", "pod's schedule cycle too large, gangName: ns/g, podName: ns/a, podCycle: 1, gangCycle: 1"}}},
      {"a failure turns the others away until each has had its turn",
       {{"a"}, {""}, {"b", not_valid("b"), true}, {"c", not_valid("c"), true}, {"a"}, {"b"}, {"c"}}},
      {"turned away members count: the one that failed passes once all were tried",
       {{"a"}, {""}, {"b", not_valid("b"), true}, {"c", not_valid("c"), true}, {"b"}}},
      {"a nominated member goes on in an ended cycle", {{"a"}, {""}, {"b", "", false, true}}},
      {"a second end while the cycle is over changes nothing (the members tried still count)",
       {{"a"}, {""}, {"b", not_valid("b"), true}, {""}, {"c", not_valid("c"), true}, {"a"}}},
      {"a member that fails again, nominated, does not keep the others from their turn",
       {{"a"}, {""}, {"b", not_valid("b"), true}, {"c", not_valid("c"), true}, {"a", "", false, true}, {""},
        {"b", not_valid("b"), true}, {"c", not_valid("c"), true}, {"b"}}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    GangBook book;
    for (const char* uid : {"a", "b", "c"}) book.add_member(uid, g, false);
    run(book, g, c.steps);
  }
}

TEST_CASE("gang schedule cycles: NonStrict gangs, bound and deleted members", "[coscheduling]") {
  SECTION("NonStrict: never turned away, the cycle is only counted") {
    const auto loose = gang("ns/g", 2, MatchPolicy::once_satisfied, GangMode::non_strict);
    GangBook book;
    book.add_member("a", loose, false);
    book.add_member("b", loose, false);
    run(book, loose, {{"a"}, {""}, {"b"}, {"a"}, {"a"}});
  }
  SECTION("a bound member is never tried again: the others end the cycle") {
    auto g = gang("ns/g", 3);
    g.match_policy = MatchPolicy::waiting_and_running;  // once-satisfied would let them all go on alone
    GangBook book;
    book.add_member("a", g, true);
    book.add_member("b", g, false);
    book.add_member("c", g, false);
    run(book, g, {{"b"}, {""}, {"c", not_valid("c"), true}, {"b"}});
  }
  SECTION("a once-satisfied gang that was satisfied is not counted") {
    const auto g = gang("ns/g", 2);
    GangBook book;
    book.add_member("a", g, true);  // a bound member: satisfied once
    book.add_member("b", g, false);
    run(book, g, {{"b"}, {""}, {"b"}, {"b"}});
  }
  SECTION("a deleted member does not keep the cycle from ending") {
    const auto g = gang("ns/g", 2);
    GangBook book;
    book.add_member("a", g, false);
    book.add_member("b", g, false);
    book.add_member("c", g, false);
    run(book, g, {{"a"}, {""}, {"b", not_valid("b"), true}});
    book.remove_member("c");
    run(book, g, {{"a"}});
  }
  SECTION("a gang group has one cycle: a failure in one gang turns the other's members away") {
    const auto f = gang("ns/f", 1, MatchPolicy::once_satisfied, GangMode::strict, {"ns/f", "ns/g"});
    const auto g = gang("ns/g", 2, MatchPolicy::once_satisfied, GangMode::strict, {"ns/f", "ns/g"});
    GangBook book;
    book.add_member("f1", f, false);
    book.add_member("a", g, false);
    book.add_member("b", g, false);
    run(book, g, {{"a"}});
    book.end_schedule_cycles(f);
    run(book, g, {{"b", not_valid("b"), true}});
    // The group's cycle ends once the members of both gangs had their turn (1 + 2 of them).
    auto f1 = book.enter_schedule_cycle(f, "f1", "ns/f1", false);
    CHECK(f1.rejection.value_or("") == "gang scheduleCycle not valid, gangName: ns/f, podName: ns/f1");
    run(book, g, {{"a"}});
  }
  SECTION("total-number above the members there are: the cycle ends once each had its turn") {
    auto g = gang("ns/g", 2);
    g.total_number = 5;
    GangBook book;
    for (const char* uid : {"a", "b", "c"}) book.add_member(uid, g, false);
    run(book, g, {{"a"}, {""}, {"b", not_valid("b"), true}, {"c", not_valid("c"), true}, {"a"}});
  }
  SECTION("total-number below the members there are: the cycle ends once that many had their turn") {
    const auto g = gang("ns/g", 2);  // total-number 2, three members
    GangBook book;
    for (const char* uid : {"a", "b", "c"}) book.add_member(uid, g, false);
    run(book, g, {{"a"}, {""}, {"b", not_valid("b"), true}, {"a"}});
  }
  SECTION("a member bound after its turn no longer counts; one gone is not counted back in") {
    auto g = gang("ns/g", 3);
    g.match_policy = MatchPolicy::waiting_and_running;
    GangBook book;
    for (const char* uid : {"a", "b", "c"}) book.add_member(uid, g, false);
    run(book, g, {{"a"}, {""}});
    book.mark_bound("a");
    run(book, g, {{"b", not_valid("b"), true}, {"c", not_valid("c"), true}, {"b"}});
    book.remove_member("c");
    auto gone = book.enter_schedule_cycle(g, "c", "ns/c", false);
    CHECK(!gone.rejection);
  }
}
