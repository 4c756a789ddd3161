#include <catch2/catch.hpp>

#include "actors/undecodable_objects.hpp"
#include "model/json.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

constexpr const char* kNow = "2026-11-29T12:00:00Z";

struct Marked {
  bool written;
  std::string json;
};

/// mark_invalid on `text` as a Reservation (condition "Scheduled") or, with
/// `condition` nullptr, as a PodMigrationJob (status.reason/message).
Marked mark(const std::string& text, const char* condition, const std::string& uid = "u1") {
  auto doc = parse_json(text);
  REQUIRE(doc);
  UndecodableObject seen{"r1", uid, "bad cpu"};
  auto now = parse_timestamp(kNow);
  REQUIRE(now);
  const bool written = mark_invalid(**doc, seen, condition, *now);
  return {written, to_json(**doc)};
}

std::string compact(const std::string& text) {
  auto doc = parse_json(text);
  REQUIRE(doc);
  return to_json(**doc);
}

}  // namespace

TEST_CASE("mark_invalid: a Pending object that does not decode is marked Failed, the rest kept", "[undecodable]") {
  struct Case {
    const char* name;
    const char* condition;  // nullptr: a PodMigrationJob
    const char* before;
    const char* after;  // nullptr: nothing written, the object unchanged
  };
  const std::string meta = R"("metadata":{"name":"r1","uid":"u1"},"spec":{"x":"1 core"})";
  const Case cases[] = {
      {"no status: created, with the Scheduled condition", "Scheduled", "{META}",
       R"({META,"status":{"phase":"Failed","conditions":[{"type":"Scheduled","status":"False","reason":"Invalid",)"
       R"("message":"bad cpu","lastProbeTime":"2026-11-29T12:00:00Z","lastTransitionTime":"2026-11-29T12:00:00Z"}]}})"},
      {"phase Pending: other conditions and fields kept", "Scheduled",
       R"({META,"status":{"phase":"Pending","nodeName":"","conditions":[{"type":"Other","status":"True"}]}})",
       R"({META,"status":{"phase":"Failed","nodeName":"","conditions":[{"type":"Other","status":"True"},)"
       R"({"type":"Scheduled","status":"False","reason":"Invalid","message":"bad cpu",)"
       R"("lastProbeTime":"2026-11-29T12:00:00Z","lastTransitionTime":"2026-11-29T12:00:00Z"}]}})"},
      {"Scheduled already False: replaced, its transition time kept", "Scheduled",
       R"({META,"status":{"conditions":[{"type":"Scheduled","status":"False","reason":"Unschedulable",)"
       R"("lastTransitionTime":"2026-11-28T00:00:00Z"}]}})",
       R"({META,"status":{"conditions":[{"type":"Scheduled","status":"False","reason":"Invalid","message":"bad cpu",)"
       R"("lastProbeTime":"2026-11-29T12:00:00Z","lastTransitionTime":"2026-11-28T00:00:00Z"}],"phase":"Failed"}})"},
      {"Scheduled True: the transition is now", "Scheduled",
       R"({META,"status":{"conditions":[{"type":"Scheduled","status":"True","lastTransitionTime":"2026-11-28T00:00:00Z"}]}})",
       R"({META,"status":{"conditions":[{"type":"Scheduled","status":"False","reason":"Invalid","message":"bad cpu",)"
       R"("lastProbeTime":"2026-11-29T12:00:00Z","lastTransitionTime":"2026-11-29T12:00:00Z"}],"phase":"Failed"}})"},
      {"status not an object: replaced", "Scheduled", R"({META,"status":5})",
       R"({META,"status":{"phase":"Failed","conditions":[{"type":"Scheduled","status":"False","reason":"Invalid",)"
       R"("message":"bad cpu","lastProbeTime":"2026-11-29T12:00:00Z","lastTransitionTime":"2026-11-29T12:00:00Z"}]}})"},
      {"conditions not a list: replaced", "Scheduled", R"({META,"status":{"conditions":{}}})",
       R"({META,"status":{"conditions":[{"type":"Scheduled","status":"False","reason":"Invalid",)"
       R"("message":"bad cpu","lastProbeTime":"2026-11-29T12:00:00Z","lastTransitionTime":"2026-11-29T12:00:00Z"}],)"
       R"("phase":"Failed"}})"},
      {"a job: reason and message in the status, conditions untouched", nullptr,
       R"({META,"status":{"phase":"","conditions":[{"type":"Eviction","status":"False"}]}})",
       R"({META,"status":{"phase":"Failed","conditions":[{"type":"Eviction","status":"False"}],"reason":"Invalid",)"
       R"("message":"bad cpu"}})"},
      {"a job with an older reason: overwritten", nullptr, R"({META,"status":{"reason":"Old","message":"old"}})",
       R"({META,"status":{"reason":"Invalid","message":"bad cpu","phase":"Failed"}})"},
      {"Available: started, nothing written", "Scheduled", R"({META,"status":{"phase":"Available"}})", nullptr},
      {"Failed already: nothing written", "Scheduled", R"({META,"status":{"phase":"Failed"}})", nullptr},
      {"a Running job: nothing written", nullptr, R"({META,"status":{"phase":"Running"}})", nullptr},
      {"an Aborted job: nothing written", nullptr, R"({META,"status":{"phase":"Aborted"}})", nullptr},
  };
  auto expand = [&](std::string text) {
    const auto at = text.find("META");
    if (at != std::string::npos) text.replace(at, 4, meta);
    return compact(text);
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      Marked got = mark(expand(c.before), c.condition);
      CHECK(got.written == (c.after != nullptr));
      CHECK(got.json == expand(c.after ? c.after : c.before));
    }
  }
}

TEST_CASE("mark_invalid: another object of the same name is left alone", "[undecodable]") {
  const std::string other = compact(R"({"metadata":{"name":"r1","uid":"u2"}})");
  Marked got = mark(other, "Scheduled");
  CHECK_FALSE(got.written);
  CHECK(got.json == other);
  CHECK_FALSE(mark("[1]", "Scheduled").written);
}

TEST_CASE("raw_phase and raw_pending read the phase without decoding", "[undecodable]") {
  struct Case {
    const char* text;
    const char* phase;
    bool pending;
  };
  const Case cases[] = {
      {R"({})", "", true},
      {R"({"status":null})", "", true},
      {R"({"status":{"phase":7}})", "", true},
      {R"({"status":{"phase":"Pending"}})", "Pending", true},
      {R"({"status":{"phase":"Available"}})", "Available", false},
      {R"({"status":{"phase":"Succeeded"}})", "Succeeded", false},
      {R"({"status":{"phase":"Running"}})", "Running", false},
  };
  for (const Case& c : cases) {
    auto doc = parse_json(c.text);
    REQUIRE(doc);
    INFO(c.text);
    CHECK(raw_phase(**doc) == c.phase);
    CHECK(raw_pending(**doc) == c.pending);
  }
}

TEST_CASE("undecodable_object reads name and uid as the watch delivered them", "[undecodable]") {
  auto doc = parse_json(R"({"metadata":{"name":"r1","uid":"u1"},"spec":5})");
  REQUIRE(doc);
  UndecodableObject bad = undecodable_object(**doc, "why");
  CHECK(bad.name == "r1");
  CHECK(bad.uid == "u1");
  CHECK(bad.message == "why");
  auto nameless = parse_json(R"({"metadata":5})");
  REQUIRE(nameless);
  CHECK(undecodable_object(**nameless, "").name.empty());
}
