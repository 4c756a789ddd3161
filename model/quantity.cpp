#include "model/quantity.hpp"

#include <array>
#include <cstdint>
#include <iterator>
#include <ostream>
#include <string>
#include <string_view>

namespace troupe {
namespace {

using u128 = unsigned __int128;

constexpr int64_t kNanoPerUnit = 1'000'000'000;
constexpr int64_t kNanoPerMilli = 1'000'000;
constexpr u128 kMaxMagnitude = static_cast<u128>(Quantity::kMaxNano);
// ParseQuantity caps binary-SI values at maxAllowed = 2^63-1 units.
constexpr u128 kBinaryCap = static_cast<u128>(INT64_MAX) * kNanoPerUnit;
// A u128 holds every 38-digit number and some 39-digit ones.
constexpr int64_t kMaxDigits = 39;

constexpr std::string_view kFormatWrong =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr std::string_view kSuffixWrong = "unable to parse quantity's suffix";
constexpr std::string_view kNumericWrong = "unable to parse numeric part of quantity";

Error parse_error(std::string_view text, std::string_view problem) {
  std::string message = "invalid quantity \"";
  message.append(text).append("\": ").append(problem);
  return Error{std::move(message)};
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_suffix_letter(char c) { return std::string_view("eEinumkKMGTP").find(c) != std::string_view::npos; }

// A quantity's text split the way resource.parseQuantityString scans it.
struct QuantityText {
  bool negative = false;
  bool has_digits = false;     // any digit before the suffix, leading zeros included
  std::string_view integer;    // leading zeros removed
  std::string_view fraction;
  std::string_view suffix;
};

// False when the text is not a number followed by a suffix-shaped tail.
bool split_quantity_text(std::string_view text, QuantityText& out) {
  size_t pos = 0;
  const size_t end = text.size();
  auto skip_digits = [&] {
    size_t start = pos;
    while (pos < end && is_digit(text[pos])) ++pos;
    return text.substr(start, pos - start);
  };
  if (pos < end && (text[pos] == '-' || text[pos] == '+')) out.negative = text[pos++] == '-';
  size_t zeros_start = pos;
  while (pos < end && text[pos] == '0') ++pos;
  out.has_digits = pos > zeros_start;
  out.integer = skip_digits();
  if (pos < end && text[pos] == '.') {
    ++pos;
    out.fraction = skip_digits();
  }
  out.has_digits = out.has_digits || !out.integer.empty() || !out.fraction.empty();
  size_t suffix_start = pos;
  while (pos < end && is_suffix_letter(text[pos])) ++pos;
  if (pos < end && (text[pos] == '-' || text[pos] == '+')) ++pos;
  skip_digits();
  out.suffix = text.substr(suffix_start);
  return pos == end;
}

// What a suffix means: value = number * base^exponent.
struct SuffixMeaning {
  int base = 10;
  int64_t exponent = 0;
  Quantity::Format format = Quantity::Format::decimal_si;
};

struct NamedSuffix {
  std::string_view text;
  SuffixMeaning meaning;
};

constexpr NamedSuffix kNamedSuffixes[] = {
    {"", {10, 0, Quantity::Format::decimal_si}},   {"n", {10, -9, Quantity::Format::decimal_si}},
    {"u", {10, -6, Quantity::Format::decimal_si}}, {"m", {10, -3, Quantity::Format::decimal_si}},
    {"k", {10, 3, Quantity::Format::decimal_si}},  {"M", {10, 6, Quantity::Format::decimal_si}},
    {"G", {10, 9, Quantity::Format::decimal_si}},  {"T", {10, 12, Quantity::Format::decimal_si}},
    {"P", {10, 15, Quantity::Format::decimal_si}}, {"E", {10, 18, Quantity::Format::decimal_si}},
    {"Ki", {2, 10, Quantity::Format::binary_si}},  {"Mi", {2, 20, Quantity::Format::binary_si}},
    {"Gi", {2, 30, Quantity::Format::binary_si}},  {"Ti", {2, 40, Quantity::Format::binary_si}},
    {"Pi", {2, 50, Quantity::Format::binary_si}},  {"Ei", {2, 60, Quantity::Format::binary_si}},
};

// strconv.ParseInt(text, 10, 64): an optional sign and at least one digit.
bool parse_int64(std::string_view text, int64_t& out) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return false;
  u128 magnitude = 0;
  for (char c : text) {
    if (!is_digit(c)) return false;
    magnitude = magnitude * 10 + static_cast<u128>(c - '0');
    if (magnitude > static_cast<u128>(INT64_MAX) + 1) return false;
  }
  if (!negative && magnitude > static_cast<u128>(INT64_MAX)) return false;
  out = negative ? static_cast<int64_t>(-static_cast<__int128>(magnitude)) : static_cast<int64_t>(magnitude);
  return true;
}

Result<SuffixMeaning> interpret_suffix(std::string_view suffix) {
  for (const auto& named : kNamedSuffixes)
    if (named.text == suffix) return named.meaning;
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    int64_t exponent = 0;
    if (!parse_int64(suffix.substr(1), exponent)) return Error{std::string(kSuffixWrong)};
    // Kubernetes silently truncates the exponent to int32; refuse instead.
    if (exponent < INT32_MIN || exponent > INT32_MAX)
      return Error{"exponent " + std::to_string(exponent) + " is out of range"};
    return SuffixMeaning{10, exponent, Quantity::Format::decimal_exponent};
  }
  return Error{std::string(kSuffixWrong)};
}

// ParseQuantity sends a digit-less number ("Ei", "-.e-12") down its arbitrary-
// precision path, which then fails to read a number; its fast path makes 0 of
// the rest ("Mi", "-", "."). That path is taken for binary suffixes of Pi and
// above and for decimal exponents below -9.
bool digitless_is_numeric_error(const SuffixMeaning& meaning) {
  return meaning.base == 2 ? meaning.exponent >= 50 : meaning.exponent < -9;
}

// digits * 2^exponent, as a decimal digit string. exponent <= 60, so one digit
// times the factor plus the carry (always below the factor) fits in 128 bits.
std::string multiply_by_power_of_two(std::string_view digits, int64_t exponent) {
  const u128 factor = static_cast<u128>(1) << exponent;
  std::string reversed;
  reversed.reserve(digits.size() + 20);
  u128 carry = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    u128 product = static_cast<u128>(*it - '0') * factor + carry;
    reversed.push_back(static_cast<char>('0' + static_cast<int>(product % 10)));
    carry = product / 10;
  }
  for (; carry != 0; carry /= 10) reversed.push_back(static_cast<char>('0' + static_cast<int>(carry % 10)));
  return std::string(reversed.rbegin(), reversed.rend());
}

struct NanoAmount {
  u128 nano = 0;
  bool too_large = false;
};

constexpr NanoAmount kTooLarge{0, true};

bool accumulate_digits(std::string_view digits, u128& out) {
  out = 0;
  for (char c : digits)
    if (__builtin_mul_overflow(out, static_cast<u128>(10), &out) ||
        __builtin_add_overflow(out, static_cast<u128>(c - '0'), &out))
      return false;
  return true;
}

// ceil(digits * 10^power): the value in nano-units, rounded up as ParseQuantity
// rounds precision below 1n. Works on the text, so any number of digits and any
// exponent are handled without big-number arithmetic.
NanoAmount round_up_scaled(std::string_view digits, int64_t power) {
  size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return {};
  digits.remove_prefix(first);
  size_t last = digits.find_last_not_of('0');
  power += static_cast<int64_t>(digits.size() - 1 - last);
  digits = digits.substr(0, last + 1);
  const int64_t length = static_cast<int64_t>(digits.size());
  u128 nano = 0;
  if (power >= 0) {
    if (length + power > kMaxDigits || !accumulate_digits(digits, nano)) return kTooLarge;
    for (int64_t i = 0; i < power; ++i)
      if (__builtin_mul_overflow(nano, static_cast<u128>(10), &nano)) return kTooLarge;
  } else {
    // The last kept digit is non-zero, so any digit cut off means rounding up.
    int64_t kept = length + power;
    if (kept <= 0) return {1, false};
    if (kept > kMaxDigits || !accumulate_digits(digits.substr(0, static_cast<size_t>(kept)), nano))
      return kTooLarge;
    nano += 1;
  }
  if (nano > kMaxMagnitude) return kTooLarge;
  return {nano, false};
}

// 10^0 .. 10^38.
constexpr std::array<u128, 39> kPowersOfTen = [] {
  std::array<u128, 39> powers{};
  powers[0] = 1;
  for (size_t i = 1; i < powers.size(); ++i) powers[i] = powers[i - 1] * 10;
  return powers;
}();

// A digit count that always fits a uint64.
constexpr size_t kFastDigits = 19;

NanoAmount checked(u128 nano) { return nano > kMaxMagnitude ? kTooLarge : NanoAmount{nano, false}; }

// ceil(value / 10^places) for places >= 0.
u128 divide_by_power_of_ten_rounding_up(u128 value, int64_t places) {
  if (places >= static_cast<int64_t>(kPowersOfTen.size())) return value == 0 ? 0 : 1;
  const u128 divisor = kPowersOfTen[static_cast<size_t>(places)];
  return value / divisor + (value % divisor != 0 ? 1 : 0);
}

// The common case, numbers of at most 19 digits, in fixed-width arithmetic.
NanoAmount to_nano_fast(uint64_t digits, int64_t fraction_digits, const SuffixMeaning& meaning) {
  if (digits == 0) return {};
  if (meaning.base == 2) {
    // digits * 2^exponent * 10^(9 - fraction_digits); the shift is at most 60.
    u128 scaled = digits;
    if (fraction_digits <= 9) {
      scaled *= kPowersOfTen[static_cast<size_t>(9 - fraction_digits)];  // below 10^28
      if (scaled > (~static_cast<u128>(0) >> meaning.exponent)) return kTooLarge;
      return checked(scaled << meaning.exponent);
    }
    return checked(divide_by_power_of_ten_rounding_up(scaled << meaning.exponent, fraction_digits - 9));
  }
  const int64_t power = 9 - fraction_digits + meaning.exponent;
  if (power < 0) return checked(divide_by_power_of_ten_rounding_up(digits, -power));
  u128 nano = 0;
  if (power >= static_cast<int64_t>(kPowersOfTen.size()) ||
      __builtin_mul_overflow(static_cast<u128>(digits), kPowersOfTen[static_cast<size_t>(power)], &nano))
    return kTooLarge;
  return checked(nano);
}

// The number's value in nano-units, rounded up; any length of digits.
NanoAmount to_nano(const QuantityText& parts, const SuffixMeaning& meaning) {
  const auto fraction_digits = static_cast<int64_t>(parts.fraction.size());
  if (parts.integer.size() + parts.fraction.size() <= kFastDigits) {
    uint64_t digits = 0;
    for (char c : parts.integer) digits = digits * 10 + static_cast<uint64_t>(c - '0');
    for (char c : parts.fraction) digits = digits * 10 + static_cast<uint64_t>(c - '0');
    return to_nano_fast(digits, fraction_digits, meaning);
  }
  std::string digits;
  digits.reserve(parts.integer.size() + parts.fraction.size());
  digits.append(parts.integer).append(parts.fraction);
  int64_t power = 9 - fraction_digits;
  if (meaning.base == 10) {
    power += meaning.exponent;
  } else {
    digits = multiply_by_power_of_two(digits, meaning.exponent);
  }
  return round_up_scaled(digits, power);
}

__int128 clamp_nano(__int128 nano) {
  if (nano > Quantity::kMaxNano) return Quantity::kMaxNano;
  if (nano < -Quantity::kMaxNano) return -Quantity::kMaxNano;
  return nano;
}

int64_t clamp_to_int64(__int128 value) {
  if (value > INT64_MAX) return INT64_MAX;
  if (value < INT64_MIN) return INT64_MIN;
  return static_cast<int64_t>(value);
}

// nano / divisor, rounded away from zero (int64Amount.AsScaledInt64).
int64_t divide_away_from_zero(__int128 nano, int64_t divisor) {
  if (nano >= INT64_MIN && nano <= INT64_MAX) {  // 64-bit division is far cheaper
    const auto narrow = static_cast<int64_t>(nano);
    return narrow / divisor + (narrow % divisor == 0 ? 0 : (narrow > 0 ? 1 : -1));
  }
  __int128 quotient = nano / divisor;
  if (nano % divisor != 0) quotient += nano > 0 ? 1 : -1;
  return clamp_to_int64(quotient);
}

// The formatting helpers are templates so that the common magnitudes, which fit
// 64 bits, avoid the slow 128-bit division routines.
template <class Unsigned>
void append_decimal(std::string& out, Unsigned value) {
  char buffer[40];
  int length = 0;
  do {
    buffer[length++] = static_cast<char>('0' + static_cast<int>(value % 10));
    value /= 10;
  } while (value != 0);
  while (length > 0) out.push_back(buffer[--length]);
}

// Binary SI: the largest power of 1024 (up to Ei) that keeps an integer mantissa.
template <class Unsigned>
void append_binary_si(std::string& out, Unsigned magnitude) {
  static constexpr std::string_view kSuffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  Unsigned units = magnitude / kNanoPerUnit;
  size_t power = 0;
  while (power + 1 < std::size(kSuffixes) && units % 1024 == 0) {
    units /= 1024;
    ++power;
  }
  append_decimal(out, units);
  out.append(kSuffixes[power]);
}

// Decimal: the largest exponent of 1000 that keeps an integer mantissa. Decimal
// SI stops at E (10^18): Kubernetes would print a bare mantissa with no suffix
// beyond it, which reads back as a different value.
template <class Unsigned>
void append_decimal_si_or_exponent(std::string& out, Unsigned magnitude, bool exponent_form) {
  static constexpr std::string_view kSiSuffixes[] = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
  int exponent = -9;
  while (magnitude % 1000 == 0 && (exponent_form || exponent < 18)) {
    magnitude /= 1000;
    exponent += 3;
  }
  append_decimal(out, magnitude);
  if (!exponent_form) {
    out.append(kSiSuffixes[(exponent + 9) / 3]);
  } else if (exponent != 0) {
    out.push_back('e');
    out.append(std::to_string(exponent));
  }
}

template <class Unsigned>
void append_canonical(std::string& out, Unsigned magnitude, Quantity::Format format) {
  // CanonicalizeBytes: binary SI only for whole values of at least 1Ki;
  // anything else would round, so it is written as decimal SI.
  if (format == Quantity::Format::binary_si &&
      (magnitude < static_cast<Unsigned>(1024) * kNanoPerUnit || magnitude % kNanoPerUnit != 0))
    format = Quantity::Format::decimal_si;
  if (format == Quantity::Format::binary_si) {
    append_binary_si(out, magnitude);
  } else {
    append_decimal_si_or_exponent(out, magnitude, format == Quantity::Format::decimal_exponent);
  }
}

}  // namespace

Result<Quantity> Quantity::parse(std::string_view text) {
  QuantityText parts;
  if (text.empty() || !split_quantity_text(text, parts)) return parse_error(text, kFormatWrong);
  auto meaning = interpret_suffix(parts.suffix);
  if (!meaning) return parse_error(text, meaning.message());
  if (!parts.has_digits && digitless_is_numeric_error(*meaning)) return parse_error(text, kNumericWrong);

  NanoAmount amount = to_nano(parts, *meaning);

  Format format = meaning->format;
  if (format == Format::binary_si) {
    if (amount.too_large || amount.nano > kBinaryCap) amount.nano = kBinaryCap;
    // ParseQuantity: "This avoids rounding and hopefully confusion, too."
    if (amount.nano > 0 && amount.nano < static_cast<u128>(kNanoPerUnit)) format = Format::decimal_si;
  } else if (amount.too_large) {
    return parse_error(text, "value too large: magnitudes above 1e29 are not supported");
  }
  __int128 nano = static_cast<__int128>(amount.nano);
  return from_nano(parts.negative ? -nano : nano, format);
}

Quantity Quantity::from_milli(int64_t milli, Format format) {
  return from_nano(static_cast<__int128>(milli) * kNanoPerMilli, format);
}

Quantity Quantity::from_value(int64_t value, Format format) {
  return from_nano(static_cast<__int128>(value) * kNanoPerUnit, format);
}

Quantity Quantity::from_nano(__int128 nano, Format format) {
  Quantity q;
  q.nano_ = clamp_nano(nano);
  q.format_ = format;
  return q;
}

int64_t Quantity::value() const { return divide_away_from_zero(nano_, kNanoPerUnit); }

int64_t Quantity::milli_value() const { return divide_away_from_zero(nano_, kNanoPerMilli); }

std::string Quantity::to_string() const {
  if (nano_ == 0) return "0";
  const u128 magnitude = nano_ < 0 ? static_cast<u128>(-nano_) : static_cast<u128>(nano_);
  std::string out;
  if (nano_ < 0) out.push_back('-');
  if (magnitude <= UINT64_MAX) {
    append_canonical(out, static_cast<uint64_t>(magnitude), format_);
  } else {
    append_canonical(out, magnitude, format_);
  }
  return out;
}

Quantity& Quantity::operator+=(const Quantity& other) {
  if (nano_ == 0) format_ = other.format_;
  __int128 sum = 0;
  // Both operands are within +-kMaxNano, but their sum may not fit 128 bits.
  if (__builtin_add_overflow(nano_, other.nano_, &sum)) sum = other.nano_ > 0 ? kMaxNano : -kMaxNano;
  nano_ = clamp_nano(sum);
  return *this;
}

Quantity& Quantity::operator-=(const Quantity& other) {
  if (nano_ == 0) format_ = other.format_;
  __int128 difference = 0;
  if (__builtin_sub_overflow(nano_, other.nano_, &difference))
    difference = other.nano_ < 0 ? kMaxNano : -kMaxNano;
  nano_ = clamp_nano(difference);
  return *this;
}

Quantity& Quantity::operator*=(int64_t factor) {
  __int128 product = 0;
  if (__builtin_mul_overflow(nano_, static_cast<__int128>(factor), &product))
    product = (nano_ > 0) == (factor > 0) ? kMaxNano : -kMaxNano;
  nano_ = clamp_nano(product);
  return *this;
}

std::ostream& operator<<(std::ostream& out, const Quantity& quantity) { return out << quantity.to_string(); }

}  // namespace troupe
