// Quantity against resource.ParseQuantity / CanonicalizeBytes: every case below
// was worked out from the apimachinery sources (quantity.go, suffix.go, amount.go).
#include <catch2/catch.hpp>

#include <cstdint>
#include <sstream>
#include <string>

#include "model/quantity.hpp"

namespace {

using troupe::Quantity;
using Format = Quantity::Format;

std::string nano_text(__int128 nano) {
  if (nano == 0) return "0";
  bool negative = nano < 0;
  unsigned __int128 magnitude = negative ? static_cast<unsigned __int128>(-nano) : nano;
  std::string digits;
  for (; magnitude != 0; magnitude /= 10) digits.insert(digits.begin(), static_cast<char>('0' + magnitude % 10));
  return negative ? "-" + digits : digits;
}

Quantity q(const char* text) {
  auto parsed = Quantity::parse(text);
  INFO("parsing " << text << ": " << (parsed ? "" : parsed.message()));
  REQUIRE(parsed.ok());
  return *parsed;
}

struct ParseCase {
  const char* text;
  const char* canonical;
  const char* nano;  // exact value in nano-units, as decimal text
  Format format;
};

const ParseCase kParseCases[] = {
    // Plain numbers, signs, leading zeros, fractions.
    {"0", "0", "0", Format::decimal_si},
    {"1", "1", "1000000000", Format::decimal_si},
    {"-1", "-1", "-1000000000", Format::decimal_si},
    {"+1", "1", "1000000000", Format::decimal_si},
    {"-0", "0", "0", Format::decimal_si},
    {"000001", "1", "1000000000", Format::decimal_si},
    {"1.5", "1500m", "1500000000", Format::decimal_si},
    {"-1.5", "-1500m", "-1500000000", Format::decimal_si},
    {"0.1", "100m", "100000000", Format::decimal_si},
    {"0.5", "500m", "500000000", Format::decimal_si},
    {"-0.5", "-500m", "-500000000", Format::decimal_si},
    {".5", "500m", "500000000", Format::decimal_si},
    {"00.5", "500m", "500000000", Format::decimal_si},
    {"5.", "5", "5000000000", Format::decimal_si},
    {"1.000", "1", "1000000000", Format::decimal_si},
    {"0.100", "100m", "100000000", Format::decimal_si},
    {"3.14159", "3141590u", "3141590000", Format::decimal_si},
    {"1000", "1k", "1000000000000", Format::decimal_si},
    {"1500", "1500", "1500000000000", Format::decimal_si},
    {"2048", "2048", "2048000000000", Format::decimal_si},
    {"123456789", "123456789", "123456789000000000", Format::decimal_si},
    {"123456789000", "123456789k", "123456789000000000000", Format::decimal_si},
    {"4294967296", "4294967296", "4294967296000000000", Format::decimal_si},
    // Every decimal SI suffix.
    {"1n", "1n", "1", Format::decimal_si},
    {"1u", "1u", "1000", Format::decimal_si},
    {"100m", "100m", "100000000", Format::decimal_si},
    {"1000000n", "1m", "1000000", Format::decimal_si},
    {"1500u", "1500u", "1500000", Format::decimal_si},
    {"2.5m", "2500u", "2500000", Format::decimal_si},
    {"0.5m", "500u", "500000", Format::decimal_si},
    {"1k", "1k", "1000000000000", Format::decimal_si},
    {"1M", "1M", "1000000000000000", Format::decimal_si},
    {"1G", "1G", "1000000000000000000", Format::decimal_si},
    {"1T", "1T", "1000000000000000000000", Format::decimal_si},
    {"1P", "1P", "1000000000000000000000000", Format::decimal_si},
    {"1E", "1E", "1000000000000000000000000000", Format::decimal_si},
    {"12E", "12E", "12000000000000000000000000000", Format::decimal_si},
    {"1.G", "1G", "1000000000000000000", Format::decimal_si},
    {"1500k", "1500k", "1500000000000000", Format::decimal_si},
    {"1000k", "1M", "1000000000000000", Format::decimal_si},
    // Every binary SI suffix; canonical form climbs in steps of 1024 when exact.
    {"1Ki", "1Ki", "1024000000000", Format::binary_si},
    {"1Mi", "1Mi", "1048576000000000", Format::binary_si},
    {"1Gi", "1Gi", "1073741824000000000", Format::binary_si},
    {"1Ti", "1Ti", "1099511627776000000000", Format::binary_si},
    {"1Pi", "1Pi", "1125899906842624000000000", Format::binary_si},
    {"1Ei", "1Ei", "1152921504606846976000000000", Format::binary_si},
    {"7Ei", "7Ei", "8070450532247928832000000000", Format::binary_si},
    {"1000Mi", "1000Mi", "1048576000000000000", Format::binary_si},
    {"1024Mi", "1Gi", "1073741824000000000", Format::binary_si},
    {"1048576Ki", "1Gi", "1073741824000000000", Format::binary_si},
    {"1024Ti", "1Pi", "1125899906842624000000000", Format::binary_si},
    {"0.5Gi", "512Mi", "536870912000000000", Format::binary_si},
    {"1.5Gi", "1536Mi", "1610612736000000000", Format::binary_si},
    {"-1.5Gi", "-1536Mi", "-1610612736000000000", Format::binary_si},
    {"1.5Ei", "1536Pi", "1729382256910270464000000000", Format::binary_si},
    {"1.5Ki", "1536", "1536000000000", Format::binary_si},
    // Binary values below 1Ki, or not whole, are written as decimal SI.
    {"0.5Ki", "512", "512000000000", Format::binary_si},
    {"1.1Ki", "1126400m", "1126400000000", Format::binary_si},
    // A binary value between 0 and 1 switches to decimal SI when parsed.
    {"0.0001Ki", "102400u", "102400000", Format::decimal_si},
    {"-0.0001Ki", "-102400u", "-102400000", Format::decimal_si},
    // Binary values beyond 2^63-1 are capped there (ParseQuantity's maxAllowed).
    {"8Ei", "9223372036854775807", "9223372036854775807000000000", Format::binary_si},
    {"-8Ei", "-9223372036854775807", "-9223372036854775807000000000", Format::binary_si},
    {"99999999999999999999999999999999999999999999Ei", "9223372036854775807", "9223372036854775807000000000",
     Format::binary_si},
    // Decimal exponents.
    {"1e3", "1e3", "1000000000000", Format::decimal_exponent},
    {"1E3", "1e3", "1000000000000", Format::decimal_exponent},
    {"1e+3", "1e3", "1000000000000", Format::decimal_exponent},
    {"1e0", "1", "1000000000", Format::decimal_exponent},
    {"12e2", "1200", "1200000000000", Format::decimal_exponent},
    {"15e3", "15e3", "15000000000000", Format::decimal_exponent},
    {"1.5e3", "1500", "1500000000000", Format::decimal_exponent},
    {"5e-3", "5e-3", "5000000", Format::decimal_exponent},
    {"1E-3", "1e-3", "1000000", Format::decimal_exponent},
    {"1e-9", "1e-9", "1", Format::decimal_exponent},
    {"-2e6", "-2e6", "-2000000000000000", Format::decimal_exponent},
    {"1e21", "1e21", "1000000000000000000000000000000", Format::decimal_exponent},
    {"1e29", "100e27", "100000000000000000000000000000000000000", Format::decimal_exponent},
    {"0e100", "0", "0", Format::decimal_exponent},
    // Precision below 1n is rounded up, away from zero.
    {"0.000000001", "1n", "1", Format::decimal_si},
    {"0.0000000001", "1n", "1", Format::decimal_si},
    {"1.0000000001", "1000000001n", "1000000001", Format::decimal_si},
    {"-0.0000000001", "-1n", "-1", Format::decimal_si},
    {"0.001n", "1n", "1", Format::decimal_si},
    {"1.5n", "2n", "2", Format::decimal_si},
    {"1e-10", "1e-9", "1", Format::decimal_exponent},
    {"1e-100", "1e-9", "1", Format::decimal_exponent},
    {"0.0000000000000000000000000000000000000000000000001Ki", "1n", "1", Format::decimal_si},
    // Numbers of up to 19 digits take a fixed-width path, longer ones a textual one: both agree.
    {"1234567890123456789", "1234567890123456789", "1234567890123456789000000000", Format::decimal_si},
    {"12345678901234567890", "12345678901234567890", "12345678901234567890000000000", Format::decimal_si},
    {"1.000000000000000000", "1", "1000000000", Format::decimal_si},
    {"1.0000000000000000000", "1", "1000000000", Format::decimal_si},
    {"0.000000000000000001", "1n", "1", Format::decimal_si},
    {"0.00000000000000000001", "1n", "1", Format::decimal_si},
    {"1.0000000001Ki", "1024000000103n", "1024000000103", Format::binary_si},
    {"1.00000000010000000000Ki", "1024000000103n", "1024000000103", Format::binary_si},
    {"9999999999999999999Ei", "9223372036854775807", "9223372036854775807000000000", Format::binary_si},
    {"99999999999999999999Ki", "9223372036854775807", "9223372036854775807000000000", Format::binary_si},
    {"9007199254740991Ki", "9007199254740991Ki", "9223372036854774784000000000", Format::binary_si},
    {"9007199254740992Ki", "9223372036854775807", "9223372036854775807000000000", Format::binary_si},
    // Decimal SI stops at E; Kubernetes would print a bare "1" for this one.
    {"1000E", "1000E", "1000000000000000000000000000000", Format::decimal_si},
    {"100000000000000000000000000000", "100000000000E", "100000000000000000000000000000000000000",
     Format::decimal_si},
    // ParseQuantity's scanner makes 0 of a number with no digits.
    {"-", "0", "0", Format::decimal_si},
    {".", "0", "0", Format::decimal_si},
    {"Mi", "0", "0", Format::binary_si},
    {"Ti", "0", "0", Format::binary_si},
    {"+.m", "0", "0", Format::decimal_si},
};

TEST_CASE("Quantity parses and canonicalises like the API server", "[quantity]") {
  for (const auto& c : kParseCases) {
    INFO("input " << c.text);
    auto parsed = Quantity::parse(c.text);
    REQUIRE(parsed.ok());
    CHECK(parsed->to_string() == c.canonical);
    CHECK(nano_text(parsed->nano_value()) == c.nano);
    CHECK(parsed->format() == c.format);
    // The canonical text reads back as the same value.
    auto again = Quantity::parse(parsed->to_string());
    REQUIRE(again.ok());
    CHECK(*again == *parsed);
    CHECK(again->to_string() == c.canonical);
  }
}

struct ErrorCase {
  const char* text;
  const char* message;
};

const char kFormatWrong[] =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const char kSuffixWrong[] = "unable to parse quantity's suffix";
const char kNumericWrong[] = "unable to parse numeric part of quantity";
const char kTooLarge[] = "value too large: magnitudes above 1e29 are not supported";

const ErrorCase kErrorCases[] = {
    {"", kFormatWrong},
    {" 1", kFormatWrong},
    {"1 ", kFormatWrong},
    {"abc", kFormatWrong},
    {"1.2.3", kFormatWrong},
    {"1,5", kFormatWrong},
    {"0x10", kFormatWrong},
    {"1e3i", kFormatWrong},
    {"1e3.5", kFormatWrong},
    {"1Kb", kFormatWrong},
    {"1KI", kFormatWrong},
    {"1Gi ", kFormatWrong},
    {"1\n", kFormatWrong},
    {"--1", kSuffixWrong},
    {"1K", kSuffixWrong},
    {"1ki", kSuffixWrong},
    {"1i", kSuffixWrong},
    {"1m3", kSuffixWrong},
    {"1Mi3", kSuffixWrong},
    {"1mm", kSuffixWrong},
    {"1e", kSuffixWrong},
    {"1E", nullptr},  // exa, not an exponent: valid (checked below)
    {"1e+", kSuffixWrong},
    {"1Ee3", kSuffixWrong},
    {"1+", kSuffixWrong},
    {"1e99999999999999999999", kSuffixWrong},
    {"1e99999999999", "exponent 99999999999 is out of range"},
    {"1e-99999999999", "exponent -99999999999 is out of range"},
    {"Ei", kNumericWrong},
    {"Pi", kNumericWrong},
    {"-.Pi", kNumericWrong},
    {"e-10", kNumericWrong},
    {".e-12", kNumericWrong},
    {"1e30", kTooLarge},
    {"-1e30", kTooLarge},
    {"100000000000000000000000000001", kTooLarge},
    {"123456789012345678901234567890", kTooLarge},
    {"1000000000000000000000000000000000000000000000000000", kTooLarge},
    {"100000000001E", kTooLarge},
};

TEST_CASE("Quantity rejects malformed text with the API server's messages", "[quantity]") {
  for (const auto& c : kErrorCases) {
    INFO("input \"" << c.text << "\"");
    auto parsed = Quantity::parse(c.text);
    if (c.message == nullptr) {
      CHECK(parsed.ok());
      continue;
    }
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.message() == std::string("invalid quantity \"") + c.text + "\": " + c.message);
  }
}

TEST_CASE("Quantity value and milli_value round up away from zero", "[quantity]") {
  struct Case {
    const char* text;
    int64_t value;
    int64_t milli;
  };
  const Case cases[] = {
      {"0", 0, 0},
      {"1", 1, 1000},
      {"1.5", 2, 1500},
      {"-1.5", -2, -1500},
      {"100m", 1, 100},
      {"-100m", -1, -100},
      {"1n", 1, 1},
      {"-1n", -1, -1},
      {"1.0000001m", 1, 2},
      {"999m", 1, 999},
      {"1000m", 1, 1000},
      {"1Gi", 1073741824, 1073741824000},
      {"1E", 1000000000000000000, INT64_MAX},
      {"10E", INT64_MAX, INT64_MAX},
      {"-10E", INT64_MIN, INT64_MIN},
      {"8Ei", INT64_MAX, INT64_MAX},
  };
  for (const auto& c : cases) {
    INFO("input " << c.text);
    Quantity quantity = q(c.text);
    CHECK(quantity.value() == c.value);
    CHECK(quantity.milli_value() == c.milli);
  }
}

TEST_CASE("Quantity constructors", "[quantity]") {
  CHECK(Quantity::from_milli(1500).to_string() == "1500m");
  CHECK(Quantity::from_milli(-250).to_string() == "-250m");
  CHECK(Quantity::from_milli(2000).to_string() == "2");
  CHECK(Quantity::from_value(3).to_string() == "3");
  CHECK(Quantity::from_value(2, Format::binary_si).to_string() == "2");
  CHECK(Quantity::from_value(2048, Format::binary_si).to_string() == "2Ki");
  CHECK(Quantity::from_value(5000, Format::decimal_exponent).to_string() == "5e3");
  CHECK(Quantity::from_value(INT64_MAX).value() == INT64_MAX);
  CHECK(Quantity::from_value(INT64_MIN).value() == INT64_MIN);
  CHECK(Quantity::from_nano(7).to_string() == "7n");
  CHECK(Quantity::from_nano(Quantity::kMaxNano + 1).nano_value() == Quantity::kMaxNano);
  CHECK(Quantity::from_nano(-Quantity::kMaxNano - 1).nano_value() == -Quantity::kMaxNano);
  CHECK(Quantity().is_zero());
  CHECK(Quantity().to_string() == "0");
  CHECK(Quantity().format() == Format::decimal_si);
  CHECK(q("-3").sign() == -1);
  CHECK(q("0").sign() == 0);
  CHECK(q("1n").sign() == 1);
  std::ostringstream out;
  out << q("1.5Gi");
  CHECK(out.str() == "1536Mi");
}

TEST_CASE("Quantity arithmetic is exact", "[quantity]") {
  struct Case {
    const char* a;
    char op;
    const char* b;
    const char* result;
  };
  const Case cases[] = {
      {"1", '+', "500m", "1500m"},
      {"1Gi", '+', "1Gi", "2Gi"},
      {"1Gi", '+', "512Mi", "1536Mi"},
      {"0", '+', "1Gi", "1Gi"},  // a zero left side takes the other's format
      {"0", '-', "1Gi", "-1Gi"},
      {"1Gi", '-', "512Mi", "512Mi"},
      {"100m", '-', "200m", "-100m"},
      {"1Ki", '-', "1Ki", "0"},
      {"1", '+', "1n", "1000000001n"},
      {"1G", '+', "1Gi", "2073741824"},
      {"1Gi", '+', "1G", "2073741824"},  // whole but not a multiple of 1024
      {"1k", '+', "1e3", "2k"},
      {"1e3", '+', "1k", "2e3"},
      {"-1", '+', "1", "0"},
      {"4Ei", '+', "4Ei", "8Ei"},  // sums may pass the parse cap
      {"1E", '+', "1E", "2E"},
  };
  for (const auto& c : cases) {
    INFO(c.a << ' ' << c.op << ' ' << c.b);
    Quantity result = c.op == '+' ? q(c.a) + q(c.b) : q(c.a) - q(c.b);
    CHECK(result.to_string() == c.result);
  }

  // A tenth added ten times is exactly one: no floating point drift.
  Quantity sum;
  for (int i = 0; i < 10; ++i) sum += q("0.1");
  CHECK(sum == q("1"));
  CHECK(sum.to_string() == "1");

  CHECK((q("500m") * 3).to_string() == "1500m");
  CHECK((q("1Gi") * 4).to_string() == "4Gi");
  CHECK((q("1Gi") * 0).to_string() == "0");
  CHECK((q("2") * -2).to_string() == "-4");
  CHECK((-q("1Gi")).to_string() == "-1Gi");
  CHECK((-q("-5m")).to_string() == "5m");
}

TEST_CASE("Quantity arithmetic saturates instead of overflowing", "[quantity]") {
  const Quantity max = Quantity::from_nano(Quantity::kMaxNano);
  const Quantity min = Quantity::from_nano(-Quantity::kMaxNano);
  CHECK((max + max).nano_value() == Quantity::kMaxNano);
  CHECK((min + min).nano_value() == -Quantity::kMaxNano);
  CHECK((max - min).nano_value() == Quantity::kMaxNano);
  CHECK((min - max).nano_value() == -Quantity::kMaxNano);
  CHECK((max + q("1")).nano_value() == Quantity::kMaxNano);
  CHECK((max * 3).nano_value() == Quantity::kMaxNano);
  CHECK((max * -3).nano_value() == -Quantity::kMaxNano);
  CHECK((min * -3).nano_value() == Quantity::kMaxNano);
  CHECK((max * INT64_MAX).nano_value() == Quantity::kMaxNano);
  CHECK((max + min).is_zero());
  CHECK(max.to_string() == "100000000000E");
  CHECK(min.to_string() == "-100000000000E");
}

TEST_CASE("Quantity comparisons ignore the format", "[quantity]") {
  struct Case {
    const char* a;
    const char* b;
    int order;  // sign of a - b
  };
  const Case cases[] = {
      {"1000m", "1", 0},     {"1Ki", "1024", 0},   {"1e3", "1k", 0},      {"1.5Gi", "1536Mi", 0},
      {"0", "-0", 0},        {"1Gi", "1G", 1},     {"999m", "1", -1},     {"-1", "0", -1},
      {"1n", "0", 1},        {"1E", "1Ei", -1},    {"-1Gi", "-1G", -1},   {"100m", "0.1", 0},
      {"1e-9", "1n", 0},     {"2", "1999m", 1},    {"1.0000000001", "1", 1},
  };
  for (const auto& c : cases) {
    INFO(c.a << " vs " << c.b);
    Quantity a = q(c.a);
    Quantity b = q(c.b);
    CHECK((a == b) == (c.order == 0));
    CHECK((a != b) == (c.order != 0));
    CHECK((a < b) == (c.order < 0));
    CHECK((a <= b) == (c.order <= 0));
    CHECK((a > b) == (c.order > 0));
    CHECK((a >= b) == (c.order >= 0));
  }
}

}  // namespace
