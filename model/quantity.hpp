#pragma once
// Quantity: a Kubernetes resource quantity ("500m", "4Gi", "1e3") with the API
// server's exact semantics, held as a 128-bit count of nano-units so that
// arithmetic never drifts (no floating point anywhere).

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

#include "model/result.hpp"

namespace troupe {

class Quantity {
 public:
  /// How the quantity is written back out; kept from the parsed suffix, as the
  /// API server does ("1Gi" stays binary, "1G" decimal, "1e9" exponent).
  enum class Format { decimal_si, binary_si, decimal_exponent };

  /// Largest magnitude held, in nano-units (10^38 nano = 10^29 units). Kubernetes
  /// keeps arbitrary precision beyond int64; 10^29 units is far above any real
  /// resource, and a bound lets the 128-bit arithmetic never overflow. Parsing a
  /// larger decimal value is an error; arithmetic saturates at this bound.
  static constexpr __int128 kMaxNano = static_cast<__int128>(10'000'000'000'000'000'000ULL) *
                                       static_cast<__int128>(10'000'000'000'000'000'000ULL);

  Quantity() = default;

  /// Parses the Kubernetes quantity grammar: sign, digits, optional fraction,
  /// then one suffix (n u m "" k M G T P E, Ki Mi Gi Ti Pi Ei, or e/E exponent).
  /// Errors name the input and the problem ("quantities must match the regular
  /// expression ..." as the API server says).
  ///
  /// Like resource.ParseQuantity: precision below 1n is rounded up (away from
  /// zero), binary-SI values beyond 2^63-1 are capped there, and a binary-SI
  /// value between 0 and 1 switches to decimal SI. Like ParseQuantity, no
  /// whitespace is trimmed (JSON decoding trims before calling this), and the
  /// scanner's quirks are kept: "-", "." and a bare suffix such as "Mi" are 0.
  static Result<Quantity> parse(std::string_view text);

  static Quantity from_milli(int64_t milli, Format format = Format::decimal_si);
  static Quantity from_value(int64_t value, Format format = Format::decimal_si);
  /// Clamped to +-kMaxNano.
  static Quantity from_nano(__int128 nano, Format format = Format::decimal_si);

  /// Whole units, rounded up (as resource.Quantity.Value()); saturates at the
  /// int64 limits where Kubernetes would overflow.
  int64_t value() const;
  /// Milli-units, rounded up (as resource.Quantity.MilliValue()); saturates.
  int64_t milli_value() const;
  __int128 nano_value() const { return nano_; }
  Format format() const { return format_; }
  bool is_zero() const { return nano_ == 0; }
  /// -1, 0 or 1.
  int sign() const { return (nano_ > 0) - (nano_ < 0); }

  /// Canonical text as the API server writes it ("1500m" -> "1500m",
  /// "1.5" -> "1500m", "1024Mi" -> "1Gi", "1000" -> "1k").
  std::string to_string() const;

  /// Adding to or subtracting from a zero quantity takes the other's format, as
  /// resource.Quantity.Add/Sub do. Results saturate at +-kMaxNano.
  Quantity& operator+=(const Quantity& other);
  Quantity& operator-=(const Quantity& other);
  /// Multiplies by an integer, keeping the format (resource.Quantity.Mul);
  /// saturates at +-kMaxNano.
  Quantity& operator*=(int64_t factor);
  Quantity operator-() const { return from_nano(-nano_, format_); }
  friend Quantity operator+(Quantity a, const Quantity& b) { return a += b; }
  friend Quantity operator-(Quantity a, const Quantity& b) { return a -= b; }
  friend Quantity operator*(Quantity a, int64_t factor) { return a *= factor; }
  friend bool operator==(const Quantity& a, const Quantity& b) { return a.nano_ == b.nano_; }
  friend bool operator!=(const Quantity& a, const Quantity& b) { return a.nano_ != b.nano_; }
  friend bool operator<(const Quantity& a, const Quantity& b) { return a.nano_ < b.nano_; }
  friend bool operator<=(const Quantity& a, const Quantity& b) { return a.nano_ <= b.nano_; }
  friend bool operator>(const Quantity& a, const Quantity& b) { return a.nano_ > b.nano_; }
  friend bool operator>=(const Quantity& a, const Quantity& b) { return a.nano_ >= b.nano_; }

 private:
  // 8-byte alignment instead of __int128's 16 makes a Quantity 24 bytes, not
  // 32: a ResourceList entry (an interned name and a Quantity) is then 32
  // bytes instead of 48. x86-64 loads and stores an 8-aligned __int128 at full speed.
  typedef __int128 Nano __attribute__((aligned(8)));
  Nano nano_ = 0;
  Format format_ = Format::decimal_si;
};
static_assert(sizeof(Quantity) == 24, "Quantity is kept at 24 bytes (see Quantity::Nano)");

/// Writes to_string(), so test failures and logs show the quantity.
std::ostream& operator<<(std::ostream& out, const Quantity& quantity);

}  // namespace troupe
