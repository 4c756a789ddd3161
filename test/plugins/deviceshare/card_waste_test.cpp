// card_waste.hpp and its use in the measure (TaskDistribution's card waste
// weight): the expected leftover of a card, and the pairing-aware card choice.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "plugins/deviceshare/card_waste.hpp"
#include "plugins/deviceshare/fragmentation.hpp"
#include "test/plugins/deviceshare/distribution_support.hpp"

using namespace troupe::plugins::deviceshare;
using troupe::plugins::deviceshare::testing::distribution;

namespace {

GpuTaskClass task(int32_t milli, int32_t count, double weight) { return GpuTaskClass{1000, milli, count, {}, weight}; }

}  // namespace

TEST_CASE("expected card waste", "[deviceshare][fragmentation]") {
  struct Case {
    const char* name;
    std::vector<int32_t> milli, count;
    std::vector<double> weight;
    int32_t free;
    double want;
  };
  const std::vector<Case> cases = {
      {"no class: all of it is waste", {}, {}, {}, 700, 700},
      {"nothing fits", {500}, {1}, {1}, 499, 499},
      {"exact fit", {500}, {1}, {1}, 500, 0},
      {"fills twice", {500}, {1}, {1}, 1000, 0},
      {"leftover after one", {500}, {1}, {1}, 700, 200},
      {"empty card", {500}, {1}, {1}, 0, 0},
      // 810 leaves 190 (nothing fits), 470 leaves 530 -> 470 -> 60: (190 + 60) / 2.
      {"two sizes, equal weight", {810, 470}, {1, 1}, {1, 1}, 1000, 125},
      {"weights pick the draw", {810, 470}, {1, 1}, {3, 1}, 1000, (3 * 190 + 60) / 4.0},
      {"530 pairs with 470", {810, 470}, {1, 1}, {1, 1}, 530, 60},
      {"190 is stranded", {810, 470}, {1, 1}, {1, 1}, 190, 190},
      {"whole single card fills it", {1000}, {1}, {1}, 1000, 0},
      {"multi-card classes ignored", {1000}, {2}, {1}, 1000, 1000},
      {"zero weight ignored", {500, 300}, {1, 1}, {0, 1}, 1000, 100},
      {"CPU-only class ignored", {0, 600}, {0, 1}, {1, 1}, 1000, 400},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const auto waste = expected_card_waste(c.milli, c.count, c.weight, 1000);
    REQUIRE(waste.size() == 1001);
    CHECK(waste[static_cast<size_t>(c.free)] == Approx(c.want));
  }
}

TEST_CASE("card waste weight in the measure", "[deviceshare][fragmentation]") {
  auto tasks = distribution({task(810, 1, 1), task(470, 1, 1), task(1000, 1, 1)});
  const std::vector<uint8_t> access = {1, 1, 1};
  const NodeGpuFree node{8000, {1000, 530, 190}};
  const double fgd = node_fragmentation(node, tasks, access);
  CHECK(tasks.card_waste_weight() == 0);

  REQUIRE(tasks.set_card_waste_weight(0.5));
  CHECK(tasks.card_waste_weight() == 0.5);
  // V(1000) = (190 + 60 + 0) / 3, V(530) = 60, V(190) = 190.
  CHECK(tasks.card_waste(1000) == Approx(250.0 / 3));
  CHECK(tasks.card_waste(2000) == Approx(250.0 / 3));  // clamped to a whole card
  CHECK(tasks.card_waste(-5) == 0);
  CHECK(node_fragmentation(node, tasks, access) == Approx(fgd + 0.5 * (250.0 / 3 + 60 + 190)));
  // Nothing idle: no fragment and no waste.
  CHECK(node_fragmentation(NodeGpuFree{8000, {0, 0}}, tasks, access) == 0);

  REQUIRE(tasks.set_card_waste_weight(0));
  CHECK(node_fragmentation(node, tasks, access) == fgd);

  struct Bad {
    double weight;
    const char* error;
  };
  for (const auto& bad : std::vector<Bad>{
           {-0.1, "task distribution: card waste weight must be a finite number >= 0, got -0.100000"},
           {std::nan(""), "task distribution: card waste weight must be a finite number >= 0, got nan"},
           {std::numeric_limits<double>::infinity(),
            "task distribution: card waste weight must be a finite number >= 0, got inf"}}) {
    INFO(bad.weight);
    CHECK(tasks.set_card_waste_weight(bad.weight).message() == bad.error);
  }
}

TEST_CASE("card waste makes the shared card choice pairing-aware", "[deviceshare][fragmentation]") {
  // 300 milli onto cards [810, 530]. FGD's measure takes the 530 card (230
  // left): both leftovers are useless to 810 and 1000 alike, and 530 was
  // already useless to them. The expected waste sees that 530 is what a 470
  // share fills (60 left) and takes the 810 card instead (510 left, fits 470).
  const std::vector<uint8_t> access = {1, 1, 1};
  const NodeGpuFree node{8000, {810, 530}};
  const GpuRequest request{1000, 300, 1, 0};
  struct Case {
    double weight;
    int32_t card;
    int64_t score;
  };
  for (const auto& c : std::vector<Case>{{0, 1, 53}, {1, 0, 51}}) {
    INFO(c.weight);
    auto tasks = distribution({task(810, 1, 1), task(470, 1, 1), task(1000, 1, 1)});
    REQUIRE(tasks.set_card_waste_weight(c.weight));
    auto placed = best_fragmentation_placement(node, request, tasks, access);
    REQUIRE(placed);
    CHECK(placed->cards == std::vector<int32_t>{c.card});
    CHECK(placed->score == c.score);
  }
}
