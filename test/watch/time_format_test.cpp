// Kubernetes Time and MicroTime formatting.
#include <catch2/catch.hpp>

#include <vector>

#include "watch/time_format.hpp"

using namespace troupe::watch;

TEST_CASE("time formatting: RFC 3339 seconds and MicroTime", "[time_format]") {
  using namespace std::chrono;
  struct Case {
    long long micros_since_epoch;
    const char* time;
    const char* micro_time;
  };
  const std::vector<Case> cases = {
      {0, "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000000Z"},
      {1795304251000000LL, "2026-11-21T23:37:31Z", "2026-11-21T23:37:31.000000Z"},
      {1795304251123456LL, "2026-11-21T23:37:31Z", "2026-11-21T23:37:31.123456Z"},
      {1795304251999999LL, "2026-11-21T23:37:31Z", "2026-11-21T23:37:31.999999Z"},  // never rounds up
      {951782400000001LL, "2000-02-29T00:00:00Z", "2000-02-29T00:00:00.000001Z"},   // leap day
      {-1, "1969-12-31T23:59:59Z", "1969-12-31T23:59:59.999999Z"},                 // before the epoch
  };
  for (const auto& c : cases) {
    INFO(c.micros_since_epoch);
    const system_clock::time_point t{duration_cast<system_clock::duration>(microseconds(c.micros_since_epoch))};
    CHECK(format_time(t) == c.time);
    CHECK(format_micro_time(t) == c.micro_time);
  }
}
