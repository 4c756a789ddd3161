#include <catch2/catch.hpp>

#include "actors/metrics_registry.hpp"

using troupe::actors::MetricsRegistry;

TEST_CASE("counters and gauges render one sample per label set") {
  MetricsRegistry r;
  r.declare("x_total", MetricsRegistry::Type::counter, "Things.", {"result"});
  r.declare("depth", MetricsRegistry::Type::gauge, "Depth with \\ and\nnewline.", {});
  r.add("x_total", {"ok"});
  r.add("x_total", {"ok"}, 2);
  r.add("x_total", {"a\"b"});
  r.set("depth", {}, 7);
  CHECK(r.value("x_total", {"ok"}) == 3);
  CHECK(r.render() ==
        "# HELP depth Depth with \\\\ and\\nnewline.\n"
        "# TYPE depth gauge\n"
        "depth 7\n"
        "# HELP x_total Things.\n"
        "# TYPE x_total counter\n"
        "x_total{result=\"a\\\"b\"} 1\n"
        "x_total{result=\"ok\"} 3\n");
}

TEST_CASE("histograms render cumulative buckets, +Inf, sum and count") {
  MetricsRegistry r;
  r.declare("lat", MetricsRegistry::Type::histogram, "Latency.", {"p"}, {0.1, 1});
  for (double v : {0.05, 0.1, 0.5, 2.0}) r.observe("lat", {"a"}, v);
  CHECK(r.count("lat", {"a"}) == 4);
  CHECK(r.render() ==
        "# HELP lat Latency.\n"
        "# TYPE lat histogram\n"
        "lat_bucket{p=\"a\",le=\"0.10000000000000001\"} 2\n"
        "lat_bucket{p=\"a\",le=\"1\"} 3\n"
        "lat_bucket{p=\"a\",le=\"+Inf\"} 4\n"
        "lat_sum{p=\"a\"} 2.6499999999999999\n"
        "lat_count{p=\"a\"} 4\n");
}

TEST_CASE("misuse of a metric is a programming error, reported loudly") {
  MetricsRegistry r;
  r.declare("c_total", MetricsRegistry::Type::counter, "C.", {"a"});
  CHECK_THROWS(r.add("nope_total", {}));
  CHECK_THROWS(r.add("c_total", {}));
  CHECK_THROWS(r.observe("c_total", {"x"}, 1));
}

TEST_CASE("the scheduler's metric families are declared with kube-scheduler's names") {
  MetricsRegistry r;
  troupe::actors::declare_scheduler_metrics(r);
  r.add("scheduler_schedule_attempts_total", {"p", "scheduled"});
  r.set("scheduler_pending_pods", {"active"}, 3);
  auto text = r.render();
  CHECK(text.find("scheduler_schedule_attempts_total{profile=\"p\",result=\"scheduled\"} 1\n") != std::string::npos);
  CHECK(text.find("scheduler_pending_pods{queue=\"active\"} 3\n") != std::string::npos);
  CHECK(text.find("# TYPE scheduler_pod_scheduling_sli_duration_seconds histogram\n") != std::string::npos);
}

TEST_CASE("replace makes the listed series a gauge family's whole content") {
  MetricsRegistry r;
  r.declare("phase", MetricsRegistry::Type::gauge, "Phase.", {"name"});
  r.set("phase", {"gone"}, 1);
  r.replace("phase", {{{"a"}, 1}, {{"b"}, 0}});
  CHECK(r.render() ==
        "# HELP phase Phase.\n"
        "# TYPE phase gauge\n"
        "phase{name=\"a\"} 1\n"
        "phase{name=\"b\"} 0\n");
  r.replace("phase", {});
  CHECK(r.render() == "# HELP phase Phase.\n# TYPE phase gauge\n");
  CHECK_THROWS(r.replace("nope", {}));
  // A bad entry is found before anything changes: the family keeps its series.
  r.replace("phase", {{{"kept"}, 2}});
  CHECK_THROWS(r.replace("phase", {{{"a"}, 1}, {{"a", "extra"}, 1}}));
  CHECK(r.render() == "# HELP phase Phase.\n# TYPE phase gauge\nphase{name=\"kept\"} 2\n");
  r.declare("count", MetricsRegistry::Type::counter, "Count.", {});
  CHECK_THROWS(r.replace("count", {}));
}
