#include "watch/time_format.hpp"

#include <cstdio>
#include <ctime>

namespace troupe::watch {

namespace {

// Splits into whole seconds (rounded towards the past, also before 1970) and microseconds.
void split(std::chrono::system_clock::time_point t, std::tm& tm, long& micros) {
  using namespace std::chrono;
  const auto since_epoch = duration_cast<microseconds>(t.time_since_epoch());
  auto secs = duration_cast<seconds>(since_epoch);
  if (secs > since_epoch) secs -= seconds(1);
  micros = static_cast<long>((since_epoch - secs).count());
  const std::time_t tt = static_cast<std::time_t>(secs.count());
  gmtime_r(&tt, &tm);
}

}  // namespace

std::string format_time(std::chrono::system_clock::time_point t) {
  std::tm tm{};
  long micros = 0;
  split(t, tm, micros);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

std::string format_micro_time(std::chrono::system_clock::time_point t) {
  std::tm tm{};
  long micros = 0;
  split(t, tm, micros);
  char buf[80];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, micros);
  return buf;
}

}  // namespace troupe::watch
