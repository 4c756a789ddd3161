// The descheduler's metric families: names, types, labels and buckets as
// the README and dashboards expect them.
#include <catch2/catch.hpp>

#include "actors/metrics_registry.hpp"
#include "actors/migration_actor.hpp"

using namespace troupe::actors;

TEST_CASE("migration metrics: evictions by plugin and result, jobs by phase, cycle duration") {
  MetricsRegistry registry;
  declare_migration_metrics(registry);
  declare_migration_metrics(registry);  // idempotent: the runtime may declare twice
  registry.add("troupe_descheduler_evictions_total", {"GPUDefragmentation", "success"});
  registry.add("troupe_descheduler_evictions_total", {"LowNodeLoad", "dry-run"}, 2);
  registry.add("descheduler_pods_evicted", {"success", "LowNodeLoad", "default", "n1"});
  registry.set("troupe_migration_jobs", {"Running"}, 3);
  registry.observe("troupe_descheduler_cycle_duration_seconds", {}, 0.003);
  const std::string text = registry.render();
  const char* expected[] = {
      "# TYPE troupe_descheduler_evictions_total counter",
      "troupe_descheduler_evictions_total{plugin=\"GPUDefragmentation\",result=\"success\"} 1",
      "troupe_descheduler_evictions_total{plugin=\"LowNodeLoad\",result=\"dry-run\"} 2",
      "# TYPE descheduler_pods_evicted counter",
      "descheduler_pods_evicted{result=\"success\",strategy=\"LowNodeLoad\",namespace=\"default\",node=\"n1\"} 1",
      "# TYPE troupe_migration_jobs gauge",
      "troupe_migration_jobs{phase=\"Running\"} 3",
      "# TYPE troupe_descheduler_cycle_duration_seconds histogram",
      "troupe_descheduler_cycle_duration_seconds_bucket{le=\"0.001\"} 0",
      "troupe_descheduler_cycle_duration_seconds_bucket{le=\"0.002\"} 0",
      "troupe_descheduler_cycle_duration_seconds_bucket{le=\"+Inf\"} 1",
      "troupe_descheduler_cycle_duration_seconds_count 1",
  };
  for (const char* line : expected) {
    INFO(line);
    CHECK_THAT(text, Catch::Contains(line));
  }
}
