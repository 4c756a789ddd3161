#include <catch2/catch.hpp>

#include "plugins/elastic_quota/runtime_quota.hpp"

using namespace troupe::plugins::elastic_quota;

TEST_CASE("a parent's resource is shared by min, request and shared weight", "[elastic_quota]") {
  struct Case {
    const char* name;
    int64_t total;
    std::vector<QuotaShare> shares;  // runtime unset
    std::vector<int64_t> runtimes;
  };
  auto share = [](const char* name, int64_t request, int64_t min, int64_t weight, bool lend = true) {
    QuotaShare s;
    s.name = name;
    s.request = request;
    s.min = min;
    s.shared_weight = weight;
    s.allow_lent_resource = lend;
    return s;
  };
  const std::vector<Case> cases = {
      {"both get what they ask", 100, {share("a", 50, 20, 1), share("b", 50, 20, 1)}, {50, 50}},
      {"the rest by weight", 100, {share("a", 100, 10, 1), share("b", 100, 10, 3)}, {30, 70}},
      {"what one does not need goes to the other", 100, {share("a", 20, 0, 1), share("b", 200, 0, 1)}, {20, 80}},
      {"a quota asking less than its min lends the rest", 100, {share("a", 5, 40, 1), share("b", 100, 10, 1)}, {5, 95}},
      {"a quota that may not lend keeps its min", 100,
       {share("a", 5, 40, 1, false), share("b", 100, 10, 1)}, {40, 60}},
      {"the rounding residual goes to the largest remainders, ties by name", 10,
       {share("c", 100, 0, 1), share("a", 100, 0, 1), share("b", 100, 0, 1)}, {3, 4, 3}},
      {"mins beyond the total are kept (scaling is the book's)", 10,
       {share("a", 50, 20, 1), share("b", 50, 20, 1)}, {20, 20}},
      {"a zero weight gets nothing beyond its min", 100, {share("a", 50, 0, 0), share("b", 50, 0, 1)}, {0, 50}},
      {"nothing to share", 0, {share("a", 50, 0, 1)}, {0}},
      {"no share asks for anything", 100, {share("a", 0, 0, 1), share("b", 0, 10, 1)}, {0, 0}},
      {"weights at the int64 limit do not overflow their sum", 100,
       {share("a", 100, 0, INT64_MAX), share("b", 100, 0, INT64_MAX)}, {50, 50}},
      {"memory-sized amounts do not overflow", 4'000'000'000'000'000'000,
       {share("a", 9'000'000'000'000'000'000, 0, 3'000'000'000'000'000'000),
        share("b", 9'000'000'000'000'000'000, 0, 1'000'000'000'000'000'000)},
       {3'000'000'000'000'000'000, 1'000'000'000'000'000'000}},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      auto shares = c.shares;
      redistribute(c.total, shares);
      std::vector<int64_t> got;
      for (const auto& s : shares) got.push_back(s.runtime);
      CHECK(got == c.runtimes);
    }
  }
}

TEST_CASE("children's mins beyond their parent's total are scaled down to it", "[elastic_quota]") {
  struct Case {
    int64_t total;
    std::vector<int64_t> mins;
    std::vector<int64_t> scaled;
  };
  const std::vector<Case> cases = {
      {100, {30, 30}, {30, 30}},   // they fit
      {100, {60, 40}, {60, 40}},   // exactly
      {100, {100, 100}, {50, 50}}, // twice the total
      {90, {100, 50}, {60, 30}},   // in proportion
      {10, {1, 1, 10}, {0, 0, 8}}, // floored
      {0, {10}, {0}},
      {-5, {10}, {0}},
  };
  for (const auto& c : cases) CHECK(scaled_mins(c.total, c.mins) == c.scaled);
}
