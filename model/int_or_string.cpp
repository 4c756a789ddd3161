#include "model/int_or_string.hpp"

#include <charconv>

namespace troupe {

Result<int64_t> scaled_value(const IntOrString& value, int64_t total, bool round_up) {
  if (!value.is_string) return static_cast<int64_t>(value.int_value);
  const std::string& text = value.string_value;
  if (text.empty() || text.back() != '%') {
    return Error{"invalid value for IntOrString: invalid type: string is not a percentage"};
  }
  int64_t percent = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size() - 1;
  if (first != last && *first == '+') ++first;  // strconv.Atoi accepts a leading '+'
  auto [end, ec] = std::from_chars(first, last, percent);
  if (ec != std::errc() || end != last || first == last || percent > INT32_MAX || percent < INT32_MIN) {
    return Error{"invalid value for IntOrString: invalid value \"" + text + "\""};
  }
  // Integer arithmetic gives exactly what Go's float64 Ceil/Floor give for
  // the magnitudes Kubernetes uses (counts of pods), without rounding noise.
  const __int128 product = static_cast<__int128>(percent) * total;
  __int128 quotient = product / 100;
  const __int128 remainder = product % 100;
  if (remainder != 0) {
    if (round_up && product > 0) quotient += 1;
    if (!round_up && product < 0) quotient -= 1;
  }
  return static_cast<int64_t>(quotient);
}

}  // namespace troupe
