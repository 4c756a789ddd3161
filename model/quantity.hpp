#pragma once
// Quantity: a Kubernetes resource quantity ("500m", "4Gi", "1e3") with the API
// server's exact semantics, held as a 128-bit count of nano-units so that
// arithmetic never drifts (no floating point anywhere).

#include <cstdint>
#include <string>
#include <string_view>

#include "model/result.hpp"

namespace troupe {

class Quantity {
 public:
  /// How the quantity is written back out; kept from the parsed suffix, as the
  /// API server does ("1Gi" stays binary, "1G" decimal, "1e9" exponent).
  enum class Format { decimal_si, binary_si, decimal_exponent };

  Quantity() = default;

  /// Parses the Kubernetes quantity grammar: sign, digits, optional fraction,
  /// then one suffix (n u m "" k M G T P E, Ki Mi Gi Ti Pi Ei, or e/E exponent).
  /// Errors name the input and the problem ("quantities must match the regular
  /// expression ..." as the API server says).
  static Result<Quantity> parse(std::string_view text);

  static Quantity from_milli(int64_t milli, Format format = Format::decimal_si);
  static Quantity from_value(int64_t value, Format format = Format::decimal_si);
  static Quantity from_nano(__int128 nano, Format format = Format::decimal_si);

  /// Whole units, rounded up (as resource.Quantity.Value()).
  int64_t value() const;
  /// Milli-units, rounded up (as resource.Quantity.MilliValue()).
  int64_t milli_value() const;
  __int128 nano_value() const { return nano_; }
  Format format() const { return format_; }
  bool is_zero() const { return nano_ == 0; }

  /// Canonical text as the API server writes it ("1500m" -> "1500m",
  /// "1.5" -> "1500m", "1024Mi" -> "1Gi", "1000" -> "1k").
  std::string to_string() const;

  Quantity& operator+=(const Quantity& other);
  Quantity& operator-=(const Quantity& other);
  friend Quantity operator+(Quantity a, const Quantity& b) { return a += b; }
  friend Quantity operator-(Quantity a, const Quantity& b) { return a -= b; }
  friend bool operator==(const Quantity& a, const Quantity& b) { return a.nano_ == b.nano_; }
  friend bool operator!=(const Quantity& a, const Quantity& b) { return a.nano_ != b.nano_; }
  friend bool operator<(const Quantity& a, const Quantity& b) { return a.nano_ < b.nano_; }
  friend bool operator<=(const Quantity& a, const Quantity& b) { return a.nano_ <= b.nano_; }
  friend bool operator>(const Quantity& a, const Quantity& b) { return a.nano_ > b.nano_; }
  friend bool operator>=(const Quantity& a, const Quantity& b) { return a.nano_ >= b.nano_; }

 private:
  __int128 nano_ = 0;
  Format format_ = Format::decimal_si;
};

}  // namespace troupe
