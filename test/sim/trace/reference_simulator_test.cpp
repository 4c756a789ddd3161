#include <catch2/catch.hpp>

#include "sim/trace/reference_simulator.hpp"
#include "sim/trace/replay_summary.hpp"

using namespace troupe::sim::trace;

namespace {

ReplayEvent event(int64_t arrived, int64_t allocated, double frag = 0, int64_t idle = 1) {
  return ReplayEvent{arrived, allocated, frag, idle, true};
}

SimNode node(int64_t cpu_free, std::vector<int32_t> cards, std::string model = "T4") {
  SimNode n;
  n.cpu_capacity = 128000;
  n.cpu_free = cpu_free;
  n.memory_free_mib = 1 << 20;
  n.card_free = std::move(cards);
  n.model = std::move(model);
  return n;
}

TracePod pod(int64_t cpu, int32_t num, int32_t milli, std::vector<std::string> spec = {}) {
  return TracePod{"p", cpu, 1024, num, milli, std::move(spec)};
}

}  // namespace

TEST_CASE("replay curves: binning, fallback to neighbours, rounding", "[trace][metrics]") {
  // Capacity 10000 milli: 100 milli = 1 percent.
  const std::vector<ReplayEvent> events = {
      event(0, 0),         // k = 0, 0%
      event(50, 20),       // 0.5% arrived ties to even: k = 0, 0.2%
      event(150, 100),     // 1.5% -> k = 2
      event(250, 200),     // 2.5% -> k = 2
      event(500, 333),     // k = 5
      event(500, 335),     // k = 5
      event(13000, 9000),  // k = 130
  };
  auto curves = replay_curves(events, 10000);
  REQUIRE(curves.allocation.size() == 131);
  CHECK(*curves.allocation[0] == Approx(0.1));    // mean(0, 0.2)
  CHECK(*curves.allocation[1] == Approx(0.8));    // empty: bins 0..2, mean(0, 0.2, 1, 2)
  CHECK(*curves.allocation[2] == Approx(1.5));    // mean(1, 2)
  CHECK(*curves.allocation[3] == Approx(1.5));    // empty: bins 2..4
  CHECK(*curves.allocation[4] == Approx(3.34));   // empty: bins 3..5
  CHECK(*curves.allocation[5] == Approx(3.34));   // mean(3.33, 3.35)
  CHECK(*curves.allocation[6] == Approx(3.34));   // empty: bins 5..7
  CHECK_FALSE(curves.allocation[7].has_value());  // nothing in 6..8
  CHECK(*curves.allocation[129] == Approx(90));
  CHECK(*curves.allocation[130] == Approx(90));
}

TEST_CASE("replay curves: fragmentation", "[trace][metrics]") {
  const std::vector<ReplayEvent> events = {event(0, 0, 1000, 10000), event(0, 0, 3000, 5000)};
  auto curves = replay_curves(events, 10000);
  CHECK(*curves.fragmentation_ratio[0] == Approx((10.0 + 60.0) / 2));
  CHECK(*curves.fragmentation_amount[0] == Approx(20.0));  // mean 2000 of 10000
}

TEST_CASE("replay filter", "[trace][policy]") {
  struct Case {
    const char* what;
    SimNode n;
    TracePod p;
    bool fits;
  };
  SimNode full_pods = node(8000, {1000});
  full_pods.pods = 1001;
  SimNode low_memory = node(8000, {1000});
  low_memory.memory_free_mib = 10;
  const std::vector<Case> cases = {
      {"cpu-only fits", node(8000, {0, 0}), pod(8000, 0, 0), true},
      {"cpu short", node(7999, {1000}), pod(8000, 0, 0), false},
      {"memory short", low_memory, pod(1, 0, 0), false},
      {"pod slots", full_pods, pod(1, 0, 0), false},
      {"shared fits one card", node(8000, {300, 800}), pod(1, 1, 800), true},
      {"shared no card", node(8000, {300, 799}), pod(1, 1, 800), false},
      {"two whole cards", node(8000, {1000, 500, 1000}), pod(1, 2, 1000), true},
      {"two whole cards short", node(8000, {1000, 999, 500}), pod(1, 2, 1000), false},
      {"model allowed", node(8000, {1000}, "T4"), pod(1, 1, 500, {"V100M16", "T4"}), true},
      {"model refused", node(8000, {1000}, "T4"), pod(1, 1, 500, {"V100M16"}), false},
      {"no cards", node(8000, {}), pod(1, 1, 500), false},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(fits(c.n, c.p, 1001) == c.fits);
  }
}

TEST_CASE("replay policy scores: the method's worked example", "[trace][policy]") {
  // fgd-method.md §9.1: N1 8 cards [6 x 1000, 500, 200], 40000m free; N2 2 x 1000, 20000m; pod 4000m 1x500.
  SimNode n1 = node(40000, {1000, 1000, 1000, 1000, 1000, 1000, 500, 200}, "V100M32");
  SimNode n2 = node(20000, {1000, 1000});
  const TracePod p = pod(4000, 1, 500);
  CHECK(best_fit_score(n1, p) == 47);
  CHECK(best_fit_score(n2, p) == 84);
  CHECK(packing_score(n1, p) == 95);
  CHECK(packing_score(n2, p) == 31);
  // Packing's other cases: CPU-only 0; an 8-free node max(33-8, 8) = 25; a
  // fresh card on a used node max(50-1, 33) = 49.
  CHECK(packing_score(n1, pod(1, 0, 0)) == 0);
  CHECK(packing_score(node(1, std::vector<int32_t>(8, 1000)), p) == 25);
  CHECK(packing_score(node(1, {1000, 300}), pod(1, 1, 500)) == 49);
  // Allocation scores: cpu (128000 - 40000 + 4000) / 128000 = 71, gpu (8000 - 6700 + 500) / 8000 = 22.
  CHECK(most_allocated_score(n1, p) == (71 + 22) / 2);
  CHECK(least_allocated_score(n1, p) == (28 + 77) / 2);
  // Card choice: tightest (card 6), emptiest (card 0); whole cards lowest index.
  CHECK(pick_cards(n1, p, true) == std::vector<int32_t>{6});
  CHECK(pick_cards(n1, p, false) == std::vector<int32_t>{0});
  CHECK(pick_cards(node(1, {500, 1000, 1000}), pod(1, 2, 1000), true) == std::vector<int32_t>{1, 2});
  CHECK(pick_cards(n1, pod(1, 0, 0), true).empty());
}

TEST_CASE("replay policy names", "[trace][policy]") {
  for (auto p : all_policies()) CHECK(*parse_policy(policy_name(p)) == p);
  CHECK(*parse_policy("spreading") == ReplayPolicy::least_allocated);
  auto bad = parse_policy("magic");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.message(), Catch::Contains("unknown policy 'magic'") && Catch::Contains("best-fit"));
}

TEST_CASE("reference replay on a tiny cluster", "[trace][replay]") {
  // Two nodes of two cards (4000 milli). The trace: half-card pods and one whole card.
  const std::vector<TraceNode> nodes = {{"a", 16000, 65536, 2, "T4"}, {"b", 16000, 65536, 2, "T4"}};
  std::vector<TracePod> trace;
  for (int i = 0; i < 6; ++i) trace.push_back({"half-" + std::to_string(i), 1000, 1024, 1, 500, {}});
  trace.push_back({"whole", 1000, 1024, 1, 1000, {}});
  for (auto policy : all_policies()) {
    INFO(policy_name(policy));
    auto r = run_reference_replay(nodes, trace, ReplayOptions{policy, 42});
    REQUIRE(r.ok());
    CHECK(r->cluster_gpu_milli == 4000);
    // Arrivals grow by each pod's request; allocations never exceed capacity
    // nor the arrived amount, and only grow.
    int64_t previous_arrived = 0, previous_allocated = 0;
    size_t failed = 0;
    for (const auto& e : r->events) {
      CHECK(e.arrived_gpu_milli > previous_arrived);
      CHECK(e.allocated_gpu_milli >= previous_allocated);
      CHECK(e.allocated_gpu_milli <= std::min<int64_t>(e.arrived_gpu_milli, 4000));
      CHECK(e.idle_gpu_milli == 4000 - e.allocated_gpu_milli);
      CHECK(e.fragmentation_milli <= e.idle_gpu_milli + 1e-9);
      failed += e.placed ? 0 : 1;
      previous_arrived = e.arrived_gpu_milli;
      previous_allocated = e.allocated_gpu_milli;
    }
    CHECK(failed == r->failed);
    // 130% of 4000 arrives; half-card pods alone can fill every card, so
    // every policy but one that strands halves reaches full allocation.
    CHECK(r->events.back().arrived_gpu_milli >= 4000);
    REQUIRE(r->allocation_at(100).has_value());
  }
  // FGD never strands a half card here: the cluster ends fully allocated.
  auto fgd = run_reference_replay(nodes, trace, ReplayOptions{ReplayPolicy::fgd, 42});
  CHECK(fgd->events.back().allocated_gpu_milli == 4000);
}

TEST_CASE("reference replay: deterministic per seed; errors", "[trace][replay]") {
  const std::vector<TraceNode> nodes = {{"a", 16000, 65536, 4, "T4"}, {"b", 16000, 65536, 2, "P100"}};
  std::vector<TracePod> trace;
  for (int i = 0; i < 20; ++i)
    trace.push_back({"p" + std::to_string(i), 1000 + 100 * i, 1024, 1, 100 * (1 + i % 10), i % 3 ? std::vector<std::string>{} : std::vector<std::string>{"T4"}});
  for (auto policy : all_policies()) {
    INFO(policy_name(policy));
    auto a = run_reference_replay(nodes, trace, ReplayOptions{policy, 7});
    auto b = run_reference_replay(nodes, trace, ReplayOptions{policy, 7});
    REQUIRE(a.ok());
    REQUIRE(a->events.size() == b->events.size());
    for (size_t i = 0; i < a->events.size(); ++i) CHECK(a->events[i].allocated_gpu_milli == b->events[i].allocated_gpu_milli);
  }
  auto cpu_node = run_reference_replay({{"c", 1000, 1000, 0, ""}}, trace, {});
  REQUIRE_FALSE(cpu_node.ok());
  CHECK_THAT(cpu_node.message(), Catch::Contains("node c has no GPU"));
  CHECK_FALSE(run_reference_replay(nodes, {}, {}).ok());
  ReplayOptions no_slots;
  no_slots.max_pods_per_node = 0;
  CHECK_FALSE(run_reference_replay(nodes, trace, no_slots).ok());
}

TEST_CASE("reference replay of the default trace ranks FGD above BestFit above Random", "[trace][replay][data]") {
  const std::string dir = std::string(TROUPE_SOURCE_DIR) + "/../shared/data/openb-gpu-2023/";
  auto nodes = load_trace_nodes(dir + "openb_node_list_gpu_node.csv");
  auto pods = load_trace_pods(dir + "openb_pod_list_default.csv");
  if (!nodes.ok() || !pods.ok()) {
    WARN("trace data not found");
    return;
  }
  auto at100 = [&](ReplayPolicy policy) {
    auto r = run_reference_replay(*nodes, *pods, ReplayOptions{policy, 42});
    REQUIRE(r.ok());
    return r->allocation_at(100).value_or(0);
  };
  const double fgd = at100(ReplayPolicy::fgd), best_fit = at100(ReplayPolicy::best_fit),
               random = at100(ReplayPolicy::random);
  // Published seed ranges at 100% (fgd-method.md §10): FGD 95.06-95.38,
  // BestFit 92.64-93.04, Random 85.87-86.79; our stream differs, so allow a
  // point around them and check the order.
  CHECK(fgd == Approx(95.2).margin(1.0));
  CHECK(best_fit == Approx(92.85).margin(1.0));
  CHECK(random == Approx(86.3).margin(1.0));
  CHECK(fgd > best_fit);
  CHECK(best_fit > random);
  // troupe's Fragmentation policy: 95.64 on this seed (95.45 before the
  // expected card waste, card_waste.hpp; docs/benchmarks.md §3).
  const double fragmentation = at100(ReplayPolicy::fragmentation);
  CHECK(fragmentation == Approx(95.64).margin(0.05));
  CHECK(fragmentation > fgd);
  // The same strategy learning its distribution from the arrivals (task_learner.hpp): 95.59.
  const double learned = at100(ReplayPolicy::fragmentation_learned);
  CHECK(learned == Approx(95.59).margin(0.05));
  CHECK(learned > fgd);
}

TEST_CASE("replay summary: medians over seeds", "[trace][replay]") {
  struct Case {
    std::vector<double> values;
    std::optional<double> expected;
  };
  const std::vector<Case> cases = {
      {{}, std::nullopt},       {{3}, 3.0},          {{2, 1}, 1.5},
      {{5, 1, 3}, 3.0},         {{4, 1, 3, 2}, 2.5}, {{1, 1, 1, 9}, 1.0},
  };
  for (const auto& c : cases) CHECK(median(c.values) == c.expected);
  CHECK(published_seeds() == std::vector<uint64_t>{42, 43, 44, 45, 46, 47, 48, 49, 50, 51});

  // Small pods (at most 2% of the 4000 milli each) so that every arrived
  // percent up to 130 has an event within one point: two seeds, their medians.
  const std::vector<TraceNode> nodes = {{"a", 640000, 655360, 4, "T4"}};
  std::vector<TracePod> trace;
  for (int i = 0; i < 8; ++i) trace.push_back({"p" + std::to_string(i), 1000, 1024, 1, 10 + 10 * i, {}});
  auto summary = summarize_reference_replays(nodes, trace, ReplayPolicy::best_fit, {1, 2});
  INFO((summary.ok() ? "" : summary.message()));
  REQUIRE(summary.ok());
  REQUIRE(summary->allocation_at_100.size() == 2);
  CHECK(summary->median_at_100 == Approx((summary->allocation_at_100[0] + summary->allocation_at_100[1]) / 2));
  CHECK(summary->median_at_130 >= summary->median_at_100);
  CHECK_FALSE(summarize_reference_replays(nodes, trace, ReplayPolicy::fgd, {}).ok());
  // Arrivals of a CPU-only trace never reach 100% of GPU capacity.
  auto cpu_only = summarize_reference_replays(nodes, {{"c", 1, 1, 0, 0, {}}}, ReplayPolicy::fgd, {1});
  REQUIRE_FALSE(cpu_only.ok());
  CHECK_THAT(cpu_only.message(), Catch::Contains("seed 1: the arrivals never reached 100%"));
}
