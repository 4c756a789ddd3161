#include "test/plugins/descheduler/helpers.hpp"

#include "plugins/descheduler/anomaly_detector.hpp"
#include "plugins/descheduler/low_node_load.hpp"
#include "plugins/descheduler/pod_classes.hpp"
#include "plugins/descheduler/victim_order.hpp"

namespace troupe::plugins::descheduler {
namespace {

using testing::at;
using testing::make_metric;
using testing::make_node;
using testing::TestPod;

/// A cluster builder: nodes of 10 cpu / 100Gi, pods with cpu usage.
struct Cluster {
  LowNodeLoadInput input;
  Cluster() { input.now = at(1000); }
  /// A node whose pods use these cpu amounts (cores), each pod named <node>-<i>.
  Cluster& node(const std::string& name, const std::vector<double>& pod_cpu, bool with_metric = true) {
    NodeLoadInput n;
    n.node = make_node(name, {{"cpu", "10"}, {"memory", "100Gi"}});
    std::vector<std::pair<std::shared_ptr<const Pod>, testing::Amounts>> usage;
    for (size_t i = 0; i < pod_cpu.size(); ++i) {
      TestPod pod(name + "-" + std::to_string(i));
      pod.node(name).created(static_cast<int64_t>(i)).requests({{"cpu", "100m"}});
      auto ptr = pod.ptr();
      n.pods.push_back(ptr);
      usage.push_back({ptr, {{"cpu", std::to_string(static_cast<int64_t>(pod_cpu[i] * 1000)) + "m"}, {"memory", "1Gi"}}});
    }
    if (with_metric) n.metric = make_metric(name, at(990), usage);
    input.nodes.push_back(std::move(n));
    return *this;
  }
};

LowNodeLoadArgs args_with(double low, double high) {
  LowNodeLoadArgs args;
  args.thresholds.low = {{"cpu", low}};
  args.thresholds.high = {{"cpu", high}};
  args.thresholds.weights = {{"cpu", 1}, {"memory", 1}};
  args.thresholds.anomaly.consecutive_abnormalities = 1;  // act at once
  args.node_fit = false;
  return args;
}

LowNodeLoadPlan plan(const Cluster& c, const LowNodeLoadArgs& args) {
  AnomalyDetectors detectors;
  EvictionLimits limits;
  return plan_low_node_load(c.input, args, detectors, limits);
}

std::vector<std::string> evicted(const LowNodeLoadPlan& p) {
  std::vector<std::string> names;
  for (const auto& e : p.evictions) names.push_back(e.pod->meta.name);
  return names;
}

NodeClass class_of(const LowNodeLoadPlan& p, const std::string& node) {
  for (const auto& v : p.nodes) {
    if (v.node == node) return v.node_class;
  }
  FAIL("node " << node << " not classified");
  return NodeClass::appropriate;
}

TEST_CASE("LowNodeLoad: classification by thresholds", "[descheduler][lownodeload]") {
  struct Case {
    double usage;  // cores of 10
    NodeClass expected;
  };
  // Without prod thresholds every prod usage is "low", so in-range nodes read prod-low.
  const Case cases[] = {{0, NodeClass::both_low},   {2, NodeClass::both_low}, {3, NodeClass::both_low},
                        {3.1, NodeClass::prod_low}, {7, NodeClass::prod_low}, {7.01, NodeClass::high},
                        {10, NodeClass::high}};
  for (const Case& c : cases) {
    INFO(c.usage);
    Cluster cluster;
    cluster.node("n", {c.usage});
    CHECK(class_of(plan(cluster, args_with(30, 70)), "n") == c.expected);
  }
}

TEST_CASE("LowNodeLoad: prod thresholds classify by prod usage", "[descheduler][lownodeload]") {
  Cluster cluster;
  cluster.node("n", {5});
  auto pod = std::make_shared<Pod>(*cluster.input.nodes[0].pods[0]);
  pod->spec.priority = 9500;  // koord-prod
  cluster.input.nodes[0].pods[0] = pod;
  LowNodeLoadArgs args = args_with(30, 70);
  args.thresholds.prod_low = {{"cpu", 10}};
  args.thresholds.prod_high = {{"cpu", 40}};
  CHECK(class_of(plan(cluster, args), "n") == NodeClass::prod_high);
  args.thresholds.prod_high = {{"cpu", 60}};
  CHECK(class_of(plan(cluster, args), "n") == NodeClass::appropriate);
  args.thresholds.prod_low = {{"cpu", 55}};
  CHECK(class_of(plan(cluster, args), "n") == NodeClass::prod_low);
}

TEST_CASE("LowNodeLoad: nodes without a fresh metric, unschedulable nodes, raw allocatable", "[descheduler][lownodeload]") {
  Cluster cluster;
  cluster.node("fresh", {1}).node("none", {1}, false).node("stale", {1}).node("cordoned", {1}).node("raw", {4});
  cluster.input.nodes[2].metric = make_metric("stale", at(1000 - 180), {});
  auto cordoned = std::make_shared<Node>(*cluster.input.nodes[3].node);
  cordoned->spec.unschedulable = true;
  cluster.input.nodes[3].node = cordoned;
  auto raw = std::make_shared<Node>(*cluster.input.nodes[4].node);
  raw->meta.annotations[kAnnotationRawAllocatable] = R"({"cpu":"20","memory":"100Gi"})";
  cluster.input.nodes[4].node = raw;
  const auto p = plan(cluster, args_with(30, 70));
  CHECK(class_of(p, "fresh") == NodeClass::both_low);
  CHECK(class_of(p, "cordoned") == NodeClass::prod_low);  // unschedulable is never low
  CHECK(class_of(p, "raw") == NodeClass::both_low);       // 4 of 20 cores
  CHECK(p.nodes.size() == 3);                             // none and stale are skipped
}

TEST_CASE("LowNodeLoad: deviation thresholds follow the mean", "[descheduler][lownodeload]") {
  Cluster cluster;
  cluster.node("a", {1}).node("b", {5}).node("c", {4.5, 4.5});  // mean 50%
  LowNodeLoadArgs args = args_with(20, 20);
  args.thresholds.use_deviation = true;
  const auto p = plan(cluster, args);
  CHECK(class_of(p, "a") == NodeClass::both_low);      // 10% <= 30%
  CHECK(class_of(p, "b") == NodeClass::prod_low);      // in range
  CHECK(class_of(p, "c") == NodeClass::high);          // 90% > 70%
  CHECK(evicted(p) == std::vector<std::string>{"c-1"});
}

TEST_CASE("LowNodeLoad: stop conditions", "[descheduler][lownodeload]") {
  struct Case {
    const char* name;
    std::vector<std::vector<double>> nodes;
    int64_t number_of_nodes;
    const char* note;
  };
  const std::vector<Case> cases = {
      {"no low node", {{5}, {9}}, 0, "no node is under the low thresholds"},
      {"all low", {{1}, {1}}, 0, "every node is under the low thresholds"},
      {"no hot node", {{1}, {5}}, 0, "no node is above the high thresholds"},
      {"numberOfNodes", {{1}, {9}}, 1, "no more low nodes than numberOfNodes"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Cluster cluster;
    for (size_t i = 0; i < c.nodes.size(); ++i) cluster.node("n" + std::to_string(i), c.nodes[i]);
    LowNodeLoadArgs args = args_with(30, 70);
    args.number_of_nodes = c.number_of_nodes;
    const auto p = plan(cluster, args);
    CHECK(p.evictions.empty());
    REQUIRE_FALSE(p.notes.empty());
    CHECK_THAT(p.notes.front(), Catch::Contains(c.note));
  }
  LowNodeLoadArgs paused = args_with(30, 70);
  paused.paused = true;
  Cluster cluster;
  cluster.node("low", {1}).node("hot", {9});
  CHECK(plan(cluster, paused).evictions.empty());
}

TEST_CASE("LowNodeLoad: evicts until the node is no longer hot", "[descheduler][lownodeload]") {
  Cluster cluster;
  // hot: 2+2+2+2 = 8 cores of 10 (80% > 70%); one 2-core pod brings it to 60%.
  cluster.node("low", {1}).node("hot", {2, 2, 2, 2});
  const auto p = plan(cluster, args_with(30, 70));
  REQUIRE(p.evictions.size() == 1);
  CHECK(p.evictions[0].node == "hot");
  CHECK(p.evictions[0].target == "low");
  CHECK(p.evictions[0].pod->meta.name == "hot-3");  // equal pods: newest first
  CHECK(p.evictions[0].reason == "node is overutilized, cpu usage(80.00%)>threshold(70.00%)");
}

TEST_CASE("LowNodeLoad: a target is never made hot", "[descheduler][lownodeload]") {
  // The only low node has 2.5 cores of room under its 70% mark (7 - 4.5... ) — a 3-core pod does not fit.
  Cluster cluster;
  cluster.node("low", {2.5}).node("hot", {3, 3, 3});  // low at 25%, high mark 7 cores: room 4.5
  LowNodeLoadArgs args = args_with(30, 70);
  auto p = plan(cluster, args);
  // 9 cores hot: one 3-core pod moves (low goes to 5.5); a second would make low 8.5 > 7, but hot is at 60% anyway.
  CHECK(evicted(p).size() == 1);
  Cluster tight;
  tight.node("low", {2.9}).node("hot", {4.5, 4.5});  // room 4.1 < 4.5
  p = plan(tight, args);
  CHECK(p.evictions.empty());
  REQUIRE_FALSE(p.skipped.empty());
  CHECK_THAT(p.skipped.back().reason, Catch::Contains("without exceeding its high thresholds"));
}

TEST_CASE("LowNodeLoad: the pooled budget stops evictions", "[descheduler][lownodeload]") {
  // Budget: 7 cores under low1's 70% mark. hot2 (more memory used) goes first and gives two
  // 3.5-core pods, which spends the budget; hot1 is still hot but its pods are not even tried.
  Cluster spent;
  spent.node("low1", {0}).node("hot1", {3.5, 3.5, 3.5}).node("hot2", {3.5, 3.5, 3.5, 1});
  auto p = plan(spent, args_with(30, 70));
  CHECK(evicted(p) == std::vector<std::string>{"hot2-2", "hot2-1"});
  CHECK(p.skipped.empty());
  // Budget left but every target full: the pods are tried and skipped.
  Cluster full;
  full.node("low1", {0}).node("hot1", {4, 4}).node("hot2", {4, 4});
  p = plan(full, args_with(30, 70));
  CHECK(p.evictions.size() == 1);
  CHECK(p.skipped.size() == 2);
  // Two targets share the work.
  Cluster two;
  two.node("low1", {0}).node("low2", {0}).node("hot1", {5, 5}).node("hot2", {5, 5});
  p = plan(two, args_with(30, 70));
  REQUIRE(p.evictions.size() == 2);
  CHECK(p.evictions[0].target != p.evictions[1].target);
}

TEST_CASE("LowNodeLoad: cycle eviction limits", "[descheduler][lownodeload]") {
  struct Case {
    std::optional<uint32_t> per_node, per_namespace, total;
    size_t expected;
  };
  const Case cases[] = {{std::nullopt, std::nullopt, std::nullopt, 2}, {1, std::nullopt, std::nullopt, 2},
                        {std::nullopt, 1, std::nullopt, 1},           {std::nullopt, std::nullopt, 1, 1},
                        {std::nullopt, std::nullopt, 0, 0}};
  for (const Case& c : cases) {
    Cluster cluster;
    cluster.node("low1", {0}).node("low2", {0}).node("hot1", {2, 2, 2, 2}).node("hot2", {2, 2, 2, 2});
    AnomalyDetectors detectors;
    EvictionLimits limits(c.per_node, c.per_namespace, c.total);
    const auto p = plan_low_node_load(cluster.input, args_with(30, 70), detectors, limits);
    CHECK(p.evictions.size() == c.expected);
    CHECK(limits.evicted() == c.expected);
  }
}

TEST_CASE("LowNodeLoad: candidate filters", "[descheduler][lownodeload]") {
  Cluster cluster;
  cluster.node("low", {0}).node("hot", {4, 4});
  LowNodeLoadArgs args = args_with(30, 70);
  args.evictable_namespaces = Namespaces{{}, {"default"}};
  auto p = plan(cluster, args);
  CHECK(p.evictions.empty());
  CHECK_THAT(p.skipped[0].reason, Catch::Contains("excluded"));
  args.evictable_namespaces.reset();
  args.pod_selectors = {{"web", *parse_label_selector("app=web")}};
  p = plan(cluster, args);
  CHECK(p.evictions.empty());
  CHECK_THAT(p.skipped[0].reason, Catch::Contains("podSelectors"));
  args.pod_selectors.clear();
  cluster.input.evictor = [](const Pod& pod) -> std::optional<std::string> {
    if (pod.meta.name == "hot-1") return "evictor says no";
    return std::nullopt;
  };
  p = plan(cluster, args);
  CHECK(evicted(p) == std::vector<std::string>{"hot-0"});
  // Pods without metrics cannot be charged to a target.
  Cluster no_metric;
  no_metric.node("low", {0}).node("hot", {8});
  no_metric.input.nodes[1].metric = make_metric("hot", at(990), {}, {{"cpu", "8"}});
  p = plan(no_metric, args_with(30, 70));
  CHECK(p.evictions.empty());
  CHECK_THAT(p.skipped[0].reason, Catch::Contains("no usage reported"));
}

TEST_CASE("LowNodeLoad: nodeFit keeps pods off targets that cannot take them", "[descheduler][lownodeload]") {
  Cluster cluster;
  cluster.node("low", {0}).node("hot", {4, 4});
  auto tainted = std::make_shared<Node>(*cluster.input.nodes[0].node);
  tainted->spec.taints.push_back(Taint{"k", "v", TaintEffect::no_schedule, std::nullopt});
  cluster.input.nodes[0].node = tainted;
  LowNodeLoadArgs args = args_with(30, 70);
  args.node_fit = true;
  CHECK(plan(cluster, args).evictions.empty());
  args.node_fit = false;
  CHECK(plan(cluster, args).evictions.size() == 1);
}

TEST_CASE("LowNodeLoad: anomaly rounds before acting", "[descheduler][lownodeload]") {
  Cluster cluster;
  cluster.node("low", {0}).node("hot", {4, 4});
  LowNodeLoadArgs args = args_with(30, 70);
  args.thresholds.anomaly.consecutive_abnormalities = 3;
  AnomalyDetectors detectors;
  std::vector<size_t> per_round;
  for (int round = 0; round < 6; ++round) {
    cluster.input.now = at(1000 + round * 10);
    cluster.input.nodes[0].metric = make_metric("low", cluster.input.now, {});
    auto hot = cluster.input.nodes[1];
    cluster.input.nodes[1].metric = make_metric("hot", cluster.input.now, {{hot.pods[0], {{"cpu", "4"}}}, {hot.pods[1], {{"cpu", "4"}}}});
    EvictionLimits limits;
    per_round.push_back(plan_low_node_load(cluster.input, args, detectors, limits).evictions.size());
  }
  // More than 3 hot rounds in a row: the 4th acts, then the node is marked normal and counts again.
  CHECK(per_round == std::vector<size_t>{0, 0, 0, 1, 0, 0});
}

TEST_CASE("anomaly detector: counting, timeout, reset, cache expiry", "[descheduler][lownodeload]") {
  AnomalyCondition cond;
  cond.consecutive_abnormalities = 2;
  cond.timeout = std::chrono::seconds(30);
  AnomalyDetectors d;
  CHECK_FALSE(d.mark_abnormal("n", cond, at(0)));
  CHECK_FALSE(d.mark_abnormal("n", cond, at(1)));
  CHECK(d.mark_abnormal("n", cond, at(2)));   // 3 > 2
  CHECK(d.mark_abnormal("n", cond, at(20)));  // still anomalous within the timeout
  CHECK_FALSE(d.mark_abnormal("n", cond, at(40)));  // timed out: counting from 1 again
  d.mark_normal("n", at(41));
  CHECK(d.find("n")->consecutive_abnormalities == 0);
  CHECK(d.find("n")->consecutive_normalities == 1);
  CHECK_FALSE(d.mark_abnormal("n", cond, at(42)));
  d.reset("n");
  CHECK(d.find("n")->consecutive_abnormalities == 0);
  d.mark_normal("unknown", at(50));
  CHECK(d.find("unknown") == nullptr);
  d.expire(at(42 + 300), std::chrono::minutes(5));
  CHECK(d.size() == 1);
  d.expire(at(42 + 301), std::chrono::minutes(5));
  CHECK(d.size() == 0);
}

TEST_CASE("victim order: keys in Koordinator's order", "[descheduler][lownodeload]") {
  auto pod = [](std::string name) { return TestPod(std::move(name)); };
  struct Case {
    const char* name;
    TestPod first;
    TestPod second;
  };
  const std::vector<Case> cases = {
      {"koord priority class", pod("free").priority(3500), pod("batch").priority(5500)},
      {"spec.priority", pod("low").priority(100).label(kQosClassLabel, "LS"), pod("high").priority(200).label(kQosClassLabel, "LS")},
      {"k8s QoS", pod("be").label(kQosClassLabel, "LS"), pod("burstable").requests({{"cpu", "1"}}).label(kQosClassLabel, "LS")},
      {"koord QoS", pod("ls").label(kQosClassLabel, "LS").priority(9500), pod("lsr").label(kQosClassLabel, "LSR").priority(9500)},
      {"deletion cost", pod("cheap").annotate(kDeletionCostAnnotation, "1"), pod("dear").annotate(kDeletionCostAnnotation, "5")},
      {"eviction cost", pod("cheap").annotate(kEvictionCostAnnotation, "1"), pod("dear").annotate(kEvictionCostAnnotation, "5")},
      {"newer first", pod("new").created(100), pod("old").created(10)},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    std::vector<Victim> victims = {{c.second.ptr(), Amounts{1}}, {c.first.ptr(), Amounts{1}}};
    sort_victims(victims, Amounts{0}, {1});
    CHECK(victims[0].pod->meta.name == c.first.pod.meta.name);
  }
}

TEST_CASE("victim order: usage covering the excess goes first", "[descheduler][lownodeload]") {
  struct Case {
    int64_t used, excess;
    double score;
  };
  const Case cases[] = {{0, 100, 0}, {50, 100, 0.5}, {100, 100, 2}, {200, 100, 1.5}, {400, 100, 1.25}, {5, 0, 0}};
  for (const Case& c : cases) CHECK(coverage_score(c.used, c.excess) == Approx(c.score));
  // Excess 1000m: the 1200m pod (score 1.83) beats the 3000m (1.33) and the 500m (0.5) pods; no metric last.
  std::vector<Victim> victims = {{TestPod("small").created(1).ptr(), Amounts{500}},
                                 {TestPod("none").created(2).ptr(), std::nullopt},
                                 {TestPod("huge").created(3).ptr(), Amounts{3000}},
                                 {TestPod("right").created(4).ptr(), Amounts{1200}}};
  sort_victims(victims, Amounts{1000}, {1});
  std::vector<std::string> order;
  for (const auto& v : victims) order.push_back(v.pod->meta.name);
  CHECK(order == std::vector<std::string>{"right", "huge", "small", "none"});
  // Weights count only over-used resources.
  CHECK(usage_score({1000, 5}, {1000, 0}, {1, 100}) == Approx(2));
  CHECK(node_usage_score({500, 10}, {1000, 10}, {1, 1}) == 750);
  CHECK(node_usage_score({2000, 0}, {1000, 0}, {3, 1}) == 750);
}

}  // namespace
}  // namespace troupe::plugins::descheduler
