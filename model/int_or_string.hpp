#pragma once
// intstr.IntOrString: a field that holds either a number or a string, in
// practice an absolute count or a percentage ("25%"), as in
// PodDisruptionBudget.spec.minAvailable or a rolling-update maxUnavailable.

#include <cstdint>
#include <string>

#include "model/result.hpp"

namespace troupe {

struct IntOrString {
  bool is_string = false;
  int32_t int_value = 0;
  std::string string_value;

  static IntOrString from_int(int32_t value) { return {false, value, {}}; }
  static IntOrString from_string(std::string value) { return {true, 0, std::move(value)}; }
  /// "5" or "25%": the value as it is written.
  std::string to_string() const { return is_string ? string_value : std::to_string(int_value); }

  friend bool operator==(const IntOrString& a, const IntOrString& b) {
    return a.is_string == b.is_string && (a.is_string ? a.string_value == b.string_value : a.int_value == b.int_value);
  }
  friend bool operator!=(const IntOrString& a, const IntOrString& b) { return !(a == b); }
};

/// intstr.GetScaledValueFromIntOrPercent: an integer as is, "N%" as N% of
/// `total` rounded up or down. A string that is not a percentage is an error
/// (`invalid value for IntOrString: invalid type: string is not a percentage`).
Result<int64_t> scaled_value(const IntOrString& value, int64_t total, bool round_up);

}  // namespace troupe
