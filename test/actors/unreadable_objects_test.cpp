#include <catch2/catch.hpp>

#include <algorithm>

#include "actors/unreadable_objects.hpp"

using namespace troupe;
using namespace troupe::actors;
using Clock = UnreadableReports::Clock;

namespace {

watch::ObjectReference device(const std::string& name, const std::string& version = "1") {
  watch::ObjectReference ref;
  ref.kind = "Device";
  ref.api_version = "scheduling.koordinator.sh/v1alpha1";
  ref.name = name;
  ref.uid = "uid-" + name;
  ref.resource_version = version;
  return ref;
}

const Clock::time_point t0 = Clock::time_point{} + std::chrono::hours(1);

}  // namespace

TEST_CASE("UnreadableReports: a problem key is the field path without list indices", "[unreadable]") {
  struct Case {
    const char* problem;
    const char* key;
  };
  const Case cases[] = {
      {"spec.devices[0].minor: Invalid value: string: must be an integer", "spec.devices[].minor"},
      {"status.podsMetric[12].podUsage.resources.cpu: invalid quantity \"-1\": ...", "status.podsMetric[].podUsage.resources.cpu"},
      {"spec.devices[3].vfGroups[1].vfs[7].minor: x", "spec.devices[].vfGroups[].vfs[].minor"},
      {"no field path here", "no field path here"},
      {"", ""},
      {"a[unclosed: x", "a[]"},
  };
  for (const Case& c : cases) {
    INFO(c.problem);
    CHECK(UnreadableReports::problem_key(c.problem) == c.key);
  }
}

TEST_CASE("UnreadableReports: one log line and one event per object and problem", "[unreadable]") {
  UnreadableReports reports("troupe-scheduler");
  auto first = reports.unreadable(device("g-0"), "spec.devices[0].minor: bad", true, t0);
  CHECK(first.log);
  REQUIRE(first.event);
  CHECK(first.event->reason == "Invalid");
  CHECK(first.event->profile == "troupe-scheduler");
  CHECK(first.event->regarding.resource_version == "1");
  CHECK(first.event->message == "troupe cannot read this Device and ignores this version of it: spec.devices[0].minor: bad");

  SECTION("the same problem in a later version, or at another index, is not said again") {
    auto again = reports.unreadable(device("g-0", "2"), "spec.devices[5].minor: worse", true, t0 + std::chrono::hours(5));
    CHECK_FALSE(again.log);
    CHECK_FALSE(again.event);
  }
  SECTION("another problem is said") {
    auto other = reports.unreadable(device("g-0", "2"), "spec.devices[0].health: bad", true, t0 + std::chrono::seconds(1));
    CHECK(other.log);
    REQUIRE(other.event);
    CHECK(other.event->regarding.resource_version == "2");
  }
  SECTION("another object is said") {
    CHECK(reports.unreadable(device("g-1"), "spec.devices[0].minor: bad", true, t0).event);
  }
  SECTION("readable, then the same problem again: said again only after kSayAgainAfter") {
    reports.readable("Device", "g-0");
    CHECK_FALSE(reports.unreadable(device("g-0", "3"), "spec.devices[0].minor: bad", true, t0 + std::chrono::minutes(9)).log);
    reports.readable("Device", "g-0");
    auto later = reports.unreadable(device("g-0", "4"), "spec.devices[0].minor: bad", true, t0 + std::chrono::minutes(11));
    CHECK(later.log);
    CHECK(later.event);
  }
  SECTION("deleted: forgotten, a new object of that name is said at once") {
    reports.deleted("Device", "g-0");
    CHECK(reports.unreadable(device("g-0", "5"), "spec.devices[0].minor: bad", true, t0 + std::chrono::seconds(1)).event);
  }
}

TEST_CASE("UnreadableReports: events wait until this replica leads", "[unreadable]") {
  UnreadableReports reports("troupe-scheduler");
  auto standby = reports.unreadable(device("g-0"), "spec.devices[0].minor: bad", false, t0);
  CHECK(standby.log);
  CHECK_FALSE(standby.event);
  CHECK_FALSE(reports.unreadable(device("g-1"), "spec.devices[0].minor: bad", false, t0).event);
  reports.unreadable(device("g-2"), "spec.devices[0].minor: bad", false, t0);
  reports.readable("Device", "g-2");  // fixed meanwhile: nothing to say
  // Another update while a standby: still held back, not logged again.
  CHECK_FALSE(reports.unreadable(device("g-0", "2"), "spec.devices[1].minor: bad", false, t0).log);

  auto held = reports.take_held_back();
  std::vector<std::string> names;
  for (const auto& w : held) names.push_back(w->regarding.name);
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"g-0", "g-1"});
  CHECK(reports.take_held_back().empty());  // handed out once
  // Leading now: the next version with the same problem records nothing more.
  CHECK_FALSE(reports.unreadable(device("g-0", "3"), "spec.devices[0].minor: bad", true, t0).event);
}

TEST_CASE("UnreadableReports: without a profile nothing is recorded, only logged", "[unreadable]") {
  UnreadableReports reports;
  auto verdict = reports.unreadable(device("g-0"), "x: bad", true, t0);
  CHECK(verdict.log);
  CHECK_FALSE(verdict.event);
  CHECK(reports.take_held_back().empty());
}
