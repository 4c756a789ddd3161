#include "sim/human_duration.hpp"

namespace troupe::sim {

namespace {

/// `whole` followed by `unit`, then `part` and `sub_unit` unless `part` is 0: "3m20s", "3m".
std::string two_units(int64_t whole, const char* unit, int64_t part, const char* sub_unit) {
  std::string out = std::to_string(whole) + unit;
  if (part != 0) out += std::to_string(part) + sub_unit;
  return out;
}

}  // namespace

std::string human_duration(std::chrono::microseconds age) {
  const int64_t seconds = std::chrono::duration_cast<std::chrono::seconds>(age).count();
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return std::to_string(seconds) + "s";
  const int64_t minutes = seconds / 60;
  if (minutes < 10) return two_units(minutes, "m", seconds % 60, "s");
  if (minutes < 60 * 3) return std::to_string(minutes) + "m";
  const int64_t hours = minutes / 60;
  if (hours < 8) return two_units(hours, "h", minutes % 60, "m");
  if (hours < 48) return std::to_string(hours) + "h";
  const int64_t days = hours / 24;
  if (hours < 24 * 8) return two_units(days, "d", hours % 24, "h");
  if (hours < 24 * 365 * 2) return std::to_string(days) + "d";
  if (hours < 24 * 365 * 8) return two_units(days / 365, "y", days % 365, "d");
  return std::to_string(days / 365) + "y";
}

std::string human_age(std::optional<Timestamp> t, Timestamp now) {
  if (!t) return "<unknown>";
  return human_duration(now - *t);
}

}  // namespace troupe::sim
