// The migration view hands LowNodeLoad each NodeMetric's pod usage summed
// once on arrival (pod_usage_totals); a plan must not change because of it.
#include <random>

#include "test/plugins/descheduler/helpers.hpp"

#include "model/pod_requests.hpp"
#include "plugins/descheduler/low_node_load.hpp"

namespace troupe::plugins::descheduler {
namespace {

using testing::at;
using testing::make_metric;
using testing::make_node;
using testing::TestPod;

std::string milli(int64_t m) { return std::to_string(m) + "m"; }

/// Nodes of 8 cpu with pods whose usage (some with sub-milli fractions, so
/// rounding per pod matters) and requests (often too big for a target's
/// room, so nodeFit matters) are drawn from `seed`.
LowNodeLoadInput random_cluster(uint64_t seed, size_t nodes) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pods_per_node(0, 8), level(0, 2);
  std::uniform_int_distribution<int64_t> usage_milli(50, 2500), nano(0, 999), request_milli(100, 3000);
  LowNodeLoadInput input;
  input.now = at(1000);
  for (size_t n = 0; n < nodes; ++n) {
    NodeLoadInput node;
    const std::string name = "n" + std::to_string(n);
    node.node = make_node(name, {{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "110"}});
    std::vector<std::pair<std::shared_ptr<const Pod>, testing::Amounts>> usage;
    const int count = pods_per_node(rng);
    const int64_t scale = level(rng) + 1;
    for (int p = 0; p < count; ++p) {
      auto pod = TestPod(name + "-" + std::to_string(p)).node(name).created(p).requests({{"cpu", milli(request_milli(rng))}}).ptr();
      node.pods.push_back(pod);
      const int64_t m = usage_milli(rng) * scale / 2;
      usage.push_back({pod, {{"cpu", std::to_string(m * 1000000 + nano(rng)) + "n"}, {"memory", std::to_string(m * 4) + "Mi"}}});
    }
    node.metric = make_metric(name, at(990), usage, {{"cpu", "200m"}});
    input.nodes.push_back(std::move(node));
  }
  return input;
}

std::vector<std::string> summary(const LowNodeLoadPlan& plan) {
  std::vector<std::string> out;
  for (const auto& e : plan.evictions) out.push_back(e.pod->meta.name + "->" + e.target + ":" + e.reason);
  for (const auto& v : plan.nodes) out.push_back(v.node + "=" + to_string(v.node_class));
  for (const auto& s : plan.skipped) out.push_back(s.pod->meta.name + " kept: " + s.reason);
  return out;
}

TEST_CASE("LowNodeLoad: precomputed pod usage totals give the same plan", "[descheduler][lownodeload]") {
  LowNodeLoadArgs args;
  args.thresholds.low = {{"cpu", 30}, {"memory", 40}};
  args.thresholds.high = {{"cpu", 60}, {"memory", 70}};
  args.thresholds.anomaly.consecutive_abnormalities = 1;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    INFO("seed " << seed);
    LowNodeLoadInput summed_here = random_cluster(seed, 12);
    LowNodeLoadInput precomputed = summed_here;
    // Requests as the migration view keeps them: summed as pods came, less
    // one that left again (a resource only it asked for stays at zero).
    std::vector<ResourceList> requested(precomputed.nodes.size());
    const ResourceList departed = testing::rl({{"cpu", "300m"}, {"example.com/x", "1"}});
    for (size_t i = 0; i < precomputed.nodes.size(); ++i) {
      NodeLoadInput& node = precomputed.nodes[i];
      node.pod_totals = std::make_shared<const UsageTotals>(pod_usage_totals(*node.metric));
      requested[i] += departed;
      for (const auto& pod : node.pods) requested[i] += pod_requests(pod->spec);
      requested[i] -= departed;
      node.requested = &requested[i];
    }
    AnomalyDetectors d1, d2;
    EvictionLimits l1, l2;
    CHECK(summary(plan_low_node_load(summed_here, args, d1, l1)) == summary(plan_low_node_load(precomputed, args, d2, l2)));
  }
}

TEST_CASE("LowNodeLoad: pod usage totals round each pod as LowNodeLoad does", "[descheduler][lownodeload]") {
  auto a = TestPod("a").ptr(), b = TestPod("b").ptr();
  // 1.5m rounds up to 2m per pod: 4m, not 3m; memory whole bytes; names sorted.
  const auto metric = make_metric("n", at(0), {{a, {{"cpu", "1500u"}, {"memory", "1Ki"}}},
                                               {b, {{"cpu", "1500u"}, {"example.com/x", "2"}}}});
  const UsageTotals expected = {{"cpu", 4}, {"example.com/x", 2}, {"memory", 1024}};
  CHECK(pod_usage_totals(*metric) == expected);
  CHECK(pod_usage_totals(*make_metric("n", at(0), {})).empty());
}

TEST_CASE("LowNodeLoad: a pod reported twice uses its last metric entry", "[descheduler][lownodeload]") {
  LowNodeLoadInput input;
  input.now = at(1000);
  auto hot = TestPod("hot-0").node("hot").requests({{"cpu", "100m"}}).ptr();
  auto other = TestPod("hot-1").node("hot").requests({{"cpu", "100m"}}).ptr();
  NodeLoadInput node;
  node.node = make_node("hot", {{"cpu", "10"}, {"memory", "100Gi"}});
  node.pods = {hot, other};
  // hot-0 first says 1 core, then 8: with 8 no idle node can take it under
  // its 7-core high threshold, so it is passed over (with 1 it would move).
  node.metric = make_metric("hot", at(990), {{hot, {{"cpu", "1"}}}, {other, {{"cpu", "500m"}}}, {hot, {{"cpu", "8"}}}});
  input.nodes.push_back(node);
  for (int i = 0; i < 3; ++i) {
    NodeLoadInput idle;
    idle.node = make_node("idle" + std::to_string(i), {{"cpu", "10"}, {"memory", "100Gi"}});
    idle.metric = make_metric(idle.node->meta.name, at(990), {});
    input.nodes.push_back(idle);
  }
  LowNodeLoadArgs args;
  args.thresholds.low = {{"cpu", 30}};
  args.thresholds.high = {{"cpu", 70}};
  args.thresholds.anomaly.consecutive_abnormalities = 1;
  args.node_fit = false;
  AnomalyDetectors detectors;
  EvictionLimits limits;
  const auto plan = plan_low_node_load(input, args, detectors, limits);
  REQUIRE(plan.evictions.size() == 1);
  CHECK(plan.evictions.front().pod == other);
  REQUIRE_FALSE(plan.skipped.empty());
  CHECK(plan.skipped.front().pod == hot);
  CHECK(plan.skipped.front().reason == "no low node can take the pod without exceeding its high thresholds");
}

}  // namespace
}  // namespace troupe::plugins::descheduler
