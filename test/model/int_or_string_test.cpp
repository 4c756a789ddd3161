#include <catch2/catch.hpp>

#include "model/int_or_string.hpp"

using namespace troupe;

TEST_CASE("scaled_value follows GetScaledValueFromIntOrPercent", "[int_or_string]") {
  struct Case {
    IntOrString value;
    int64_t total;
    bool round_up;
    int64_t expected;
  };
  const Case cases[] = {
      {IntOrString::from_int(3), 10, true, 3},
      {IntOrString::from_int(3), 10, false, 3},
      {IntOrString::from_string("50%"), 10, true, 5},
      {IntOrString::from_string("25%"), 10, true, 3},
      {IntOrString::from_string("25%"), 10, false, 2},
      {IntOrString::from_string("0%"), 10, true, 0},
      {IntOrString::from_string("100%"), 7, false, 7},
      {IntOrString::from_string("150%"), 4, false, 6},
      {IntOrString::from_string("33%"), 1, true, 1},
      {IntOrString::from_string("33%"), 1, false, 0},
      {IntOrString::from_string("+10%"), 20, false, 2},
  };
  for (const auto& c : cases) {
    INFO(c.value.to_string() << " of " << c.total << (c.round_up ? " up" : " down"));
    auto scaled = scaled_value(c.value, c.total, c.round_up);
    REQUIRE(scaled.ok());
    CHECK(*scaled == c.expected);
  }
}

TEST_CASE("scaled_value rejects strings that are not percentages", "[int_or_string]") {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"5", "invalid value for IntOrString: invalid type: string is not a percentage"},
      {"", "invalid value for IntOrString: invalid type: string is not a percentage"},
      {"%", "invalid value for IntOrString: invalid value \"%\""},
      {"a%", "invalid value for IntOrString: invalid value \"a%\""},
      {"1.5%", "invalid value for IntOrString: invalid value \"1.5%\""},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto scaled = scaled_value(IntOrString::from_string(c.text), 10, true);
    REQUIRE_FALSE(scaled.ok());
    CHECK(scaled.message() == c.message);
  }
}
