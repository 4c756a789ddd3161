#pragma once
// Shared checks for the typed views' decode/encode tests.

#include <catch2/catch.hpp>

#include <string>

#include "model/json.hpp"
#include "model/result.hpp"

namespace troupe::test {

/// Decoding must succeed; returns the view.
template <class T>
T must(Result<T> decoded, const std::string& input) {
  INFO(input);
  if (!decoded) FAIL(decoded.message());
  return std::move(*decoded);
}

/// encode(view) must reproduce the input exactly (modulo whitespace).
template <class T>
void check_round_trip(const T& view, const std::string& input) {
  auto parsed = parse_json(input);
  REQUIRE(parsed.ok());
  CHECK(encode(view) == to_json(**parsed));
}

/// The decode error equals `expected`, or starts with it when it ends in "...".
template <class T>
void check_error(const Result<T>& decoded, const std::string& input, const std::string& expected) {
  INFO(input);
  REQUIRE_FALSE(decoded.ok());
  if (expected.size() > 3 && expected.compare(expected.size() - 3, 3, "...") == 0) {
    CHECK_THAT(decoded.message(), Catch::StartsWith(expected.substr(0, expected.size() - 3)));
  } else {
    CHECK(decoded.message() == expected);
  }
}

}  // namespace troupe::test
