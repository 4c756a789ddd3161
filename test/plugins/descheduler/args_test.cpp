#include "test/plugins/descheduler/helpers.hpp"

#include "plugins/descheduler/low_node_load_args.hpp"
#include "plugins/descheduler/migration_controller_args.hpp"

namespace troupe::plugins::descheduler {
namespace {

using testing::yaml;

TEST_CASE("LowNodeLoad args: defaults", "[descheduler][args]") {
  auto args = decode_low_node_load_args(YAML::Node());
  REQUIRE(args.ok());
  CHECK_FALSE(args->paused);
  CHECK_FALSE(args->dry_run);
  CHECK(args->number_of_nodes == 0);
  CHECK(args->node_metric_expiration_seconds == 180);
  CHECK(args->node_fit);
  CHECK(args->thresholds.anomaly.consecutive_abnormalities == 5);
  CHECK(args->thresholds.anomaly.consecutive_normalities == 3);
  CHECK(args->thresholds.anomaly.timeout == std::chrono::minutes(1));
  CHECK(args->detector_cache_timeout == std::chrono::minutes(5));
  CHECK(args->effective_detector_cache_timeout(std::chrono::minutes(10)) == std::chrono::minutes(10));
  CHECK(args->effective_detector_cache_timeout(std::chrono::minutes(1)) == std::chrono::minutes(5));
  REQUIRE(args->pools().size() == 1);
  CHECK(args->pools()[0].thresholds.weights == ResourceWeights{{"cpu", 1}, {"memory", 1}});
}

TEST_CASE("LowNodeLoad args: every field is read", "[descheduler][args]") {
  auto args = decode_low_node_load_args(yaml(R"(
paused: true
dryRun: true
numberOfNodes: 2
nodeMetricExpirationSeconds: 60
evictableNamespaces: {exclude: [kube-system]}
nodeSelector: {matchLabels: {pool: a}}
podSelectors: [{name: web, selector: {matchLabels: {app: web}}}]
nodeFit: false
useDeviationThresholds: true
highThresholds: {cpu: 70, memory: 80}
lowThresholds: {cpu: 30, memory: 40}
prodHighThresholds: {cpu: 60}
prodLowThresholds: {cpu: 20}
resourceWeights: {cpu: 3, memory: 0, nvidia.com/gpu: 2}
anomalyCondition: {timeout: 2m, consecutiveAbnormalities: 1, consecutiveNormalities: 4}
detectorCacheTimeout: 10m
nodePools:
- name: gpu
  nodeSelector: {matchLabels: {gpu: "true"}}
  highThresholds: {cpu: 90, memory: 90}
  lowThresholds: {cpu: 50, memory: 50}
)"));
  REQUIRE(args.ok());
  CHECK(args->paused);
  CHECK(args->dry_run);
  CHECK(args->number_of_nodes == 2);
  CHECK(args->node_metric_expiration_seconds == 60);
  REQUIRE(args->evictable_namespaces);
  CHECK(args->evictable_namespaces->exclude == std::vector<std::string>{"kube-system"});
  REQUIRE(args->node_selector);
  REQUIRE(args->pod_selectors.size() == 1);
  CHECK(args->pod_selectors[0].name == "web");
  CHECK_FALSE(args->node_fit);
  CHECK(args->thresholds.use_deviation);
  CHECK(args->thresholds.high.at("cpu") == 70);
  CHECK(args->thresholds.low.at("memory") == 40);
  CHECK(args->thresholds.prod_high.at("cpu") == 60);
  CHECK(args->thresholds.prod_low.at("cpu") == 20);
  CHECK(args->thresholds.weights == ResourceWeights{{"cpu", 3}, {"memory", 1}, {"nvidia.com/gpu", 2}});
  CHECK(args->thresholds.anomaly.consecutive_abnormalities == 1);
  CHECK(args->thresholds.anomaly.consecutive_normalities == 4);
  CHECK(args->thresholds.anomaly.timeout == std::chrono::minutes(2));
  CHECK(args->detector_cache_timeout == std::chrono::minutes(10));
  const auto pools = args->pools();
  REQUIRE(pools.size() == 1);
  CHECK(pools[0].name == "gpu");
  CHECK(pools[0].thresholds.high.at("cpu") == 90);
  CHECK(pools[0].thresholds.prod_high.at("cpu") == 60);   // inherited
  CHECK(pools[0].thresholds.use_deviation);               // inherited
  CHECK(pools[0].thresholds.anomaly.consecutive_abnormalities == 1);
}

TEST_CASE("LowNodeLoad args: errors name the field", "[descheduler][args]") {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"other: 1", "other"},
      {"[1]", "must be an object"},
      {"numberOfNodes: -1", "numberOfNodes: must not be negative"},
      {"nodeMetricExpirationSeconds: -5", "nodeMetricExpirationSeconds"},
      {"{highThresholds: {cpu: 101}, lowThresholds: {cpu: 1}}", "highThresholds.cpu: percentage must be between 0 and 100"},
      {"lowThresholds: {cpu: -1}", "lowThresholds.cpu"},
      {"lowThresholds: {cpu: x}", "lowThresholds.cpu"},
      {"highThresholds: [1]", "highThresholds: must be an object"},
      {"{highThresholds: {cpu: 50}, lowThresholds: {cpu: 60}}", "lowThresholds.cpu: 60 is above the highThresholds value 50"},
      {"highThresholds: {cpu: 50}", "lowThresholds: resource cpu is in highThresholds but not here"},
      {"lowThresholds: {cpu: 50}", "highThresholds: resource cpu is in lowThresholds but not here"},
      {"{prodHighThresholds: {cpu: 10}, prodLowThresholds: {cpu: 20}}", "prodLowThresholds.cpu"},
      {"evictableNamespaces: {include: [a], exclude: [b]}", "evictableNamespaces: only one of include and exclude"},
      {"podSelectors: [{name: a}]", "podSelectors[0].selector: is required"},
      {"podSelectors: [{name: a, selector: {matchLabels: {k: 'v v'}}}]", "podSelectors[0].selector.matchLabels.k"},
      {"anomalyCondition: {consecutiveAbnormalities: -1}", "anomalyCondition.consecutiveAbnormalities"},
      {"anomalyCondition: {timeout: soon}", "anomalyCondition.timeout"},
      {"anomalyCondition: {other: 1}", "anomalyCondition"},
      {"detectorCacheTimeout: x", "detectorCacheTimeout"},
      {"resourceWeights: {cpu: x}", "resourceWeights.cpu"},
      {"nodePools: [{highThresholds: {cpu: 5}, lowThresholds: {cpu: 1}}]", "nodePools[0].name: must not be empty"},
      {"nodePools: [{name: a, lowThresholds: {cpu: 90}, highThresholds: {cpu: 10}}]", "nodePools[0].lowThresholds.cpu"},
      {"nodePools: [{name: a, colour: red}]", "nodePools[0]"},
      {"nodePools: {}", "nodePools: must be a list"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto args = decode_low_node_load_args(yaml(c.text));
    REQUIRE_FALSE(args.ok());
    CHECK_THAT(args.message(), Catch::Contains(c.error));
  }
  // Deviation thresholds may have low above high (they are offsets from the mean).
  CHECK(decode_low_node_load_args(yaml("useDeviationThresholds: true\nhighThresholds: {cpu: 5}\nlowThresholds: {cpu: 10}")).ok());
}

TEST_CASE("MigrationController args: defaults", "[descheduler][args]") {
  auto args = decode_migration_controller_args(YAML::Node());
  REQUIRE(args.ok());
  CHECK_FALSE(args->dry_run);
  CHECK(args->max_concurrent_reconciles == 1);
  CHECK(*args->max_migrating_per_node == 2);
  CHECK_FALSE(args->max_migrating_globally);
  CHECK_FALSE(args->max_migrating_per_namespace);
  CHECK_FALSE(args->max_migrating_per_workload);
  CHECK_FALSE(args->max_unavailable_per_workload);
  CHECK_FALSE(args->skip_check_expected_replicas);
  REQUIRE(args->object_limiters.count("workload"));
  CHECK(args->object_limiters.at("workload").duration == std::chrono::minutes(5));
  CHECK(args->default_job_mode == "ReservationFirst");
  CHECK(args->default_job_ttl == std::chrono::minutes(5));
  CHECK(args->scheduler_names == std::vector<std::string>{"koord-scheduler"});
  CHECK(args->evict_qps == 10);
  CHECK(args->evict_burst == 1);
  CHECK(args->eviction_policy == "Eviction");
  CHECK(args->arbitration_enabled);
  CHECK(args->arbitration_interval == std::chrono::milliseconds(500));
  CHECK_FALSE(args->evictor.evict_all_bare_pods);
  CHECK_FALSE(args->evictor.node_fit);
}

TEST_CASE("MigrationController args: every field is read", "[descheduler][args]") {
  auto args = decode_migration_controller_args(yaml(R"(
dryRun: true
maxConcurrentReconciles: 3
evictFailedBarePods: true
evictAllBarePods: true
evictLocalStoragePods: true
evictSystemCriticalPods: true
ignorePvcPods: true
priorityThreshold: {value: 1000}
labelSelector: {matchLabels: {app: web}}
namespaces: {include: [a, b]}
nodeFit: true
skipEvictionGates: [BarePods, NodeFit]
nodeSelector: "pool=a"
maxMigratingGlobally: 10
maxMigratingPerNode: 1
maxMigratingPerNamespace: 4
maxMigratingPerWorkload: "20%"
maxUnavailablePerWorkload: 3
skipCheckExpectedReplicas: true
objectLimiters: {workload: {duration: 10m, maxMigrating: 2, burst: 2}}
defaultJobMode: EvictDirectly
defaultJobTTL: 1h
schedulerNames: [a, b]
evictQPS: "2.5"
evictBurst: 4
evictionPolicy: SoftEviction
defaultDeleteOptions: {gracePeriodSeconds: 0}
arbitrationArgs: {enabled: false, interval: 1s}
)"));
  REQUIRE(args.ok());
  CHECK(args->dry_run);
  CHECK(args->max_concurrent_reconciles == 3);
  CHECK(args->evictor.evict_failed_bare_pods);
  CHECK(args->evictor.evict_all_bare_pods);
  CHECK(args->evictor.evict_local_storage_pods);
  CHECK(args->evictor.evict_system_critical_pods);
  CHECK(args->evictor.ignore_pvc_pods);
  CHECK(*args->evictor.priority_threshold->value == 1000);
  CHECK(args->evictor.label_selector->matches({{"app", "web"}}));
  CHECK(args->evictor.namespaces->include == std::vector<std::string>{"a", "b"});
  CHECK(args->evictor.node_fit);
  CHECK(args->evictor.skipped_gates == std::set<std::string>{"BarePods", "NodeFit"});
  CHECK(args->node_selector == "pool=a");
  CHECK(*args->max_migrating_globally == 10);
  CHECK(*args->max_migrating_per_node == 1);
  CHECK(*args->max_migrating_per_namespace == 4);
  CHECK(args->max_migrating_per_workload->to_string() == "20%");
  CHECK(args->max_unavailable_per_workload->to_string() == "3");
  CHECK(args->skip_check_expected_replicas);
  const auto& limiter = args->object_limiters.at("workload");
  CHECK(limiter.duration == std::chrono::minutes(10));
  CHECK(limiter.max_migrating->to_string() == "2");
  CHECK(limiter.burst == 2);
  CHECK(args->default_job_mode == "EvictDirectly");
  CHECK(args->default_job_ttl == std::chrono::hours(1));
  CHECK(args->scheduler_names == std::vector<std::string>{"a", "b"});
  CHECK(args->evict_qps == 2.5);
  CHECK(args->evict_burst == 4);
  CHECK(args->eviction_policy == "SoftEviction");
  CHECK(args->default_delete_options["gracePeriodSeconds"].as<int>() == 0);
  CHECK_FALSE(args->arbitration_enabled);
  CHECK(args->arbitration_interval == std::chrono::seconds(1));
  CHECK(decode_migration_controller_args(yaml("evictQPS: 7")).value().evict_qps == 7);
}

TEST_CASE("MigrationController args: errors name the field", "[descheduler][args]") {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"colour: red", "colour"},
      {"defaultJobMode: Teleport", "defaultJobMode: must be ReservationFirst or EvictDirectly"},
      {"evictionPolicy: Nuke", "evictionPolicy: must be Eviction, Delete or SoftEviction"},
      {"evictQPS: fast", "evictQPS: \"fast\" is not a number"},
      {"evictQPS: -1", "evictQPS: must not be negative"},
      {"evictBurst: 0", "evictBurst: must be positive"},
      {"maxConcurrentReconciles: 0", "maxConcurrentReconciles"},
      {"maxMigratingPerNode: -1", "maxMigratingPerNode: must be between 0"},
      {"maxMigratingGlobally: x", "maxMigratingGlobally"},
      {"maxMigratingPerNamespace: -2", "maxMigratingPerNamespace"},
      {"maxMigratingPerWorkload: 'a%'", "maxMigratingPerWorkload: invalid percentage"},
      {"maxUnavailablePerWorkload: [1]", "maxUnavailablePerWorkload"},
      {"objectLimiters: {namespace: {duration: 1m}}", "objectLimiters.namespace: unknown limit object"},
      {"objectLimiters: {workload: {duration: x}}", "objectLimiters.workload.duration"},
      {"objectLimiters: {workload: {burst: -1}}", "objectLimiters.workload.burst"},
      {"objectLimiters: {workload: {maxMigrating: 'x'}}", "objectLimiters.workload.maxMigrating"},
      {"defaultJobTTL: forever", "defaultJobTTL"},
      {"defaultJobTTL: -1s", "defaultJobTTL: must not be negative"},
      {"schedulerNames: a", "schedulerNames: must be a list"},
      {"nodeSelector: 'a in ('", "nodeSelector"},
      {"arbitrationArgs: {interval: 0s}", "arbitrationArgs.interval: must be positive"},
      {"arbitrationArgs: {x: 1}", "arbitrationArgs"},
      {"priorityThreshold: {value: 1, name: a}", "priorityThreshold: only one of value and name"},
      {"priorityThreshold: {value: 99999999999}", "priorityThreshold.value"},
      {"priorityThreshold: {name: system-cluster-critical}",
       "priorityThreshold.name: not supported: troupe does not read PriorityClasses; give the value"},
      {"namespaces: {include: [a], exclude: [b]}", "namespaces: only one of include and exclude"},
      {"skipEvictionGates: [Nope]", "skipEvictionGates[0]: unknown eviction gate"},
      {"labelSelector: {matchExpressions: [{key: a, operator: Lt}]}", "labelSelector.matchExpressions[0].operator"},
      {"defaultDeleteOptions: 3", "defaultDeleteOptions: must be an object"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto args = decode_migration_controller_args(yaml(c.text));
    REQUIRE_FALSE(args.ok());
    CHECK_THAT(args.message(), Catch::Contains(c.error));
  }
}

}  // namespace
}  // namespace troupe::plugins::descheduler
