#include <catch2/catch.hpp>

#include "model/timestamp.hpp"

using namespace troupe;

namespace {
int64_t micros(const Result<Timestamp>& t) { return t->time_since_epoch().count(); }
}  // namespace

TEST_CASE("parse_timestamp reads RFC 3339 as Go's time.RFC3339 does", "[timestamp]") {
  struct Case {
    const char* text;
    int64_t micros_since_epoch;
  };
  const Case cases[] = {
      {"1970-01-01T00:00:00Z", 0},
      {"2026-11-21T23:37:31Z", 1795304251000000},
      {"2026-11-21T23:37:31.123456Z", 1795304251123456},
      {"2026-11-21T23:37:31.1Z", 1795304251100000},
      {"2026-11-21T23:37:31.123456789Z", 1795304251123456},  // nanoseconds truncated
      {"2026-11-22T01:37:31+02:00", 1795304251000000},
      {"2026-11-21T20:07:31-03:30", 1795304251000000},
      {"2024-02-29T00:00:00Z", 1709164800000000},
      {"1969-12-31T23:59:59Z", -1000000},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto parsed = parse_timestamp(c.text);
    REQUIRE(parsed.ok());
    CHECK(micros(parsed) == c.micros_since_epoch);
  }
}

TEST_CASE("parse_timestamp rejects malformed times with the reason", "[timestamp]") {
  struct Case {
    const char* text;
    const char* reason;
  };
  const Case cases[] = {
      {"", "expected YYYY-MM-DDTHH:MM:SS"},
      {"2026-11-21 23:37:31Z", "expected YYYY-MM-DDTHH:MM:SS"},
      {"2026-13-01T00:00:00Z", "month out of range"},
      {"2026-02-29T00:00:00Z", "day out of range"},
      {"2026-04-31T00:00:00Z", "day out of range"},
      {"2026-01-01T24:00:00Z", "hour out of range"},
      {"2026-01-01T00:60:00Z", "minute out of range"},
      {"2026-01-01T00:00:60Z", "second out of range"},
      {"2026-01-01T00:00:00", "missing time zone (Z or an offset)"},
      {"2026-01-01T00:00:00.Z", "expected digits after the decimal point"},
      {"2026-01-01T00:00:00+0200", "expected a zone offset like +02:00"},
      {"2026-01-01T00:00:00Zjunk", "unexpected text after the time zone"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto parsed = parse_timestamp(c.text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.message() == std::string("invalid RFC 3339 time \"") + c.text + "\": " + c.reason);
  }
}

TEST_CASE("timestamps format as metav1.Time and metav1.MicroTime", "[timestamp]") {
  auto t = parse_timestamp("2026-11-22T01:37:31.5+02:00");
  REQUIRE(t);
  CHECK(format_timestamp(*t) == "2026-11-21T23:37:31Z");
  CHECK(format_micro_timestamp(*t) == "2026-11-21T23:37:31.500000Z");
  auto before_epoch = parse_timestamp("1969-12-31T23:59:59.250000Z");
  REQUIRE(before_epoch);
  CHECK(format_micro_timestamp(*before_epoch) == "1969-12-31T23:59:59.250000Z");
  CHECK(format_timestamp(*before_epoch) == "1969-12-31T23:59:59Z");
  auto round_trip = parse_timestamp(format_micro_timestamp(*t));
  REQUIRE(round_trip);
  CHECK(*round_trip == *t);
}
