// node_fragmentation and best_fragmentation_placement against the
// straightforward forms they were rewritten from (every class scans every
// card; a shared request measures the node once per candidate card), to the
// last bit: scores are truncated, so a last-bit difference could move a
// placement, and the reference simulator and the published replay figures
// rest on these exact values.
#include <catch2/catch.hpp>

#include <random>

#include "plugins/deviceshare/fragmentation.hpp"

using namespace troupe::plugins::deviceshare;

namespace {

// fgd-method.md §6 as first written: one scan of the cards per class.
double straightforward_fragmentation(const NodeGpuFree& node, const TaskDistribution& tasks,
                                     const std::vector<uint8_t>& access) {
  const int64_t idle = node.idle_gpu_milli();
  if (idle == 0) return 0.0;
  const double idle_d = static_cast<double>(idle);
  double bucket[7] = {0, 0, 0, 0, 0, 0, 0};
  const auto& classes = tasks.classes();
  for (size_t m = 0; m < classes.size(); ++m) {
    const GpuTaskClass& task = classes[m];
    const double p = task.weight;
    const bool cpu_ok = node.cpu_free_milli >= task.cpu_milli && node.memory_free_mib >= task.memory_mib;
    if (task.cpu_only()) {
      bucket[static_cast<int>(cpu_ok ? FragCategory::x_satisfied : FragCategory::x_lack_cpu)] += p * idle_d;
      continue;
    }
    if (!access[m]) {
      bucket[static_cast<int>(FragCategory::no_access)] += p * idle_d;
      continue;
    }
    int32_t usable_cards = 0;
    int64_t unusable_milli = 0;
    for (int32_t f : node.card_free_milli) {
      if (f >= task.gpu_milli)
        ++usable_cards;
      else
        unusable_milli += f;
    }
    if (usable_cards >= task.gpu_count) {
      if (cpu_ok) {
        bucket[static_cast<int>(FragCategory::q2_lack_gpu)] += p * static_cast<double>(unusable_milli);
        bucket[static_cast<int>(FragCategory::q3_satisfied)] += p * static_cast<double>(idle - unusable_milli);
      } else {
        bucket[static_cast<int>(FragCategory::q4_lack_cpu)] += p * idle_d;
      }
    } else {
      bucket[static_cast<int>(cpu_ok ? FragCategory::q2_lack_gpu : FragCategory::q1_lack_both)] += p * idle_d;
    }
  }
  const double fgd = ((((bucket[0] + bucket[1]) + bucket[3]) + bucket[4]) + bucket[5]) + bucket[6];
  if (tasks.card_waste_weight() == 0) return fgd;
  double waste = 0;
  for (int32_t f : node.card_free_milli) waste += tasks.card_waste(f);
  return fgd + tasks.card_waste_weight() * waste;
}

// A shared request: every card that fits is measured, the first best wins.
std::optional<FragPlacement> straightforward_shared(const NodeGpuFree& node, const GpuRequest& request,
                                                    const TaskDistribution& tasks,
                                                    const std::vector<uint8_t>& access) {
  const double before = straightforward_fragmentation(node, tasks, access);
  std::optional<FragPlacement> best;
  for (size_t i = 0; i < node.card_free_milli.size(); ++i) {
    if (node.card_free_milli[i] < request.gpu_milli) continue;
    NodeGpuFree after = node;
    after.cpu_free_milli -= request.cpu_milli;
    after.memory_free_mib -= request.memory_mib;
    after.card_free_milli[i] -= request.gpu_milli;
    const double frag = straightforward_fragmentation(after, tasks, access);
    const int64_t score = fragmentation_score(before, frag);
    if (!best || score > best->score) best = FragPlacement{score, {static_cast<int32_t>(i)}, before, frag};
  }
  return best;
}

class RandomShapes {
 public:
  explicit RandomShapes(uint32_t seed) : rng_(seed) {}

  TaskDistribution distribution() {
    const int classes = between(1, 40);
    std::vector<GpuTaskClass> out;
    for (int i = 0; i < classes; ++i) {
      GpuTaskClass c;
      c.cpu_milli = between(0, 8) * 2000;
      c.memory_mib = chance(0.5) ? between(0, 8) * 8192 : 0;
      c.weight = between(1, 1000) / 7.0;
      switch (between(0, 3)) {
        case 0: break;  // CPU-only
        case 1: c.gpu_milli = share(), c.gpu_count = 1; break;
        case 2: c.gpu_milli = 1000, c.gpu_count = between(1, 8); break;
        default: c.gpu_milli = share(), c.gpu_count = between(2, 4); break;
      }
      if (c.gpu_milli > 0 && chance(0.3)) c.gpu_models = {chance(0.5) ? "T4" : "V100"};
      out.push_back(c);
    }
    auto tasks = TaskDistribution::make(out);
    REQUIRE(tasks);
    if (chance(0.5)) REQUIRE(tasks->set_card_waste_weight(0.3));
    return *tasks;
  }

  NodeGpuFree node() {
    NodeGpuFree n;
    n.cpu_free_milli = between(0, 10) * 2000;
    if (chance(0.5)) n.memory_free_mib = between(0, 10) * 8192;
    const int cards = chance(0.1) ? between(9, 20) : between(0, 8);
    for (int i = 0; i < cards; ++i) n.card_free_milli.push_back(chance(0.6) ? share_or_edge() : between(0, 1000));
    return n;
  }

  GpuRequest shared_request() { return GpuRequest{between(0, 4) * 2000, share(), 1, between(0, 2) * 8192}; }

  std::string model() { return chance(0.5) ? "T4" : "V100"; }

 private:
  int between(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  // The openb traces' common shares, so that cards often have equal free milli.
  int32_t share() {
    static const int32_t shares[] = {100, 250, 300, 470, 500, 810};
    return shares[between(0, 5)];
  }
  int32_t share_or_edge() {
    static const int32_t frees[] = {0, 190, 500, 530, 700, 1000, 1000, 1000};
    return frees[between(0, 7)];
  }

  std::mt19937 rng_;
};

}  // namespace

TEST_CASE("node fragmentation equals the per-class card scan to the last bit", "[deviceshare][fragmentation]") {
  RandomShapes random(20261206);
  for (int round = 0; round < 300; ++round) {
    const TaskDistribution tasks = random.distribution();
    const auto access = tasks.access_for_model(random.model());
    for (int n = 0; n < 10; ++n) {
      const NodeGpuFree node = random.node();
      INFO("round " << round << ", node " << n << ", " << node.card_free_milli.size() << " cards");
      CHECK(node_fragmentation(node, tasks, access) == straightforward_fragmentation(node, tasks, access));
    }
  }
}

TEST_CASE("shared placement equals measuring every candidate card, to the last bit", "[deviceshare][fragmentation]") {
  RandomShapes random(61202026);
  int placed = 0;
  for (int round = 0; round < 300; ++round) {
    const TaskDistribution tasks = random.distribution();
    const auto access = tasks.access_for_model(random.model());
    for (int n = 0; n < 10; ++n) {
      const NodeGpuFree node = random.node();
      const GpuRequest request = random.shared_request();
      INFO("round " << round << ", node " << n << ", request " << request.gpu_milli);
      const auto got = best_fragmentation_placement(node, request, tasks, access);
      const auto want = straightforward_shared(node, request, tasks, access);
      REQUIRE(got.has_value() == want.has_value());
      if (!got) continue;
      ++placed;
      CHECK(got->score == want->score);
      CHECK(got->cards == want->cards);
      CHECK(got->before == want->before);
      CHECK(got->after == want->after);
    }
  }
  CHECK(placed > 1000);  // most random nodes have a card the share fits
}
