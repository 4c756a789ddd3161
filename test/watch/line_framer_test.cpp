// LineFramer: a recorded watch stream framed identically however it is split.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_data.hpp"
#include "watch/line_framer.hpp"

using troupe::watch::LineFramer;

namespace {

std::vector<std::string> frame_in_pieces(const std::string& stream, const std::vector<std::size_t>& cuts) {
  LineFramer framer;
  std::vector<std::string> lines;
  std::size_t from = 0;
  auto take = [&](std::string_view line) {
    lines.emplace_back(line);
    return true;
  };
  for (const std::size_t cut : cuts) {
    REQUIRE(framer.feed(std::string_view(stream).substr(from, cut - from), take) == LineFramer::FeedResult::ok);
    from = cut;
  }
  REQUIRE(framer.feed(std::string_view(stream).substr(from), take) == LineFramer::FeedResult::ok);
  return lines;
}

std::vector<std::string> split_lines(const std::string& stream) {
  std::vector<std::string> lines;
  std::size_t from = 0;
  for (std::size_t nl = stream.find('\n'); nl != std::string::npos; nl = stream.find('\n', from)) {
    lines.push_back(stream.substr(from, nl - from));
    from = nl + 1;
  }
  return lines;
}

}  // namespace

TEST_CASE("line framer: a recorded watch stream split at every byte offset", "[line_framer]") {
  const std::string stream = troupe::test::read_data_file("pod_watch_stream.jsonl");
  const std::vector<std::string> expected = split_lines(stream);
  REQUIRE(expected.size() == 7);
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    INFO("split at offset " << cut);
    REQUIRE(frame_in_pieces(stream, {cut}) == expected);
  }
}

TEST_CASE("line framer: split at every pair of offsets inside the first two events", "[line_framer]") {
  const std::string stream = troupe::test::read_data_file("pod_watch_stream.jsonl");
  const std::vector<std::string> expected = split_lines(stream);
  const std::size_t span = expected[0].size() + expected[1].size() + 2;
  for (std::size_t a = 0; a <= span; a += 7) {
    for (std::size_t b = a; b <= span; b += 5) {
      INFO("split at " << a << " and " << b);
      REQUIRE(frame_in_pieces(stream, {a, b}) == expected);
    }
  }
}

TEST_CASE("line framer: one byte at a time", "[line_framer]") {
  const std::string stream = troupe::test::read_data_file("pod_watch_stream.jsonl");
  std::vector<std::size_t> cuts;
  for (std::size_t i = 1; i < stream.size(); ++i) cuts.push_back(i);
  CHECK(frame_in_pieces(stream, cuts) == split_lines(stream));
}

TEST_CASE("line framer: edge cases", "[line_framer]") {
  struct Case {
    const char* name;
    std::vector<std::string> pieces;
    std::vector<std::string> lines;
    std::size_t pending;
  };
  const std::vector<Case> cases = {
      {"empty input", {""}, {}, 0},
      {"no newline yet", {"{\"type\""}, {}, 7},
      {"CRLF endings are trimmed", {"a\r\nb\r\n"}, {"a", "b"}, 0},
      {"CR split from LF", {"a\r", "\nb\n"}, {"a", "b"}, 0},
      {"empty lines are delivered", {"\n\nx\n"}, {"", "", "x"}, 0},
      {"trailing partial line kept", {"x\ny"}, {"x"}, 1},
      {"partial completed later", {"ab", "c", "d\ne"}, {"abcd"}, 1},
      {"lone CR inside a line stays", {"a\rb\n"}, {"a\rb"}, 0},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    LineFramer framer;
    std::vector<std::string> lines;
    for (const auto& piece : c.pieces) {
      REQUIRE(framer.feed(piece, [&](std::string_view l) {
        lines.emplace_back(l);
        return true;
      }) == LineFramer::FeedResult::ok);
    }
    CHECK(lines == c.lines);
    CHECK(framer.pending_bytes() == c.pending);
  }
}

TEST_CASE("line framer: the handler can stop framing", "[line_framer]") {
  LineFramer framer;
  std::vector<std::string> lines;
  const auto result = framer.feed("one\ntwo\nthree\n", [&](std::string_view l) {
    lines.emplace_back(l);
    return l != "two";
  });
  CHECK(result == LineFramer::FeedResult::stopped);
  CHECK(lines == std::vector<std::string>{"one", "two"});
}

TEST_CASE("line framer: a line longer than the limit overflows instead of growing", "[line_framer]") {
  auto ignore = [](std::string_view) { return true; };
  SECTION("accumulated across feeds") {
    LineFramer framer(8);
    CHECK(framer.feed("12345", ignore) == LineFramer::FeedResult::ok);
    CHECK(framer.feed("6789", ignore) == LineFramer::FeedResult::overflow);
    CHECK(framer.pending_bytes() == 0);
    CHECK(framer.feed("x\n", ignore) == LineFramer::FeedResult::overflow);  // sticky until reset
    framer.reset();
    std::string got;
    CHECK(framer.feed("ok\n", [&](std::string_view l) {
      got = std::string(l);
      return true;
    }) == LineFramer::FeedResult::ok);
    CHECK(got == "ok");
  }
  SECTION("complete in one feed") {
    LineFramer framer(4);
    CHECK(framer.feed("1234\n", ignore) == LineFramer::FeedResult::ok);
    CHECK(framer.feed("12345\n", ignore) == LineFramer::FeedResult::overflow);
  }
}
