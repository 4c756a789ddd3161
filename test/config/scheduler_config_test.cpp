#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "config/scheduler_config.hpp"
#include "test/config/test_catalog.hpp"

using namespace troupe::config;
using troupe::config::testing::make_test_catalog;

namespace {

const std::string kHeader = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

SchedulerConfiguration parse_ok(const std::string& body) {
  auto result = parse_scheduler_configuration(kHeader + body, make_test_catalog());
  INFO(body);
  if (!result) FAIL(result.message());
  return std::move(result).value();
}

std::string parse_error(const std::string& text) {
  auto result = parse_scheduler_configuration(text, make_test_catalog());
  if (result) FAIL("expected an error for:\n" << text);
  return result.message();
}

std::vector<std::string> names(const Profile& profile, ExtensionPoint point) {
  std::vector<std::string> out;
  for (const auto& p : profile.enabled_at(point)) out.push_back(p.name);
  return out;
}

std::vector<std::pair<std::string, int32_t>> weights(const Profile& profile) {
  std::vector<std::pair<std::string, int32_t>> out;
  for (const auto& p : profile.enabled_at(ExtensionPoint::score)) out.emplace_back(p.name, p.weight);
  return out;
}

using Weights = std::vector<std::pair<std::string, int32_t>>;
using Names = std::vector<std::string>;

}  // namespace

TEST_CASE("a configuration with only its type gets upstream defaults and troupe's scheduler name", "[config]") {
  auto config = parse_ok("");
  CHECK(config.parallelism == 16);
  CHECK(config.percentage_of_nodes_to_score == 0);
  CHECK(config.pod_initial_backoff_seconds == 1);
  CHECK(config.pod_max_backoff_seconds == 10);
  CHECK(config.client_connection.qps == 50);
  CHECK(config.client_connection.burst == 100);
  CHECK(config.client_connection.content_type == "application/vnd.kubernetes.protobuf");
  CHECK(config.leader_election.leader_elect);
  CHECK(config.leader_election.lease_duration == std::chrono::seconds(15));
  CHECK(config.leader_election.renew_deadline == std::chrono::seconds(10));
  CHECK(config.leader_election.retry_period == std::chrono::seconds(2));
  CHECK(config.leader_election.resource_lock == "leases");
  CHECK(config.leader_election.resource_namespace == "kube-system");
  CHECK(config.leader_election.resource_name == "troupe-scheduler");
  REQUIRE(config.profiles.size() == 1);
  const Profile& p = config.profiles[0];
  CHECK(p.scheduler_name == "troupe-scheduler");
  CHECK_FALSE(p.plugins_given);
  CHECK(names(p, ExtensionPoint::queue_sort) == Names{"PrioritySort"});
  CHECK(names(p, ExtensionPoint::pre_filter) == Names{"NodeAffinity", "NodeResourcesFit"});
  CHECK(names(p, ExtensionPoint::filter) ==
        Names{"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodeResourcesFit"});
  CHECK(weights(p) == Weights{{"TaintToleration", 3}, {"NodeAffinity", 2}, {"NodeResourcesFit", 1}});
  CHECK(names(p, ExtensionPoint::bind) == Names{"DefaultBinder"});
  CHECK(names(p, ExtensionPoint::permit).empty());
  CHECK(p.plugin_names() == Names{"PrioritySort", "NodeAffinity", "NodeResourcesFit", "NodeUnschedulable",
                                  "NodeName", "TaintToleration", "DefaultBinder"});
}

TEST_CASE("clientConnection's qps and burst of 0 mean unset, as kube-scheduler's defaults", "[config]") {
  auto config = parse_ok("clientConnection: {qps: 0, burst: 0}\n");
  CHECK(config.client_connection.qps == 50);
  CHECK(config.client_connection.burst == 100);
}

TEST_CASE("the leader-elect flag turning election on checks the leaderElection section again", "[config]") {
  auto config = parse_ok("leaderElection: {leaderElect: false, leaseDuration: 5s}\n");
  CHECK_FALSE(config.leader_election.leader_elect);
  CHECK(apply_leader_elect_flag(config, false));
  auto on = apply_leader_elect_flag(config, true);
  REQUIRE_FALSE(on);
  CHECK(on.message() == "leaderElection.leaseDuration: must be greater than renewDeadline");
  auto fine = parse_ok("leaderElection: {leaderElect: false}\n");
  CHECK(apply_leader_elect_flag(fine, true));
  CHECK(fine.leader_election.leader_elect);
}

TEST_CASE("top-level fields are read", "[config]") {
  auto config = parse_ok(R"(
parallelism: 4
percentageOfNodesToScore: 30
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 20
clientConnection: {kubeconfig: /etc/kube.conf, qps: 12.5, burst: 30, contentType: application/json}
leaderElection:
  leaderElect: false
  leaseDuration: 1m30s
  renewDeadline: 40s
  retryPeriod: 500ms
  resourceName: my-scheduler
  resourceNamespace: koordinator-system
extenders:
- urlPrefix: http://127.0.0.1:8888/scheduler
  filterVerb: filter
  prioritizeVerb: prioritize
  weight: 3
  httpTimeout: 5s
  nodeCacheCapable: true
  managedResources: [{name: koordinator.sh/gpu-core, ignoredByScheduler: true}]
troupe: {bindAddress: "127.0.0.1:9000", nodePartitions: 4, workerThreads: 2, bindConcurrency: 8, eventQueueSize: 500, evaluationCache: false}
profiles:
- schedulerName: a
  percentageOfNodesToScore: 70
)");
  CHECK(config.parallelism == 4);
  CHECK(config.percentage_of_nodes_to_score == 30);
  CHECK(config.pod_initial_backoff_seconds == 2);
  CHECK(config.pod_max_backoff_seconds == 20);
  CHECK(config.client_connection.kubeconfig == "/etc/kube.conf");
  CHECK(config.client_connection.qps == 12.5);
  CHECK(config.client_connection.burst == 30);
  CHECK(config.client_connection.content_type == "application/json");
  CHECK_FALSE(config.leader_election.leader_elect);
  CHECK(config.leader_election.lease_duration == std::chrono::seconds(90));
  CHECK(config.leader_election.retry_period == std::chrono::milliseconds(500));
  CHECK(config.leader_election.resource_name == "my-scheduler");
  CHECK(config.leader_election.resource_namespace == "koordinator-system");
  REQUIRE(config.extenders.size() == 1);
  CHECK(config.extenders[0].url_prefix == "http://127.0.0.1:8888/scheduler");
  CHECK(config.extenders[0].weight == 3);
  CHECK(config.extenders[0].http_timeout == std::chrono::seconds(5));
  CHECK(config.extenders[0].node_cache_capable);
  REQUIRE(config.extenders[0].managed_resources.size() == 1);
  CHECK(config.extenders[0].managed_resources[0].ignored_by_scheduler);
  CHECK(config.troupe.bind_address == "127.0.0.1:9000");
  CHECK(parse_ok("").troupe.bind_address == "0.0.0.0:10259");
  CHECK(config.troupe.node_partitions == 4);
  CHECK(config.troupe.worker_threads == 2);
  CHECK(config.troupe.bind_concurrency == 8);
  CHECK(config.troupe.event_queue_size == 500);
  CHECK_FALSE(config.troupe.evaluation_cache);
  CHECK(parse_ok("").troupe.evaluation_cache);
  REQUIRE(config.profiles.size() == 1);
  CHECK(config.profiles[0].scheduler_name == "a");
  CHECK(config.profiles[0].percentage_of_nodes_to_score == 70);
  CHECK(config.profile("a") == &config.profiles[0]);
  CHECK(config.profile("b") == nullptr);
}

TEST_CASE("multiPoint precedence follows kube-scheduler", "[config][multipoint]") {
  struct Case {
    const char* name;
    const char* plugins;
    Names filter;
    Weights score;
  };
  const Names default_filter = {"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
                                "NodeResourcesFit"};
  const std::vector<Case> cases = {
      {"score weight given at the score point overrides and moves first",
       "score: {enabled: [{name: NodeAffinity, weight: 5}]}", default_filter,
       {{"NodeAffinity", 5}, {"TaintToleration", 3}, {"NodeResourcesFit", 1}}},
      {"score point without weight means 1, not the default weight",
       "score: {enabled: [{name: NodeAffinity}]}", default_filter,
       {{"NodeAffinity", 1}, {"TaintToleration", 3}, {"NodeResourcesFit", 1}}},
      {"disabling at the score point keeps the plugin at other points",
       "score: {disabled: [{name: TaintToleration}]}", default_filter,
       {{"NodeAffinity", 2}, {"NodeResourcesFit", 1}}},
      {"disabling * at a point keeps only that point's own plugins",
       "score: {disabled: [{name: '*'}], enabled: [{name: NodeResourcesFit, weight: 2}]}", default_filter,
       {{"NodeResourcesFit", 2}}},
      {"multiPoint weight replaces the default in place",
       "multiPoint: {enabled: [{name: NodeAffinity, weight: 7}]}", default_filter,
       {{"TaintToleration", 3}, {"NodeAffinity", 7}, {"NodeResourcesFit", 1}}},
      {"a new multiPoint plugin is appended at every point it implements",
       "multiPoint: {enabled: [{name: Extra, weight: 4}]}",
       {"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodeResourcesFit", "Extra"},
       {{"TaintToleration", 3}, {"NodeAffinity", 2}, {"NodeResourcesFit", 1}, {"Extra", 4}}},
      {"a plugin enabled only at a point goes after the multiPoint ones",
       "filter: {enabled: [{name: Extra}]}",
       {"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodeResourcesFit", "Extra"},
       {{"TaintToleration", 3}, {"NodeAffinity", 2}, {"NodeResourcesFit", 1}}},
      {"re-enabling a default at a point puts the overrides first, in that point's order",
       "filter: {enabled: [{name: NodeResourcesFit}, {name: NodeName}]}",
       {"NodeResourcesFit", "NodeName", "NodeUnschedulable", "TaintToleration", "NodeAffinity"},
       {{"TaintToleration", 3}, {"NodeAffinity", 2}, {"NodeResourcesFit", 1}}},
      {"multiPoint disabled * drops every default",
       "multiPoint: {disabled: [{name: '*'}], enabled: [{name: PrioritySort}, {name: DefaultBinder}, {name: "
       "NodeName}]}",
       {"NodeName"}, {}},
      {"multiPoint disabled one default drops it everywhere",
       "multiPoint: {disabled: [{name: NodeAffinity}]}",
       {"NodeUnschedulable", "NodeName", "TaintToleration", "NodeResourcesFit"},
       {{"TaintToleration", 3}, {"NodeResourcesFit", 1}}},
      {"disabling a plugin troupe does not implement is a no-op",
       "postFilter: {disabled: [{name: DefaultPreemption}]}", default_filter,
       {{"TaintToleration", 3}, {"NodeAffinity", 2}, {"NodeResourcesFit", 1}}},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      auto config = parse_ok(std::string("profiles:\n- schedulerName: s\n  plugins:\n    ") + c.plugins + "\n");
      const Profile& p = config.profiles[0];
      CHECK(p.plugins_given);
      CHECK(names(p, ExtensionPoint::filter) == c.filter);
      CHECK(weights(p) == c.score);
    }
  }
}

TEST_CASE("a different queue sort is allowed when every profile uses it", "[config]") {
  auto config = parse_ok(R"(
profiles:
- schedulerName: a
  plugins: {queueSort: {disabled: [{name: '*'}], enabled: [{name: OtherSort}]}}
- schedulerName: b
  plugins: {queueSort: {disabled: [{name: PrioritySort}], enabled: [{name: OtherSort}]}}
)");
  CHECK(names(config.profiles[0], ExtensionPoint::queue_sort) == Names{"OtherSort"});
  CHECK(names(config.profiles[1], ExtensionPoint::queue_sort) == Names{"OtherSort"});
}

TEST_CASE("pluginConfig args are kept without their type fields", "[config]") {
  auto config = parse_ok(R"(
profiles:
- schedulerName: s
  pluginConfig:
  - name: NodeResourcesFit
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesFitArgs
      scoringStrategy: {type: MostAllocated}
  - name: DeviceShare
    args: {anything: goes}
)");
  const Profile& p = config.profiles[0];
  YAML::Node args = p.args_for("NodeResourcesFit");
  REQUIRE(args.IsMap());
  CHECK_FALSE(args["kind"]);
  CHECK_FALSE(args["apiVersion"]);
  CHECK(args["scoringStrategy"]["type"].Scalar() == "MostAllocated");
  CHECK(p.args_for("NodeAffinity").IsNull());
  CHECK(p.args_for("DeviceShare").IsMap());
}

TEST_CASE("configuration errors name the field", "[config][errors]") {
  struct Case {
    const char* body;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"profiles:\n- schedulerName: a\n- schedulerName: b\n  plugins: {score: {enabled: [{name: Foo}]}}\n",
       "profiles[1].plugins.score.enabled[0].name: unknown plugin \"Foo\""},
      {"profiles:\n- plugins: {filter: {enabled: [{name: DynamicResources}]}}\n",
       "profiles[0].plugins.filter.enabled[0].name: plugin \"DynamicResources\" is not implemented by troupe"},
      {"profiles:\n- plugins: {filter: {enabled: [{name: PrioritySort}]}}\n",
       "profiles[0].plugins.filter.enabled[0].name: plugin \"PrioritySort\" does not extend FilterPlugin"},
      {"profiles:\n- plugins: {filter: {enabled: [{name: NodeName}, {name: NodeName}]}}\n",
       "profiles[0].plugins.filter.enabled[1].name: plugin \"NodeName\" already registered as \"FilterPlugin\""},
      {"profiles:\n- plugins: {multiPoint: {enabled: [{name: Foo}]}}\n",
       "profiles[0].plugins.multiPoint.enabled[0].name: unknown plugin \"Foo\""},
      {"profiles:\n- plugins: {score: {disabled: [{name: Nope}]}}\n",
       "profiles[0].plugins.score.disabled[0].name: unknown plugin \"Nope\""},
      {"profiles:\n- plugins: {score: {enabled: [{name: NodeAffinity, weight: -1}]}}\n",
       "profiles[0].plugins.score.enabled[0].weight: must not be negative"},
      {"profiles:\n- plugins: {score: {enabled: [{name: NodeAffinity, weight: x}]}}\n",
       "profiles[0].plugins.score.enabled[0].weight: must be an integer, got \"x\""},
      {"profiles:\n- plugins: {scoring: {}}\n", "profiles[0].plugins.scoring: unknown field"},
      {"profiles:\n- plugins: {queueSort: {disabled: [{name: '*'}]}}\n",
       "profiles[0].plugins.queueSort: no queue sort plugin is enabled"},
      {"profiles:\n- plugins: {queueSort: {enabled: [{name: OtherSort}]}}\n",
       "profiles[0].plugins.queueSort: only one queue sort plugin can be enabled"},
      {"profiles:\n- plugins: {bind: {disabled: [{name: DefaultBinder}]}}\n",
       "profiles[0].plugins.bind: at least one bind plugin is needed"},
      {"profiles:\n- schedulerName: a\n- schedulerName: a\n", "profiles[1].schedulerName: duplicate value \"a\""},
      {"profiles:\n- schedulerName: ''\n", "profiles[0].schedulerName: Required value"},
      {"profiles:\n- schedulerName: a\n- schedulerName: b\n  plugins: {queueSort: {disabled: [{name: '*'}], "
       "enabled: [{name: OtherSort}]}}\n",
       "profiles[1].plugins.queueSort: must be the same for all profiles: profiles[0] uses \"PrioritySort\", this "
       "one \"OtherSort\""},
      {"profiles:\n- pluginConfig: [{name: NodeResourcesFit, args: {scoringStrategy: {type: Weird}}}]\n",
       "profiles[0].pluginConfig[0].args: scoringStrategy.type: unsupported value \"Weird\""},
      {"profiles:\n- pluginConfig: [{name: NodeResourcesFit, args: {kind: NodeAffinityArgs}}]\n",
       "profiles[0].pluginConfig[0].args.kind: must be \"NodeResourcesFitArgs\", got \"NodeAffinityArgs\""},
      {"profiles:\n- pluginConfig: [{name: NodeName}, {name: NodeName}]\n",
       "profiles[0].pluginConfig[1].name: duplicate value \"NodeName\""},
      {"profiles:\n- pluginConfig: [{name: Bogus}]\n", "profiles[0].pluginConfig[0].name: unknown plugin \"Bogus\""},
      {"profiles:\n- pluginConfig: [{name: NodeName, args: [1]}]\n",
       "profiles[0].pluginConfig[0].args: must be an object, got a list"},
      {"profiles:\n- percentageOfNodesToScore: 101\n",
       "profiles[0].percentageOfNodesToScore: 101 not in valid range [0-100]"},
      {"profiles: {}\n", "profiles: must be a list, got an object"},
      {"percentageOfNodesToScore: -1\n", "percentageOfNodesToScore: -1 not in valid range [0-100]"},
      {"parallelism: 0\n", "parallelism: should be an integer value greater than zero"},
      {"podInitialBackoffSeconds: 0\n", "podInitialBackoffSeconds: must be greater than 0"},
      {"podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 4\n",
       "podMaxBackoffSeconds: must be greater than or equal to podInitialBackoffSeconds"},
      {"leaderElection: {leaseDuration: 15 s}\n", "leaderElection.leaseDuration: time: "},
      {"leaderElection: {leaseDuration: 10s}\n", "leaderElection.leaseDuration: must be greater than renewDeadline"},
      {"leaderElection: {retryPeriod: 9s}\n",
       "leaderElection.renewDeadline: must be greater than retryPeriod*JitterFactor (1.2)"},
      {"leaderElection: {resourceLock: endpoints}\n",
       "leaderElection.resourceLock: unsupported value \"endpoints\": only \"leases\""},
      {"leaderElection: {leaderElect: maybe}\n", "leaderElection.leaderElect: must be true or false, got \"maybe\""},
      {"clientConnection: {qps: fast}\n", "clientConnection.qps: must be a number, got \"fast\""},
      {"clientConnection: {qps: nan}\n", "clientConnection.qps: must be a finite number"},
      {"clientConnection: {qps: -1}\n", "clientConnection.qps: must not be negative"},
      {"profiles:\n- schedulerName: a\n- plugins: {}\n", "profiles[1].schedulerName: Required value"},
      {"extenders: [{urlPrefix: 'http://x', prioritizeVerb: p}]\n",
       "extenders[0].weight: must have a positive weight applied to it"},
      {"extenders: [{urlPrefix: 'http://x', bindVerb: b}, {urlPrefix: 'http://y', bindVerb: b}]\n",
       "extenders[1].bindVerb: only one extender can implement bind, found 2"},
      {"extenders: [{filterVerb: f}]\n", "extenders[0].urlPrefix: Required value"},
      {"troupe: {bindConcurrency: 0}\n", "troupe.bindConcurrency: Invalid value: 0: must be between 1 and 1024"},
      {"troupe: {bindConcurrency: 40000}\n", "troupe.bindConcurrency: Invalid value: 40000: must be between 1 and 1024"},
      {"troupe: {workerThreads: 40000}\n", "troupe.workerThreads: Invalid value: 40000: must be between 0 and 1024"},
      {"troupe: {nodePartitions: 2000000000}\n",
       "troupe.nodePartitions: Invalid value: 2000000000: must be between 0 and 4096"},
      {"troupe: {nodePartitions: -1}\n", "troupe.nodePartitions: Invalid value: -1: must be between 0 and 4096"},
      {"troupe: {eventQueueSize: -1}\n", "troupe.eventQueueSize: Invalid value: -1: must be between 0 and 10000000"},
      {"troupe: {evaluationCache: sometimes}\n", "troupe.evaluationCache: must be true or false, got \"sometimes\""},
      {"schedulerName: x\n", "schedulerName: unknown field"},
      {"profiles:\n- {[a]: 1}\n", "profiles[0]: a key at line 4, column 4 is not a string"},
      {"parallelism: 4\nparallelism: 8\n",
       "parallelism: set twice in one map (at line 3, column 1 and line 4, column 1)"},
      {"profiles:\n- schedulerName: a\n  schedulerName: b\n",
       "profiles[0].schedulerName: set twice in one map (at line 4, column 3 and line 5, column 3)"},
      {"profiles:\n- pluginConfig: [{name: NodeResourcesFit, args: {scoringStrategy: {type: MostAllocated, "
       "type: LeastAllocated}}}]\n",
       "profiles[0].pluginConfig[0].args.scoringStrategy.type: set twice in one map (at line 4, column 68 and line "
       "4, column 89)"},
  };
  for (const auto& c : cases) {
    SECTION(c.message) {
      std::string message = parse_error(kHeader + c.body);
      CHECK_THAT(message, Catch::StartsWith(c.message));
    }
  }
}

TEST_CASE("aliases that loop or expand without bound are errors, not a crash", "[config][errors]") {
  const std::string loop = parse_error(kHeader + "profiles:\n- pluginConfig: [{name: NodeResourcesFit, args: &a {x: *a}}]\n");
  CHECK_THAT(loop, Catch::StartsWith("profiles[0].pluginConfig[0].args.x.x.x."));
  CHECK_THAT(loop, Catch::EndsWith(".x: nested more than 64 levels deep (an alias of itself?)"));
  const std::string laughs = parse_error(kHeader +
      "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
      "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n");
  CHECK_THAT(laughs, Catch::StartsWith("f["));
  CHECK_THAT(laughs, Catch::EndsWith(": the document expands to more than 1000000 values (aliases of aliases?)"));
}

TEST_CASE("documents that are not a KubeSchedulerConfiguration are rejected", "[config][errors]") {
  CHECK_THAT(parse_error("kind: KubeSchedulerConfiguration\n"),
             Catch::StartsWith("apiVersion: Required value (want kubescheduler.config.k8s.io/v1)"));
  CHECK(parse_error("apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n") ==
        "apiVersion: unsupported version \"kubescheduler.config.k8s.io/v1beta3\" (want "
        "kubescheduler.config.k8s.io/v1)");
  CHECK(parse_error("apiVersion: kubescheduler.config.k8s.io/v1\nkind: Pod\n") ==
        "kind: must be KubeSchedulerConfiguration, got \"Pod\"");
  CHECK(parse_error("") == "the configuration is empty");
  CHECK(parse_error("- a\n- b\n") == "must be an object, got a list");
  CHECK_THAT(parse_error("apiVersion: [unclosed\n"), Catch::StartsWith("invalid YAML at line 2, column 1: "));
  CHECK_THAT(parse_error("a: b: c\n"), Catch::StartsWith("invalid YAML at line 1"));
}

TEST_CASE("loading reads the file and names it in errors", "[config]") {
  std::string path =
      (std::filesystem::temp_directory_path() / ("troupe-config-" + std::to_string(::getpid()) + ".yaml")).string();
  {
    std::ofstream out(path);
    out << kHeader << "parallelism: 3\n";
  }
  auto config = load_scheduler_configuration(path, make_test_catalog());
  std::remove(path.c_str());
  REQUIRE(config);
  CHECK(config->parallelism == 3);

  auto missing = load_scheduler_configuration("/nonexistent/troupe.yaml", make_test_catalog());
  REQUIRE_FALSE(missing);
  CHECK(missing.message() == "/nonexistent/troupe.yaml: cannot open the scheduler configuration");
}
