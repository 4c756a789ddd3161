// Lock-free metrics and their way into the registry: AtomicHistogram,
// MetricsRegistry::merge and collectors, FrameworkMetrics (extension point
// and plugin durations as kube-scheduler labels them) and the per-actor-kind
// counters.
#include <catch2/catch.hpp>

#include <thread>

#include "actors/actor_metrics.hpp"
#include "actors/atomic_histogram.hpp"
#include "actors/framework_metrics.hpp"
#include "actors/metrics_registry.hpp"
#include "config/scheduler_config.hpp"
#include "plugins/priority_sort/priority_sort.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

class AlwaysFits : public plugins::FilterPlugin {
 public:
  std::string_view name() const override { return "AlwaysFits"; }
  plugins::PluginStatus filter(const plugins::CycleState&, const plugins::PodInfo&,
                               const plugins::NodeInfo&) const override {
    return {};
  }
};

class Binds : public plugins::BindPlugin {
 public:
  std::string_view name() const override { return "Binds"; }
  plugins::PluginStatus bind(const plugins::CycleState&, const plugins::PodInfo&, const std::string&) const override {
    return {};
  }
};

template <class T>
plugins::PluginFactory factory() {
  return [](const YAML::Node&) -> Result<std::shared_ptr<const plugins::Plugin>> {
    return std::shared_ptr<const plugins::Plugin>(std::make_shared<const T>());
  };
}

plugins::Framework small_framework() {
  static plugins::Registry registry = [] {
    plugins::Registry r;
    REQUIRE(r.add("PrioritySort", factory<plugins::PrioritySort>(), true, 0));
    REQUIRE(r.add("AlwaysFits", factory<AlwaysFits>(), true, 0));
    REQUIRE(r.add("Binds", factory<Binds>(), true, 0));
    return r;
  }();
  auto config = config::parse_scheduler_configuration(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
      "profiles: [{schedulerName: fast}]\n",
      registry.catalog());
  if (!config) FAIL(config.message());
  auto fw = plugins::Framework::create(config->profiles[0], registry);
  if (!fw) FAIL(fw.message());
  return std::move(fw).value();
}

bool contains(const std::string& text, const std::string& line) { return text.find(line) != std::string::npos; }

}  // namespace

TEST_CASE("AtomicHistogram counts each value in the first bucket whose bound is not below it", "[observability]") {
  AtomicHistogram h(std::make_shared<const std::vector<double>>(std::vector<double>{0.1, 1, 10}));
  struct Case {
    double value;
    size_t bucket;
  };
  for (const Case& c : std::vector<Case>{{0, 0}, {0.1, 0}, {0.5, 1}, {1, 1}, {9.99, 2}, {10, 2}, {11, 3}, {1e9, 3}}) {
    INFO(c.value);
    h.observe(c.value);
    auto delta = h.drain();
    CHECK(delta.count == 1);
    CHECK(delta.bucket_counts[c.bucket] == 1);
    CHECK(delta.sum == Approx(c.value));
  }
  CHECK(h.drain().count == 0);  // drained
}

TEST_CASE("AtomicHistogram loses nothing under concurrent observers", "[observability]") {
  AtomicHistogram h(std::make_shared<const std::vector<double>>(exponential_buckets(0.001, 2, 10)));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&h] {
      for (int i = 0; i < 10000; ++i) h.observe(0.003);
    });
  uint64_t drained = 0;
  for (int i = 0; i < 50; ++i) drained += h.drain().count;  // drain while they run
  for (auto& t : threads) t.join();
  drained += h.drain().count;
  CHECK(drained == 40000);
}

TEST_CASE("MetricsRegistry merges drained histograms and runs collectors at render", "[observability]") {
  MetricsRegistry r;
  r.declare("d_seconds", MetricsRegistry::Type::histogram, "help", {"k"}, {1, 2});
  HistogramDelta delta{{1, 0, 2}, 7.5, 3};  // one at <=1, two above every bound
  r.merge("d_seconds", {"a"}, delta);
  r.merge("d_seconds", {"b"}, HistogramDelta{{0, 0, 0}, 0, 0});  // empty: no series
  int runs = 0;
  r.add_collector([&runs](MetricsRegistry& reg) {
    ++runs;
    reg.merge("d_seconds", {"a"}, HistogramDelta{{0, 1, 0}, 1.5, 1});
  });
  const std::string text = r.render();
  CHECK(runs == 1);
  CHECK(contains(text, "d_seconds_bucket{k=\"a\",le=\"1\"} 1\n"));
  CHECK(contains(text, "d_seconds_bucket{k=\"a\",le=\"2\"} 2\n"));
  CHECK(contains(text, "d_seconds_bucket{k=\"a\",le=\"+Inf\"} 4\n"));
  CHECK(contains(text, "d_seconds_sum{k=\"a\"} 9\n"));
  CHECK_FALSE(contains(text, "k=\"b\""));
  CHECK(r.buckets("d_seconds") == std::vector<double>{1, 2});
  CHECK(r.buckets("nope").empty());
  CHECK_THROWS(r.merge("nope", {"a"}, delta));  // undeclared: a bug in troupe
}

TEST_CASE("FrameworkMetrics renders kube-scheduler's two duration families", "[observability]") {
  auto registry = std::make_shared<MetricsRegistry>();
  declare_scheduler_metrics(*registry);
  plugins::Framework fw = small_framework();
  fw.set_plugin_metrics_sample_percent(100);
  observe_framework(fw, registry);

  auto state = fw.new_cycle_state();
  REQUIRE(fw.records_plugin_metrics(*state));
  plugins::PodInfo pod;
  REQUIRE(fw.run_pre_filter(*state, pod).ok());
  fw.record_extension_point(plugins::MetricPoint::filter, plugins::Code::unschedulable, 0.002);
  plugins::NodeInfo node;
  node.set_node(std::make_shared<const Node>());
  REQUIRE(fw.run_filter(*state, pod, node).ok());

  const std::string text = registry->render();
  CHECK(contains(text, "scheduler_framework_extension_point_duration_seconds_count{extension_point=\"PreFilter\","
                       "status=\"Success\",profile=\"fast\"} 1\n"));
  CHECK(contains(text, "scheduler_framework_extension_point_duration_seconds_sum{extension_point=\"Filter\","
                       "status=\"Unschedulable\",profile=\"fast\"} 0.002\n"));
  CHECK(contains(text, "scheduler_plugin_execution_duration_seconds_count{plugin=\"AlwaysFits\","
                       "extension_point=\"Filter\",status=\"Success\"} 1\n"));
  // Upstream buckets: 12 for extension points from 0.1 ms, 20 for plugins from 10 µs.
  CHECK(registry->buckets("scheduler_framework_extension_point_duration_seconds") ==
        exponential_buckets(0.0001, 2, 12));
  CHECK(registry->buckets("scheduler_plugin_execution_duration_seconds") == exponential_buckets(0.00001, 1.5, 20));
  // A second render adds nothing new: the counters were drained.
  CHECK(registry->count("scheduler_plugin_execution_duration_seconds", {"AlwaysFits", "Filter", "Success"}) == 1);
  registry->render();
  CHECK(registry->count("scheduler_plugin_execution_duration_seconds", {"AlwaysFits", "Filter", "Success"}) == 1);
}

TEST_CASE("FrameworkMetrics ignores calls it has no histogram for", "[observability]") {
  MetricsRegistry registry;
  declare_scheduler_metrics(registry);
  plugins::Framework fw = small_framework();
  FrameworkMetrics metrics(fw, registry);
  metrics.plugin_done(99, plugins::MetricPoint::filter, plugins::Code::success, 0.1);  // no such slot
  size_t sort_slot = 0;
  while (fw.plugin_name(sort_slot) != "PrioritySort") ++sort_slot;
  metrics.plugin_done(sort_slot, plugins::MetricPoint::filter, plugins::Code::success, 0.1);  // not a filter
  metrics.drain_into(registry);
  CHECK_FALSE(contains(registry.render(), "scheduler_plugin_execution_duration_seconds_count"));
}

TEST_CASE("actor metrics: one series per kind, depth summed over the kind's actors", "[observability]") {
  auto registry = std::make_shared<MetricsRegistry>();
  declare_scheduler_metrics(*registry);
  auto first = actor_metrics(registry, "node");
  auto second = actor_metrics(registry, "node");
  auto queue = actor_metrics(registry, "queue");
  REQUIRE(first);
  CHECK(first.kind == second.kind);
  CHECK(first.depth != second.depth);
  first.depth->store(3);
  second.depth->store(4);
  queue.depth->store(1);
  for (int i = 0; i < 5; ++i) first.kind->handled(0.0001);
  second.kind->handled(0.5);
  queue.kind->handled(0.001);

  registry->collect();
  CHECK(registry->value("troupe_actor_mailbox_depth", {"node"}) == 7);
  CHECK(registry->value("troupe_actor_mailbox_depth", {"queue"}) == 1);
  CHECK(registry->value("troupe_actor_messages_total", {"node"}) == 6);
  CHECK(registry->count("troupe_actor_message_duration_seconds", {"node"}) == 6);
  registry->collect();  // counters move once
  CHECK(registry->value("troupe_actor_messages_total", {"node"}) == 6);
  CHECK_FALSE(actor_metrics(nullptr, "node"));
}
