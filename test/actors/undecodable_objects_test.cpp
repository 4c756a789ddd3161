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

TEST_CASE("raw_finished and raw_finished_at: a finished object's phase and time without decoding", "[undecodable]") {
  struct Case {
    const char* text;
    bool finished;
    const char* at;  // "" = nullopt
  };
  const Case cases[] = {
      {R"({"metadata":{"creationTimestamp":"2026-01-01T00:00:00Z"},"status":{"phase":"Failed","conditions":[
          {"type":"Scheduled","lastTransitionTime":"2026-01-01T00:05:00Z"},
          {"type":"Ready","lastTransitionTime":"2026-01-01T00:10:00Z"}]}})",
       true, "2026-01-01T00:10:00Z"},
      // Ready without a time that parses: the Scheduled one.
      {R"({"status":{"phase":"Succeeded","conditions":[{"type":"Ready","lastTransitionTime":"soon"},
          {"type":"Scheduled","lastTransitionTime":"2026-01-01T00:05:00Z"}]}})",
       true, "2026-01-01T00:05:00Z"},
      // Scheduled False since long before, marked Invalid later (probe time): the later time.
      {R"({"status":{"phase":"Failed","conditions":[{"type":"Scheduled","status":"False",
          "lastTransitionTime":"2026-01-01T00:00:00Z","lastProbeTime":"2026-01-03T00:00:00Z"}]}})",
       true, "2026-01-03T00:00:00Z"},
      // No condition with a time: the creation time.
      {R"({"metadata":{"creationTimestamp":"2026-01-01T00:00:00Z"},"status":{"phase":"Failed","conditions":5}})",
       true, "2026-01-01T00:00:00Z"},
      {R"({"metadata":{"creationTimestamp":7},"status":{"phase":"Failed"}})", true, ""},
      {R"({"status":{"phase":"Available"}})", false, ""},
      {R"({"status":{"phase":"Pending"}})", false, ""},
      {R"({})", false, ""},
  };
  for (const Case& c : cases) {
    auto doc = parse_json(c.text);
    REQUIRE(doc);
    INFO(c.text);
    CHECK(raw_finished(**doc) == c.finished);
    auto at = raw_finished_at(**doc, {"Ready", "Scheduled"});
    if (*c.at == '\0') {
      CHECK_FALSE(at);
    } else {
      REQUIRE(at);
      CHECK(format_timestamp(*at) == c.at);
    }
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
