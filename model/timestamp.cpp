#include "model/timestamp.hpp"

#include <cstdint>
#include <cstdio>
#include <optional>

namespace troupe {

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
// days_from_civil), so no time zone database or timegm is involved.
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

struct Civil {
  int64_t year;
  unsigned month, day;
};

Civil civil_from_days(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<int64_t>(yoe) + era * 400 + (m <= 2), m, d};
}

bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned days_in_month(int64_t y, unsigned m) {
  static const unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

// Reads exactly `n` digits at `pos`.
std::optional<unsigned> digits(std::string_view s, size_t& pos, size_t n) {
  if (pos + n > s.size()) return std::nullopt;
  unsigned v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = s[pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  pos += n;
  return v;
}

bool expect_char(std::string_view s, size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

Error bad_time(std::string_view text, const char* why) {
  return Error{"invalid RFC 3339 time \"" + std::string(text) + "\": " + why};
}

std::string format(Timestamp t, bool micro) {
  using namespace std::chrono;
  const int64_t us = t.time_since_epoch().count();
  int64_t secs = us >= 0 ? us / 1000000 : -((-us + 999999) / 1000000);
  const int64_t frac = us - secs * 1000000;
  int64_t days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
  const int64_t rem = secs - days * 86400;
  const Civil c = civil_from_days(days);
  char buf[64];
  if (micro) {
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02d:%02d:%02d.%06lldZ", static_cast<long long>(c.year), c.month,
                  c.day, static_cast<int>(rem / 3600), static_cast<int>(rem / 60 % 60), static_cast<int>(rem % 60),
                  static_cast<long long>(frac));
  } else {
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02d:%02d:%02dZ", static_cast<long long>(c.year), c.month, c.day,
                  static_cast<int>(rem / 3600), static_cast<int>(rem / 60 % 60), static_cast<int>(rem % 60));
  }
  return buf;
}

}  // namespace

Result<Timestamp> parse_timestamp(std::string_view text) {
  size_t pos = 0;
  auto year = digits(text, pos, 4);
  if (!year || !expect_char(text, pos, '-')) return bad_time(text, "expected YYYY-MM-DDTHH:MM:SS");
  auto month = digits(text, pos, 2);
  if (!month || !expect_char(text, pos, '-')) return bad_time(text, "expected YYYY-MM-DDTHH:MM:SS");
  auto day = digits(text, pos, 2);
  if (!day || !expect_char(text, pos, 'T')) return bad_time(text, "expected YYYY-MM-DDTHH:MM:SS");
  auto hour = digits(text, pos, 2);
  if (!hour || !expect_char(text, pos, ':')) return bad_time(text, "expected YYYY-MM-DDTHH:MM:SS");
  auto minute = digits(text, pos, 2);
  if (!minute || !expect_char(text, pos, ':')) return bad_time(text, "expected YYYY-MM-DDTHH:MM:SS");
  auto second = digits(text, pos, 2);
  if (!second) return bad_time(text, "expected YYYY-MM-DDTHH:MM:SS");
  if (*month < 1 || *month > 12) return bad_time(text, "month out of range");
  if (*day < 1 || *day > days_in_month(*year, *month)) return bad_time(text, "day out of range");
  if (*hour > 23) return bad_time(text, "hour out of range");
  if (*minute > 59) return bad_time(text, "minute out of range");
  if (*second > 59) return bad_time(text, "second out of range");

  int64_t micros = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    size_t n = 0;
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos, ++n)
      if (n < 6) micros = micros * 10 + (text[pos] - '0');
    if (n == 0) return bad_time(text, "expected digits after the decimal point");
    for (; n < 6; ++n) micros *= 10;
  }

  int64_t offset_seconds = 0;
  if (expect_char(text, pos, 'Z')) {
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const int sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    auto oh = digits(text, pos, 2);
    if (!oh || !expect_char(text, pos, ':')) return bad_time(text, "expected a zone offset like +02:00");
    auto om = digits(text, pos, 2);
    if (!om || *oh > 23 || *om > 59) return bad_time(text, "expected a zone offset like +02:00");
    offset_seconds = sign * static_cast<int64_t>(*oh * 3600 + *om * 60);
  } else {
    return bad_time(text, "missing time zone (Z or an offset)");
  }
  if (pos != text.size()) return bad_time(text, "unexpected text after the time zone");

  const int64_t seconds = days_from_civil(*year, *month, *day) * 86400 + *hour * 3600 + *minute * 60 + *second -
                          offset_seconds;
  return Timestamp(std::chrono::microseconds(seconds * 1000000 + micros));
}

std::string format_timestamp(Timestamp t) { return format(t, false); }

std::string format_micro_timestamp(Timestamp t) { return format(t, true); }

Timestamp timestamp_now() {
  return std::chrono::time_point_cast<std::chrono::microseconds>(std::chrono::system_clock::now());
}

}  // namespace troupe
