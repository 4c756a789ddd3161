#include <catch2/catch.hpp>

#include "config/scheduler_config.hpp"
#include "plugins/common/args.hpp"
#include "plugins/default_preemption/dry_run.hpp"
#include "plugins/framework/fit_error.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/normalize_score.hpp"
#include "plugins/priority_sort/priority_sort.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

namespace {

/// Rejects nodes whose name is in `bad`; PreFilter can skip or pin nodes by label "pin".
class FakeFilter : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  std::string_view name() const override { return "FakeFilter"; }
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override {
    if (pod.meta().labels.count("skip-fake")) return PluginStatus(Code::skip);
    if (pod.meta().labels.count("reject")) return PluginStatus::unschedulable("fake says no");
    if (pod.meta().labels.count("broken")) return PluginStatus::internal_error("boom");
    if (auto it = pod.meta().labels.find("pin"); it != pod.meta().labels.end())
      result.node_names = std::set<std::string>{it->second};
    if (auto it = pod.meta().labels.find("blockers"); it != pod.meta().labels.end())
      state.write(state_slot(), Blockers{std::stoi(it->second)});
    return {};
  }
  PluginStatus filter(const CycleState& state, const PodInfo&, const NodeInfo& node) const override {
    if (node.node()->meta.labels.count("bad")) return PluginStatus::unschedulable("fake bad node");
    if (const auto* b = state.read<Blockers>(state_slot()); b != nullptr && b->count > 0)
      return PluginStatus::unschedulable("blocked by " + std::to_string(b->count));
    return {};
  }
  // PreFilterExtensions: pods labelled "blocks" are counted in the state, as anti-affinity counts pods.
  PluginStatus add_pod(CycleState& state, const PodInfo&, const PodInfo& added, const NodeInfo&) const override {
    return count(state, added, +1);
  }
  PluginStatus remove_pod(CycleState& state, const PodInfo&, const PodInfo& removed, const NodeInfo&) const override {
    return count(state, removed, -1);
  }
  std::vector<ClusterEvent> events_to_register() const override {
    return {{EventResource::node, kAdd, "NodeAdd"}};
  }

 private:
  struct Blockers {
    int count = 0;
  };
  PluginStatus count(CycleState& state, const PodInfo& other, int delta) const {
    if (other.meta().labels.count("explode")) return PluginStatus::internal_error("cannot move");
    const auto* b = state.read<Blockers>(state_slot());
    if (b != nullptr && other.meta().labels.count("blocks")) state.write(state_slot(), Blockers{b->count + delta});
    return {};
  }
};

/// A second filter that always fails with an error on nodes labelled "error".
class SecondFilter : public FilterPlugin {
 public:
  std::string_view name() const override { return "SecondFilter"; }
  PluginStatus filter(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    if (node.node()->meta.labels.count("error")) return PluginStatus::internal_error("disk on fire");
    if (node.node()->meta.labels.count("bad")) return PluginStatus::unschedulable("second says no");
    return {};
  }
};

/// Scores the node label "score" as is (no normalize).
class LabelScore : public ScorePlugin {
 public:
  std::string_view name() const override { return "LabelScore"; }
  ScoreResult score(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    ScoreResult r;
    auto it = node.node()->meta.labels.find("score");
    if (it != node.node()->meta.labels.end()) r.score = std::stoll(it->second);
    return r;
  }
};

/// Raw score = label "raw", normalized to 100 for the max; PreScore skips for pods labelled "skip-raw".
class RawScore : public PreScorePlugin, public ScorePlugin, public ReservePlugin, public PreBindPlugin {
 public:
  std::string_view name() const override { return "RawScore"; }
  PluginStatus pre_score(CycleState& state, const PodInfo& pod) const override {
    if (pod.meta().labels.count("skip-raw")) return PluginStatus(Code::skip);
    state.write(state_slot(), Marker{});
    return {};
  }
  ScoreResult score(const CycleState& state, const PodInfo&, const NodeInfo& node) const override {
    ScoreResult r;
    if (state.read<Marker>(state_slot()) == nullptr) {
      r.status = PluginStatus::internal_error("PreScore did not run");
      return r;
    }
    auto it = node.node()->meta.labels.find("raw");
    if (it != node.node()->meta.labels.end()) r.score = std::stoll(it->second);
    return r;
  }
  bool has_normalize_score() const override { return true; }
  PluginStatus normalize_scores(const CycleState&, const PodInfo&, std::vector<int64_t>& scores) const override {
    default_normalize_score(kMaxNodeScore, false, scores);
    return {};
  }
  PluginStatus reserve(CycleState&, const PodInfo& pod, NodeInfo&) const override {
    if (pod.meta().labels.count("no-reserve")) return PluginStatus::unschedulable("cannot reserve");
    return {};
  }
  void unreserve(CycleState&, const PodInfo&, NodeInfo&) const override {}
  PluginStatus pre_bind(CycleState&, const PodInfo& pod, const std::string& node, BindingChanges& changes) const override {
    changes.annotations["example.com/bound-to"] = node;
    return {};
  }

 private:
  struct Marker : StateData {};
};

class Waiter : public PermitPlugin, public BindPlugin {
 public:
  std::string_view name() const override { return "Waiter"; }
  PermitResult permit(CycleState&, const PodInfo& pod, const std::string&) const override {
    PermitResult r;
    if (auto wait = pod.meta().labels.find("wait"); wait != pod.meta().labels.end()) {
      r.status = PluginStatus(Code::wait);
      r.timeout = wait->second.empty() ? std::chrono::seconds(3) : std::chrono::seconds(std::stoll(wait->second));
    }
    if (pod.meta().labels.count("deny")) r.status = PluginStatus::unschedulable("denied");
    return r;
  }
  PluginStatus bind(const CycleState&, const PodInfo& pod, const std::string&) const override {
    return pod.meta().labels.count("custom-bind") ? PluginStatus() : PluginStatus(Code::skip);
  }
};

/// PostFilter that nominates the node named by the pod label "nominate", else rejects.
class Nominator : public PostFilterPlugin {
 public:
  explicit Nominator(std::string name = "Nominator") : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  PostFilterResult post_filter(CycleState&, const PodInfo& pod, const NodeStatuses& statuses) const override {
    PostFilterResult r;
    auto it = pod.meta().labels.find("nominate");
    if (it != pod.meta().labels.end()) {
      r.nominated_node = it->second;
      return r;
    }
    r.status = PluginStatus::unschedulable(name_ + ": " + std::to_string(statuses.size()) + " nodes, none helps");
    return r;
  }

 private:
  std::string name_;
};

class SecondNominator : public Nominator {
 public:
  SecondNominator() : Nominator("SecondNominator") {}
};

class CatchAllBinder : public BindPlugin {
 public:
  std::string_view name() const override { return "CatchAllBinder"; }
  PluginStatus bind(const CycleState&, const PodInfo&, const std::string&) const override { return {}; }
};

template <class T>
PluginFactory factory() {
  return [](const YAML::Node&) -> Result<std::shared_ptr<const Plugin>> { return std::shared_ptr<const Plugin>(std::make_shared<const T>()); };
}

Registry test_registry() {
  Registry r;
  REQUIRE(r.add("PrioritySort", factory<PrioritySort>(), true, 0));
  REQUIRE(r.add("FakeFilter", factory<FakeFilter>(), true, 0));
  REQUIRE(r.add("SecondFilter", factory<SecondFilter>(), true, 0));
  REQUIRE(r.add("LabelScore", factory<LabelScore>(), true, 2));
  REQUIRE(r.add("RawScore", factory<RawScore>(), true, 3));
  REQUIRE(r.add("Waiter", factory<Waiter>(), true, 0));
  REQUIRE(r.add("CatchAllBinder", factory<CatchAllBinder>(), true, 0));
  REQUIRE(r.add("Nominator", factory<Nominator>(), true, 0));
  REQUIRE(r.add("SecondNominator", factory<SecondNominator>(), true, 0));
  return r;
}

Framework make_framework(const Registry& registry) {
  auto config = config::parse_scheduler_configuration(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n", registry.catalog());
  REQUIRE(config);
  auto fw = Framework::create(config->profiles[0], registry);
  REQUIRE(fw);
  return std::move(fw).value();
}

std::shared_ptr<const PodInfo> pod_with_labels(std::map<std::string, std::string> labels) {
  Pod pod = PodBuilder("p").container({{"cpu", "1"}}).pod();
  pod.meta.labels = std::move(labels);
  return PodInfo::make(pod);
}

NodeInfo labelled_node(const std::string& name, std::map<std::string, std::string> labels) {
  NodeBuilder b(name);
  b.allocatable({{"cpu", "4"}, {"pods", "10"}});
  for (auto& [k, v] : labels) b.label(k, v);
  return b.info();
}

}  // namespace

TEST_CASE("Registry learns a plugin's extension points from its interfaces", "[framework]") {
  Registry r = test_registry();
  using P = config::ExtensionPoint;
  const auto* raw = r.find("RawScore");
  REQUIRE(raw != nullptr);
  CHECK(raw->points == config::ExtensionPointSet{P::pre_score, P::score, P::reserve, P::pre_bind});
  CHECK(r.find("FakeFilter")->points == config::ExtensionPointSet{P::pre_filter, P::filter});
  CHECK_FALSE(r.add("FakeFilter", factory<FakeFilter>(), true, 0));
  CHECK(r.find("Nope") == nullptr);
}

TEST_CASE("Framework orders plugins per point from the profile", "[framework]") {
  Registry registry = test_registry();
  Framework fw = make_framework(registry);
  CHECK(fw.profile_name() == "troupe-scheduler");
  CHECK(fw.plugin_names(config::ExtensionPoint::filter) == std::vector<std::string>{"FakeFilter", "SecondFilter"});
  CHECK(fw.plugin_names(config::ExtensionPoint::score) == std::vector<std::string>{"LabelScore", "RawScore"});
  CHECK(fw.plugin_names(config::ExtensionPoint::bind) == std::vector<std::string>{"Waiter", "CatchAllBinder"});
}

TEST_CASE("PreFilter and Filter: skips, node restriction, first failure wins", "[framework]") {
  Registry registry = test_registry();
  Framework fw = make_framework(registry);
  NodeInfo good = labelled_node("good", {});
  NodeInfo bad = labelled_node("bad", {{"bad", ""}});
  NodeInfo error = labelled_node("error", {{"error", ""}});

  SECTION("the first failing filter's reasons and name are reported") {
    auto pod = pod_with_labels({});
    auto state = fw.new_cycle_state();
    REQUIRE(fw.run_pre_filter(*state, *pod).ok());
    CHECK_FALSE(state->node_names);
    CHECK(fw.run_filter(*state, *pod, good).ok());
    PluginStatus s = fw.run_filter(*state, *pod, bad);
    CHECK(s.code == Code::unschedulable);
    CHECK(s.plugin == "FakeFilter");
    CHECK(s.reasons == std::vector<std::string>{"fake bad node"});
    PluginStatus e = fw.run_filter(*state, *pod, error);
    CHECK(e.code == Code::error);
    CHECK(e.plugin == "SecondFilter");
    CHECK(e.message() == "running Filter plugin \"SecondFilter\": disk on fire");
  }
  SECTION("a PreFilter Skip skips that plugin's Filter only") {
    auto pod = pod_with_labels({{"skip-fake", ""}});
    auto state = fw.new_cycle_state();
    REQUIRE(fw.run_pre_filter(*state, *pod).ok());
    PluginStatus s = fw.run_filter(*state, *pod, bad);
    CHECK(s.plugin == "SecondFilter");
    CHECK(s.reasons == std::vector<std::string>{"second says no"});
  }
  SECTION("PreFilter may pin nodes") {
    auto pod = pod_with_labels({{"pin", "good"}});
    auto state = fw.new_cycle_state();
    REQUIRE(fw.run_pre_filter(*state, *pod).ok());
    REQUIRE(state->node_names);
    CHECK(*state->node_names == std::set<std::string>{"good"});
    CHECK(Framework::excluded_by_pre_filter_reason(*state) == "node(s) didn't satisfy plugin(s) [FakeFilter]");
  }
  SECTION("a pod with resourceClaims is refused before any plugin: no dynamic resource allocation") {
    struct Case {
      const char* claims;
      bool refused;
    };
    for (const Case& c : {Case{R"("resourceClaims":[{"name":"gpu","resourceClaimName":"c"}],)", true},
                          Case{R"("resourceClaims":[],)", false}, Case{R"("resourceClaims":null,)", false},
                          Case{"", false}}) {
      INFO(c.claims);
      auto pod = troupe::decode_pod_json(std::string(R"({"metadata":{"name":"p","namespace":"default","uid":"u"},)") +
                                         R"("spec":{)" + c.claims + R"("containers":[{"name":"c"}]}})");
      REQUIRE(pod.ok());
      auto state = fw.new_cycle_state();
      PluginStatus s = fw.run_pre_filter(*state, *PodInfo::make(*pod));
      CHECK(s.ok() != c.refused);
      if (c.refused) {
        CHECK(s.code == Code::unschedulable_and_unresolvable);
        CHECK(s.message() == kResourceClaimsNotSupported);
      }
    }
  }
  SECTION("a PreFilter rejection carries the plugin; an error is wrapped") {
    auto state = fw.new_cycle_state();
    PluginStatus r = fw.run_pre_filter(*state, *pod_with_labels({{"reject", ""}}));
    CHECK(r.code == Code::unschedulable);
    CHECK(r.plugin == "FakeFilter");
    CHECK(r.message() == "fake says no");
    PluginStatus e = fw.run_pre_filter(*state, *pod_with_labels({{"broken", ""}}));
    CHECK(e.code == Code::error);
    CHECK(e.message() == "running PreFilter plugin \"FakeFilter\": boom");
  }
}

TEST_CASE("PreFilterExtensions through a FrameworkDryRun: a copy per node, Skip honoured, errors named",
          "[framework]") {
  Registry registry = test_registry();
  Framework fw = make_framework(registry);
  NodeInfo node = labelled_node("n", {});
  auto blocker = pod_with_labels({{"blocks", ""}});
  auto bystander = pod_with_labels({});

  SECTION("removals reach the copy; the next node starts from the cycle's state again") {
    auto pod = pod_with_labels({{"blockers", "1"}});
    auto cycle = fw.new_cycle_state();
    REQUIRE(fw.run_pre_filter(*cycle, *pod).ok());
    preemption::FrameworkDryRun dry_run(fw, *cycle);
    dry_run.start_node();
    CHECK(dry_run.filter(*pod, node).reasons == std::vector<std::string>{"blocked by 1"});
    REQUIRE(dry_run.pod_removed(*pod, *bystander, node).ok());
    CHECK_FALSE(dry_run.filter(*pod, node).ok());
    REQUIRE(dry_run.pod_removed(*pod, *blocker, node).ok());
    CHECK(dry_run.filter(*pod, node).ok());
    REQUIRE(dry_run.pod_added(*pod, *blocker, node).ok());
    CHECK_FALSE(dry_run.filter(*pod, node).ok());
    REQUIRE(dry_run.pod_removed(*pod, *blocker, node).ok());
    CHECK(fw.run_filter(*cycle, *pod, node).reasons == std::vector<std::string>{"blocked by 1"});
    dry_run.start_node();
    CHECK(dry_run.filter(*pod, node).reasons == std::vector<std::string>{"blocked by 1"});
  }
  SECTION("a plugin whose PreFilter skipped is not told") {
    auto pod = pod_with_labels({{"skip-fake", ""}});
    auto cycle = fw.new_cycle_state();
    REQUIRE(fw.run_pre_filter(*cycle, *pod).ok());
    CHECK(fw.run_pre_filter_extension_remove_pod(*cycle, *pod, *pod_with_labels({{"explode", ""}}), node).ok());
  }
  SECTION("an extension's error names the plugin and the extension") {
    auto pod = pod_with_labels({{"blockers", "1"}});
    auto cycle = fw.new_cycle_state();
    REQUIRE(fw.run_pre_filter(*cycle, *pod).ok());
    auto exploding = pod_with_labels({{"explode", ""}});
    PluginStatus removed = fw.run_pre_filter_extension_remove_pod(*cycle, *pod, *exploding, node);
    CHECK(removed.code == Code::error);
    CHECK(removed.message() == "running RemovePod on PreFilter plugin \"FakeFilter\": cannot move");
    PluginStatus added = fw.run_pre_filter_extension_add_pod(*cycle, *pod, *exploding, node);
    CHECK(added.message() == "running AddPod on PreFilter plugin \"FakeFilter\": cannot move");
  }
}

TEST_CASE("score_node and finalize_scores normalize across partitions and apply weights", "[framework]") {
  Registry registry = test_registry();
  Framework fw = make_framework(registry);
  // LabelScore weight 2 (no normalize), RawScore weight 3 (normalized to max).
  std::vector<NodeInfo> nodes;
  nodes.push_back(labelled_node("a", {{"score", "10"}, {"raw", "50"}}));
  nodes.push_back(labelled_node("b", {{"score", "40"}, {"raw", "200"}}));
  nodes.push_back(labelled_node("c", {{"score", "100"}, {"raw", "0"}}));
  auto pod = pod_with_labels({});
  auto state = fw.new_cycle_state();
  REQUIRE(fw.run_pre_filter(*state, *pod).ok());
  REQUIRE(fw.run_pre_score(*state, *pod).ok());

  // Two "partitions" score their nodes separately, the cycle merges.
  std::vector<NodeScore> part1(2), part2(1);
  REQUIRE(fw.score_node(*state, *pod, nodes[0], part1[0]).ok());
  REQUIRE(fw.score_node(*state, *pod, nodes[1], part1[1]).ok());
  REQUIRE(fw.score_node(*state, *pod, nodes[2], part2[0]).ok());
  CHECK(part1[0].weighted_sum == 20);
  CHECK(part1[0].raw[0] == 50);
  std::vector<NodeScore> all = part1;
  all.insert(all.end(), part2.begin(), part2.end());
  REQUIRE(fw.finalize_scores(*state, *pod, all).ok());
  CHECK(all[0].total == 2 * 10 + 3 * 25);   // 50/200 -> 25
  CHECK(all[1].total == 2 * 40 + 3 * 100);  // the max -> 100
  CHECK(all[2].total == 2 * 100 + 3 * 0);
  std::mt19937_64 rng(1);
  CHECK(Framework::select_host(all, rng) == size_t{1});

  SECTION("a PreScore Skip drops that plugin's score") {
    auto skipping = pod_with_labels({{"skip-raw", ""}});
    auto st = fw.new_cycle_state();
    REQUIRE(fw.run_pre_score(*st, *skipping).ok());
    NodeScore s;
    REQUIRE(fw.score_node(*st, *skipping, nodes[1], s).ok());
    std::vector<NodeScore> one{s};
    REQUIRE(fw.finalize_scores(*st, *skipping, one).ok());
    CHECK(one[0].total == 80);
  }
  SECTION("a score out of [0, 100] is an error") {
    NodeInfo wild = labelled_node("w", {{"score", "101"}});
    NodeScore s;
    PluginStatus e = fw.score_node(*state, *pod, wild, s);
    CHECK(e.code == Code::error);
    CHECK(e.message() == "plugin \"LabelScore\" returns an invalid score 101, it should in the range of [0, 100] after normalizing");
  }
}

TEST_CASE("select_host breaks ties uniformly", "[framework]") {
  std::vector<NodeScore> scores(4);
  scores[0].total = 5;
  scores[1].total = 9;
  scores[2].total = 9;
  scores[3].total = 9;
  std::mt19937_64 rng(7);
  std::map<size_t, int> wins;
  for (int i = 0; i < 3000; ++i) ++wins[*Framework::select_host(scores, rng)];
  CHECK(wins.count(0) == 0);
  for (size_t i = 1; i <= 3; ++i) CHECK(wins[i] > 850);
  CHECK_FALSE(Framework::select_host({}, rng));
}

TEST_CASE("Reserve assumes the pod; a failed Reserve and Unreserve restore the node", "[framework]") {
  Registry registry = test_registry();
  Framework fw = make_framework(registry);
  NodeInfo node = labelled_node("n", {});
  auto pod = pod_with_labels({});
  auto state = fw.new_cycle_state();
  REQUIRE(fw.run_reserve(*state, pod, node).ok());
  CHECK(node.pod_count() == 1);
  CHECK(node.requested().milli_cpu == 1000);
  CHECK(fw.run_reserve(*state, pod, node).code == Code::error);  // already accounted
  fw.run_unreserve(*state, *pod, node);
  CHECK(node.pod_count() == 0);
  CHECK(node.requested().is_zero());

  auto refused = pod_with_labels({{"no-reserve", ""}});
  PluginStatus s = fw.run_reserve(*state, refused, node);
  CHECK(s.code == Code::unschedulable);
  CHECK(s.plugin == "RawScore");
  CHECK(node.pod_count() == 0);
  CHECK(node.requested().is_zero());
}

TEST_CASE("Permit, PreBind and Bind", "[framework]") {
  Registry registry = test_registry();
  Framework fw = make_framework(registry);
  auto state = fw.new_cycle_state();

  PermitOutcome ok = fw.run_permit(*state, *pod_with_labels({}), "n");
  CHECK(ok.status.ok());
  PermitOutcome wait = fw.run_permit(*state, *pod_with_labels({{"wait", ""}}), "n");
  CHECK(wait.status.code == Code::wait);
  REQUIRE(wait.waiting.size() == 1);
  CHECK(wait.waiting[0].first == "Waiter");
  CHECK(wait.waiting[0].second == std::chrono::seconds(3));
  // No plugin makes a pod wait longer than 15 minutes (upstream's maxTimeout).
  for (const char* seconds : {"3600", "9223372036854775"}) {
    PermitOutcome capped = fw.run_permit(*state, *pod_with_labels({{"wait", seconds}}), "n");
    REQUIRE(capped.waiting.size() == 1);
    CHECK(capped.waiting[0].second == std::chrono::minutes(15));
  }
  PermitOutcome at_cap = fw.run_permit(*state, *pod_with_labels({{"wait", "900"}}), "n");
  CHECK(at_cap.waiting[0].second == std::chrono::minutes(15));
  PermitOutcome deny = fw.run_permit(*state, *pod_with_labels({{"deny", ""}}), "n");
  CHECK(deny.status.code == Code::unschedulable);
  CHECK(deny.status.plugin == "Waiter");

  BindingChanges changes;
  REQUIRE(fw.run_pre_bind(*state, *pod_with_labels({}), "node-7", changes).ok());
  CHECK(changes.annotations.at("example.com/bound-to") == "node-7");

  CHECK(fw.run_bind(*state, *pod_with_labels({}), "n").plugin == "CatchAllBinder");
  CHECK(fw.run_bind(*state, *pod_with_labels({{"custom-bind", ""}}), "n").plugin == "Waiter");
}

TEST_CASE("Cluster events: only the rejecting plugins' registrations count", "[framework]") {
  Registry registry = test_registry();
  Framework fw = make_framework(registry);
  const ClusterEvent node_add{EventResource::node, kAdd, "NodeAdd"};
  const ClusterEvent pod_delete{EventResource::pod, kDelete, "PodDelete"};
  CHECK(fw.event_may_help(node_add, {"FakeFilter"}));
  CHECK_FALSE(fw.event_may_help(pod_delete, {"FakeFilter"}));
  CHECK(fw.event_may_help(pod_delete, {"FakeFilter", "SecondFilter"}));  // no EnqueueExtensions: any event
  CHECK(fw.event_may_help(pod_delete, {}));
  auto events = fw.cluster_events();
  REQUIRE(events.size() == 1);
  CHECK(events[0].first == "FakeFilter");
}

TEST_CASE("the queue order is PrioritySort's", "[framework]") {
  Registry registry = test_registry();
  Framework fw = make_framework(registry);
  auto high = PodBuilder("h").priority(10).info();
  auto low = PodBuilder("l").priority(1).info();
  auto t0 = std::chrono::steady_clock::time_point{};
  auto t1 = t0 + std::chrono::seconds(1);
  CHECK(fw.less({high.get(), t1, 0}, {low.get(), t0, 0}));
  CHECK_FALSE(fw.less({low.get(), t0, 0}, {high.get(), t1, 0}));
  CHECK(fw.less({low.get(), t0, 0}, {low.get(), t1, 0}));  // same priority: first queued first
  CHECK_FALSE(fw.less({low.get(), t1, 0}, {low.get(), t0, 0}));
  CHECK_FALSE(fw.less({low.get(), t0, 0}, {low.get(), t0, 0}));
}

TEST_CASE("PostFilter: the first success wins, otherwise every reason is kept", "[framework]") {
  Registry registry = test_registry();
  Framework fw = make_framework(registry);
  auto state = fw.new_cycle_state();
  NodeStatuses statuses = {{"a", PluginStatus::unschedulable("x")}, {"b", PluginStatus::unschedulable("y")}};
  PostFilterResult nominated = fw.run_post_filter(*state, *pod_with_labels({{"nominate", "b"}}), statuses);
  CHECK(nominated.status.ok());
  CHECK(nominated.status.plugin == "Nominator");
  CHECK(nominated.nominated_node == std::optional<std::string>("b"));
  PostFilterResult rejected = fw.run_post_filter(*state, *pod_with_labels({}), statuses);
  CHECK(rejected.status.code == Code::unschedulable);
  CHECK(rejected.status.plugin == "Nominator");
  CHECK(rejected.message == "Nominator: 2 nodes, none helps, SecondNominator: 2 nodes, none helps");
  CHECK(fit_error_message(2, {{"x", 1}, {"y", 1}}, rejected.message) ==
        "0/2 nodes are available: 1 x, 1 y. Nominator: 2 nodes, none helps, SecondNominator: 2 nodes, none helps.");
}
