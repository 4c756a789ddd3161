#include "model/go_duration.hpp"

#include <cstdint>
#include <optional>

namespace troupe {

namespace {

constexpr uint64_t kMaxMagnitude = uint64_t{1} << 63;

std::optional<uint64_t> unit_nanos(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1000;  // "µs" (micro sign, Greek mu)
  if (unit == "ms") return 1000000;
  if (unit == "s") return 1000000000;
  if (unit == "m") return uint64_t{60} * 1000000000;
  if (unit == "h") return uint64_t{3600} * 1000000000;
  return std::nullopt;
}

Error invalid(std::string_view text) { return Error{"time: invalid duration \"" + std::string(text) + "\""}; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Writes the fraction of v / 10^prec with trailing zeros removed (and no
// point when the fraction is zero), like Go's fmtFrac; returns v / 10^prec.
uint64_t append_fraction(std::string& out, uint64_t v, int prec) {
  std::string digits;
  bool significant = false;
  for (int i = 0; i < prec; ++i) {
    uint64_t digit = v % 10;
    significant = significant || digit != 0;
    if (significant) digits.insert(digits.begin(), static_cast<char>('0' + digit));
    v /= 10;
  }
  if (significant) out = "." + digits + out;
  return v;
}

}  // namespace

Result<std::chrono::nanoseconds> parse_go_duration(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) return invalid(text);

  uint64_t total = 0;
  while (!s.empty()) {
    uint64_t whole = 0;
    bool any_digits = false;
    bool overflow = false;
    while (!s.empty() && is_digit(s[0])) {
      any_digits = true;
      if (whole > kMaxMagnitude / 10) overflow = true;
      whole = whole * 10 + static_cast<uint64_t>(s[0] - '0');
      if (whole > kMaxMagnitude) overflow = true;
      s.remove_prefix(1);
    }
    if (overflow) return invalid(text);
    uint64_t fraction = 0;
    double scale = 1;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      bool fraction_overflow = false;
      while (!s.empty() && is_digit(s[0])) {
        any_digits = true;
        // Like Go, digits past int64 precision are dropped, not an error.
        if (!fraction_overflow) {
          const uint64_t next = fraction * 10 + static_cast<uint64_t>(s[0] - '0');
          if (fraction > (kMaxMagnitude - 1) / 10 || next > kMaxMagnitude) {
            fraction_overflow = true;
          } else {
            fraction = next;
            scale *= 10;
          }
        }
        s.remove_prefix(1);
      }
    }
    if (!any_digits) return invalid(text);
    size_t unit_length = 0;
    while (unit_length < s.size() && s[unit_length] != '.' && !is_digit(s[unit_length])) ++unit_length;
    if (unit_length == 0) return Error{"time: missing unit in duration \"" + std::string(text) + "\""};
    std::string_view unit_text = s.substr(0, unit_length);
    s.remove_prefix(unit_length);
    auto unit = unit_nanos(unit_text);
    if (!unit) {
      return Error{"time: unknown unit \"" + std::string(unit_text) + "\" in duration \"" + std::string(text) + "\""};
    }
    if (whole > kMaxMagnitude / *unit) return invalid(text);
    uint64_t value = whole * *unit;
    if (fraction > 0) {
      // Go computes the fractional part in floating point; do the same so
      // that odd inputs give identical results.
      value += static_cast<uint64_t>(static_cast<double>(fraction) * (static_cast<double>(*unit) / scale));
      if (value > kMaxMagnitude) return invalid(text);
    }
    total += value;
    if (total > kMaxMagnitude) return invalid(text);
  }
  if (!negative && total > kMaxMagnitude - 1) return invalid(text);
  const int64_t signed_total =
      negative ? static_cast<int64_t>(-static_cast<__int128>(total)) : static_cast<int64_t>(total);
  return std::chrono::nanoseconds(signed_total);
}

std::string format_go_duration(std::chrono::nanoseconds d) {
  const int64_t count = d.count();
  if (count == 0) return "0s";
  const bool negative = count < 0;
  uint64_t u = negative ? static_cast<uint64_t>(-(static_cast<__int128>(count))) : static_cast<uint64_t>(count);
  std::string out;
  if (u < 1000000000) {
    // Below one second Go switches to the largest unit with a non-zero leading digit.
    if (u < 1000) {
      out = std::to_string(u) + "ns";
    } else if (u < 1000000) {
      out = "\xC2\xB5s";
      u = append_fraction(out, u, 3);
      out = std::to_string(u) + out;
    } else {
      out = "ms";
      u = append_fraction(out, u, 6);
      out = std::to_string(u) + out;
    }
  } else {
    out = "s";
    u = append_fraction(out, u, 9);
    out = std::to_string(u % 60) + out;
    u /= 60;
    if (u > 0) {
      out = std::to_string(u % 60) + "m" + out;
      u /= 60;
      if (u > 0) out = std::to_string(u) + "h" + out;
    }
  }
  return negative ? "-" + out : out;
}

}  // namespace troupe
