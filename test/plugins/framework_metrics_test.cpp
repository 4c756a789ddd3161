// The Framework's FrameworkObserver reports: which extension points and
// plugin calls it times, with which status, and how it samples cycles.

#include <catch2/catch.hpp>

#include <mutex>
#include <tuple>

#include "config/scheduler_config.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/normalize_score.hpp"
#include "plugins/priority_sort/priority_sort.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

namespace {

bool has_label(const PodInfo& pod, const char* key) { return pod.meta().labels.count(key) > 0; }

/// One plugin at most points; pod labels choose what it answers.
class Gate : public PreFilterPlugin,
             public FilterPlugin,
             public PostFilterPlugin,
             public PreScorePlugin,
             public ReservePlugin,
             public PermitPlugin,
             public PreBindPlugin,
             public PostBindPlugin {
 public:
  std::string_view name() const override { return "Gate"; }
  PluginStatus pre_filter(CycleState&, const PodInfo& pod, PreFilterResult&) const override {
    if (has_label(pod, "pf-reject")) return PluginStatus::unschedulable("gate says no");
    if (has_label(pod, "pf-unresolvable")) return PluginStatus::unresolvable("never");
    if (has_label(pod, "pf-error")) return PluginStatus::internal_error("boom");
    if (has_label(pod, "pf-skip")) return PluginStatus(Code::skip);
    return {};
  }
  PluginStatus filter(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    if (node.node()->meta.labels.count("bad")) return PluginStatus::unschedulable("bad node");
    if (node.node()->meta.labels.count("broken")) return PluginStatus::internal_error("disk on fire");
    return {};
  }
  PostFilterResult post_filter(CycleState&, const PodInfo&, const NodeStatuses&) const override {
    PostFilterResult r;
    r.status = PluginStatus::unschedulable("no help");
    return r;
  }
  PluginStatus pre_score(CycleState&, const PodInfo&) const override { return {}; }
  PluginStatus reserve(CycleState&, const PodInfo& pod, NodeInfo&) const override {
    if (has_label(pod, "no-reserve")) return PluginStatus::unschedulable("cannot reserve");
    return {};
  }
  void unreserve(CycleState&, const PodInfo&, NodeInfo&) const override {}
  PermitResult permit(CycleState&, const PodInfo& pod, const std::string&) const override {
    PermitResult r;
    if (has_label(pod, "wait")) {
      r.status = PluginStatus(Code::wait);
      r.timeout = std::chrono::seconds(1);
    }
    if (has_label(pod, "deny")) r.status = PluginStatus::unschedulable("denied");
    return r;
  }
  PluginStatus pre_bind(CycleState&, const PodInfo& pod, const std::string&, BindingChanges&) const override {
    if (has_label(pod, "prebind-error")) return PluginStatus::internal_error("api down");
    return {};
  }
  void post_bind(const CycleState&, const PodInfo&, const std::string&) const override {}
};

/// A Filter that passes everything, run after Gate.
class Pass : public FilterPlugin {
 public:
  std::string_view name() const override { return "Pass"; }
  PluginStatus filter(const CycleState&, const PodInfo&, const NodeInfo&) const override { return {}; }
};

/// A profile needs a bind plugin.
class Binder : public BindPlugin {
 public:
  std::string_view name() const override { return "Binder"; }
  PluginStatus bind(const CycleState&, const PodInfo&, const std::string&) const override { return {}; }
};

/// Score with NormalizeScore (node label "raw").
class Raw : public ScorePlugin {
 public:
  std::string_view name() const override { return "Raw"; }
  ScoreResult score(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    ScoreResult r;
    auto it = node.node()->meta.labels.find("raw");
    if (it != node.node()->meta.labels.end()) r.score = std::stoll(it->second);
    return r;
  }
  bool has_normalize_score() const override { return true; }
  PluginStatus normalize_scores(const CycleState&, const PodInfo&, std::vector<int64_t>& scores) const override {
    default_normalize_score(kMaxNodeScore, false, scores);
    return {};
  }
};

struct PointRecord {
  MetricPoint point;
  Code code;
  bool operator==(const PointRecord& o) const { return point == o.point && code == o.code; }
};
struct PluginRecord {
  std::string plugin;
  MetricPoint point;
  Code code;
  bool operator==(const PluginRecord& o) const {
    return plugin == o.plugin && point == o.point && code == o.code;
  }
};

class Recorder : public FrameworkObserver {
 public:
  explicit Recorder(const Framework* fw = nullptr) : fw_(fw) {}
  void bind(const Framework* fw) { fw_ = fw; }
  void extension_point_done(MetricPoint point, Code code, double seconds) override {
    std::lock_guard<std::mutex> lock(mutex_);
    CHECK(seconds >= 0);
    points.push_back({point, code});
  }
  void plugin_done(size_t slot, MetricPoint point, Code code, double seconds) override {
    std::lock_guard<std::mutex> lock(mutex_);
    CHECK(seconds >= 0);
    plugin_calls.push_back({std::string(fw_->plugin_name(slot)), point, code});
  }
  void clear() {
    points.clear();
    plugin_calls.clear();
  }
  std::vector<PointRecord> points;
  std::vector<PluginRecord> plugin_calls;

 private:
  const Framework* fw_;
  std::mutex mutex_;
};

template <class T>
PluginFactory factory() {
  return [](const YAML::Node&) -> Result<std::shared_ptr<const Plugin>> {
    return std::shared_ptr<const Plugin>(std::make_shared<const T>());
  };
}

Registry metrics_registry() {
  Registry r;
  REQUIRE(r.add("PrioritySort", factory<PrioritySort>(), true, 0));
  REQUIRE(r.add("Gate", factory<Gate>(), true, 0));
  REQUIRE(r.add("Pass", factory<Pass>(), true, 0));
  REQUIRE(r.add("Raw", factory<Raw>(), true, 1));
  REQUIRE(r.add("Binder", factory<Binder>(), true, 0));
  return r;
}

/// A framework with every test plugin, observed by `recorder`, timing every cycle.
Framework observed_framework(const Registry& registry, const std::shared_ptr<Recorder>& recorder,
                             uint64_t sample_percent = 100) {
  auto config = config::parse_scheduler_configuration(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n", registry.catalog());
  if (!config) FAIL(config.message());
  auto fw = Framework::create(config->profiles[0], registry);
  if (!fw) FAIL(fw.message());
  Framework framework = std::move(fw).value();
  framework.set_observer(recorder);
  framework.set_plugin_metrics_sample_percent(sample_percent);
  return framework;
}

std::shared_ptr<const PodInfo> pod_labelled(std::vector<std::string> keys) {
  Pod pod = PodBuilder("p").container({{"cpu", "1"}}).pod();
  for (auto& k : keys) pod.meta.labels[k] = "x";
  return PodInfo::make(pod);
}

NodeInfo node_labelled(const std::string& name, std::map<std::string, std::string> labels) {
  NodeBuilder b(name);
  b.allocatable({{"cpu", "4"}, {"pods", "10"}});
  for (auto& [k, v] : labels) b.label(k, v);
  return b.info();
}

}  // namespace

TEST_CASE("PreFilter is timed with the status it ends with", "[framework-metrics]") {
  struct Case {
    const char* label;
    Code point_code;   // the extension point's status
    Code plugin_code;  // Gate's own answer
  };
  const std::vector<Case> cases = {
      {"none", Code::success, Code::success},
      {"pf-reject", Code::unschedulable, Code::unschedulable},
      {"pf-unresolvable", Code::unschedulable_and_unresolvable, Code::unschedulable_and_unresolvable},
      {"pf-error", Code::error, Code::error},
      {"pf-skip", Code::success, Code::skip},
  };
  Registry registry = metrics_registry();
  for (const auto& c : cases) {
    SECTION(c.label) {
      auto recorder = std::make_shared<Recorder>();
      Framework fw = observed_framework(registry, recorder);
      recorder->bind(&fw);
      auto state = fw.new_cycle_state();
      auto pod = pod_labelled({c.label});
      (void)fw.run_pre_filter(*state, *pod);
      CHECK(recorder->points == std::vector<PointRecord>{{MetricPoint::pre_filter, c.point_code}});
      CHECK(recorder->plugin_calls == std::vector<PluginRecord>{{"Gate", MetricPoint::pre_filter, c.plugin_code}});
    }
  }
}

TEST_CASE("Filter times each plugin it calls, up to the first failure, and not the point", "[framework-metrics]") {
  Registry registry = metrics_registry();
  auto recorder = std::make_shared<Recorder>();
  Framework fw = observed_framework(registry, recorder);
  recorder->bind(&fw);
  auto state = fw.new_cycle_state();
  auto pod = pod_labelled({});
  REQUIRE(fw.run_pre_filter(*state, *pod).ok());
  recorder->clear();

  NodeInfo good = node_labelled("good", {});
  NodeInfo bad = node_labelled("bad", {{"bad", "1"}});
  NodeInfo broken = node_labelled("broken", {{"broken", "1"}});
  CHECK(fw.run_filter(*state, *pod, good).ok());
  CHECK(recorder->plugin_calls == std::vector<PluginRecord>{{"Gate", MetricPoint::filter, Code::success},
                                                             {"Pass", MetricPoint::filter, Code::success}});
  recorder->clear();
  CHECK_FALSE(fw.run_filter(*state, *pod, bad).ok());
  CHECK(recorder->plugin_calls == std::vector<PluginRecord>{{"Gate", MetricPoint::filter, Code::unschedulable}});
  recorder->clear();
  CHECK(fw.run_filter(*state, *pod, broken).code == Code::error);
  CHECK(recorder->plugin_calls == std::vector<PluginRecord>{{"Gate", MetricPoint::filter, Code::error}});
  // The cycle owns the fan-out, so it reports Filter's duration.
  CHECK(recorder->points.empty());
  fw.record_extension_point(MetricPoint::filter, Code::success, 0.25);
  CHECK(recorder->points == std::vector<PointRecord>{{MetricPoint::filter, Code::success}});
}

TEST_CASE("Score and NormalizeScore plugin calls are timed; PreScore and PostFilter as points", "[framework-metrics]") {
  Registry registry = metrics_registry();
  auto recorder = std::make_shared<Recorder>();
  Framework fw = observed_framework(registry, recorder);
  recorder->bind(&fw);
  auto state = fw.new_cycle_state();
  auto pod = pod_labelled({});
  REQUIRE(fw.run_pre_filter(*state, *pod).ok());
  REQUIRE(fw.run_pre_score(*state, *pod).ok());
  NodeInfo a = node_labelled("a", {{"raw", "5"}});
  NodeInfo b = node_labelled("b", {{"raw", "10"}});
  std::vector<NodeScore> scores(2);
  REQUIRE(fw.score_node(*state, *pod, a, scores[0]).ok());
  REQUIRE(fw.score_node(*state, *pod, b, scores[1]).ok());
  REQUIRE(fw.finalize_scores(*state, *pod, scores).ok());
  (void)fw.run_post_filter(*state, *pod, {});
  CHECK(recorder->points == std::vector<PointRecord>{{MetricPoint::pre_filter, Code::success},
                                                     {MetricPoint::pre_score, Code::success},
                                                     {MetricPoint::post_filter, Code::unschedulable}});
  CHECK(recorder->plugin_calls == std::vector<PluginRecord>{{"Gate", MetricPoint::pre_filter, Code::success},
                                                            {"Gate", MetricPoint::pre_score, Code::success},
                                                            {"Raw", MetricPoint::score, Code::success},
                                                            {"Raw", MetricPoint::score, Code::success},
                                                            {"Raw", MetricPoint::score_normalize, Code::success},
                                                            {"Gate", MetricPoint::post_filter, Code::unschedulable}});
}

TEST_CASE("Reserve, Unreserve, Permit, PreBind and PostBind are timed with their status", "[framework-metrics]") {
  struct Case {
    std::vector<std::string> labels;
    std::vector<PointRecord> points;
  };
  const std::vector<Case> cases = {
      {{},
       {{MetricPoint::reserve, Code::success},
        {MetricPoint::permit, Code::success},
        {MetricPoint::pre_bind, Code::success},
        {MetricPoint::post_bind, Code::success}}},
      {{"no-reserve"}, {{MetricPoint::unreserve, Code::success}, {MetricPoint::reserve, Code::unschedulable}}},
      {{"wait"}, {{MetricPoint::reserve, Code::success}, {MetricPoint::permit, Code::wait}}},
      {{"deny"}, {{MetricPoint::reserve, Code::success}, {MetricPoint::permit, Code::unschedulable}}},
      {{"prebind-error"},
       {{MetricPoint::reserve, Code::success}, {MetricPoint::permit, Code::success}, {MetricPoint::pre_bind, Code::error}}},
  };
  Registry registry = metrics_registry();
  for (size_t i = 0; i < cases.size(); ++i) {
    DYNAMIC_SECTION("case " << i) {
      auto recorder = std::make_shared<Recorder>();
      Framework fw = observed_framework(registry, recorder);
      recorder->bind(&fw);
      auto state = fw.new_cycle_state();
      auto pod = pod_labelled(cases[i].labels);
      NodeInfo node = node_labelled("n", {});
      // The binding cycle stops at the first step that does not succeed, as the cycle actor does.
      if (fw.run_reserve(*state, pod, node).ok() && fw.run_permit(*state, *pod, "n").status.ok()) {
        BindingChanges changes;
        if (fw.run_pre_bind(*state, *pod, "n", changes).ok()) fw.run_post_bind(*state, *pod, "n");
      }
      CHECK(recorder->points == cases[i].points);
    }
  }
}

TEST_CASE("Plugin calls are timed only in sampled cycles; points always", "[framework-metrics]") {
  Registry registry = metrics_registry();
  auto pod = pod_labelled({});

  SECTION("never sampled") {
    auto recorder = std::make_shared<Recorder>();
    Framework fw = observed_framework(registry, recorder, 0);
    recorder->bind(&fw);
    auto state = fw.new_cycle_state();
    CHECK_FALSE(fw.records_plugin_metrics(*state));
    REQUIRE(fw.run_pre_filter(*state, *pod).ok());
    CHECK(recorder->points.size() == 1);
    CHECK(recorder->plugin_calls.empty());
  }
  SECTION("about one cycle in ten by default, as upstream") {
    auto recorder = std::make_shared<Recorder>();
    Framework fw = observed_framework(registry, recorder, kPluginMetricsSamplePercent);
    recorder->bind(&fw);
    int sampled = 0;
    for (int i = 0; i < 2000; ++i) sampled += fw.records_plugin_metrics(*fw.new_cycle_state()) ? 1 : 0;
    CHECK(sampled > 120);
    CHECK(sampled < 280);
  }
  SECTION("no observer: nothing is sampled") {
    auto config = config::parse_scheduler_configuration(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n", registry.catalog());
    REQUIRE(config);
    auto fw = Framework::create(config->profiles[0], registry);
    REQUIRE(fw);
    fw->set_plugin_metrics_sample_percent(100);
    CHECK_FALSE(fw->records_plugin_metrics(*fw->new_cycle_state()));
  }
}

TEST_CASE("plugin_name maps state slots back to plugin names", "[framework-metrics]") {
  Registry registry = metrics_registry();
  auto recorder = std::make_shared<Recorder>();
  Framework fw = observed_framework(registry, recorder);
  std::set<std::string> names;
  for (size_t slot = 0; slot < fw.plugin_count(); ++slot) names.insert(std::string(fw.plugin_name(slot)));
  CHECK(names == std::set<std::string>{"PrioritySort", "Gate", "Pass", "Raw", "Binder"});
  CHECK(fw.plugin_name(fw.plugin_count()).empty());
}
