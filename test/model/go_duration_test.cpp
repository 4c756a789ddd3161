#include <catch2/catch.hpp>

#include "model/go_duration.hpp"

using namespace troupe;
using std::chrono::nanoseconds;

TEST_CASE("parse_go_duration matches time.ParseDuration", "[go_duration]") {
  struct Case {
    const char* text;
    int64_t nanos;
  };
  const Case cases[] = {
      {"0", 0},
      {"5s", 5000000000},
      {"-5s", -5000000000},
      {"+5s", 5000000000},
      {"24h", 86400000000000},
      {"1h30m", 5400000000000},
      {"1.5h", 5400000000000},
      {"300ms", 300000000},
      {"1.5s", 1500000000},
      {".5s", 500000000},
      {"5.s", 5000000000},
      {"10us", 10000},
      {"10\xC2\xB5s", 10000},
      {"7ns", 7},
      {"2h45m30.5s", 9930500000000},
      {"9223372036854775807ns", INT64_MAX},
      {"-9223372036854775808ns", INT64_MIN},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto parsed = parse_go_duration(c.text);
    REQUIRE(parsed.ok());
    CHECK(parsed->count() == c.nanos);
  }
}

TEST_CASE("parse_go_duration errors quote the input as Go does", "[go_duration]") {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"", "time: invalid duration \"\""},
      {"-", "time: invalid duration \"-\""},
      {"5", "time: missing unit in duration \"5\""},
      {"3d", "time: unknown unit \"d\" in duration \"3d\""},
      {"1h5", "time: missing unit in duration \"1h5\""},
      {".s", "time: invalid duration \".s\""},
      {"9223372036854775808ns", "time: invalid duration \"9223372036854775808ns\""},
      {"3000000h", "time: invalid duration \"3000000h\""},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto parsed = parse_go_duration(c.text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.message() == c.message);
  }
}

TEST_CASE("format_go_duration matches time.Duration.String", "[go_duration]") {
  struct Case {
    int64_t nanos;
    const char* text;
  };
  const Case cases[] = {
      {0, "0s"},
      {1, "1ns"},
      {1100, "1.1\xC2\xB5s"},
      {2200000, "2.2ms"},
      {300000000, "300ms"},
      {1500000000, "1.5s"},
      {90000000000, "1m30s"},
      {300000000000, "5m0s"},
      {86400000000000, "24h0m0s"},
      {9930500000000, "2h45m30.5s"},
      {-5000000000, "-5s"},
      {INT64_MIN, "-2562047h47m16.854775808s"},
  };
  for (const auto& c : cases) {
    INFO(c.nanos);
    CHECK(format_go_duration(nanoseconds(c.nanos)) == c.text);
  }
}
