#include <catch2/catch.hpp>

#include <string>

#include "config/descheduler_config.hpp"
#include "config/yaml_fields.hpp"

namespace troupe::config {
namespace {

DeschedulerConfiguration load_ok(const std::string& text) {
  auto config = load_descheduler_configuration(text);
  INFO(text);
  REQUIRE(config.ok());
  return *config;
}

TEST_CASE("descheduler config: an empty document takes Koordinator's defaults", "[descheduler-config]") {
  for (const char* text : {"", "{}", "apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\n"}) {
    const auto c = load_ok(text);
    CHECK(c.descheduling_interval.count() == 0);
    CHECK_FALSE(c.dry_run);
    CHECK_FALSE(c.node_selector);
    CHECK_FALSE(c.max_pods_to_evict_per_node);
    CHECK_FALSE(c.max_pods_to_evict_per_namespace);
    CHECK_FALSE(c.max_pods_to_evict_total);
    CHECK(c.leader_election.resource_lock == "leases");
    CHECK(c.leader_election.resource_name == "koord-descheduler");
    CHECK(c.leader_election.resource_namespace == "koordinator-system");
    CHECK(c.client_connection.qps == 50);
    CHECK(c.client_connection.burst == 100);
    CHECK(c.healthz_bind_address == "0.0.0.0:10251");
    CHECK(c.metrics_bind_address == "0.0.0.0:10251");
    REQUIRE(c.profiles.size() == 1);
    CHECK(c.profiles[0].name == "koord-descheduler");
    CHECK(c.profiles[0].enabled_at(DeschedulerPoint::evict) == std::vector<std::string>{"MigrationController"});
    CHECK(c.profiles[0].enabled_at(DeschedulerPoint::filter) == std::vector<std::string>{"MigrationController"});
    CHECK(c.profiles[0].enabled_at(DeschedulerPoint::balance).empty());
    CHECK(c.profiles[0].enabled_at(DeschedulerPoint::deschedule).empty());
    CHECK(c.profiles[0].args_for("LowNodeLoad").IsNull());
  }
}

TEST_CASE("descheduler config: every top-level field is read", "[descheduler-config]") {
  const auto c = load_ok(R"(
deschedulingInterval: 90s
dryRun: true
nodeSelector: {matchLabels: {pool: a}, matchExpressions: [{key: zone, operator: In, values: [z1, z2]}]}
maxNoOfPodsToEvictPerNode: 3
maxNoOfPodsToEvictPerNamespace: 4
maxNoOfPodsToEvictTotal: 5
healthzBindAddress: ":9000"
metricsBindAddress: "127.0.0.1"
leaderElection: {leaderElect: false, resourceName: d, resourceNamespace: ns, resourceLock: leases}
clientConnection: {qps: 7.5, burst: 9, kubeconfig: /k}
profiles:
- name: p
  nodeSelector: {matchLabels: {x: y}}
  plugins:
    balance: {enabled: [{name: LowNodeLoad}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: Custom}]}
  pluginConfig:
  - name: LowNodeLoad
    args: {apiVersion: descheduler/v1alpha2, kind: LowNodeLoadArgs, dryRun: true}
)");
  CHECK(c.descheduling_interval == std::chrono::seconds(90));
  CHECK(c.dry_run);
  REQUIRE(c.node_selector);
  CHECK(c.node_selector->matches({{"pool", "a"}, {"zone", "z2"}}));
  CHECK_FALSE(c.node_selector->matches({{"pool", "a"}, {"zone", "z3"}}));
  CHECK(*c.max_pods_to_evict_per_node == 3);
  CHECK(*c.max_pods_to_evict_per_namespace == 4);
  CHECK(*c.max_pods_to_evict_total == 5);
  CHECK(c.healthz_bind_address == "0.0.0.0:9000");
  CHECK(c.metrics_bind_address == "127.0.0.1:10251");
  CHECK_FALSE(c.leader_election.leader_elect);
  CHECK(c.leader_election.resource_name == "d");
  CHECK(c.client_connection.qps == 7.5);
  CHECK(c.client_connection.burst == 9);
  CHECK(c.client_connection.kubeconfig == "/k");
  REQUIRE(c.profiles.size() == 1);
  const auto& p = c.profiles[0];
  CHECK(p.name == "p");
  REQUIRE(p.node_selector);
  CHECK(p.enabled_at(DeschedulerPoint::balance) == std::vector<std::string>{"LowNodeLoad"});
  CHECK(p.enabled_at(DeschedulerPoint::evict) == std::vector<std::string>{"Custom"});
  CHECK(p.enabled_at(DeschedulerPoint::filter) == std::vector<std::string>{"MigrationController"});
  const YAML::Node args = p.args_for("LowNodeLoad");
  CHECK(args["dryRun"].as<bool>());
  CHECK_FALSE(args["apiVersion"]);
  CHECK_FALSE(args["kind"]);
}

TEST_CASE("descheduler config: disabling the default MigrationController by name", "[descheduler-config]") {
  const auto c = load_ok("profiles: [{name: a, plugins: {filter: {disabled: [{name: MigrationController}]}}}]");
  CHECK(c.profiles[0].enabled_at(DeschedulerPoint::filter).empty());
  CHECK(c.profiles[0].enabled_at(DeschedulerPoint::evict) == std::vector<std::string>{"MigrationController"});
}

TEST_CASE("descheduler config: errors name the field", "[descheduler-config]") {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"apiVersion: v1", "apiVersion: must be descheduler/v1alpha2"},
      {"kind: Foo", "kind: must be DeschedulerConfiguration"},
      {"bogus: 1", "bogus"},
      {"deschedulingInterval: 3d", "deschedulingInterval"},
      {"deschedulingInterval: -1s", "deschedulingInterval: must not be negative"},
      {"deschedulingInterval: 1ns", "deschedulingInterval: must be 0 or at least 1s"},
      {"dryRun: maybe", "dryRun"},
      {"maxNoOfPodsToEvictPerNode: -1", "maxNoOfPodsToEvictPerNode: must be between 0"},
      {"maxNoOfPodsToEvictPerNamespace: x", "maxNoOfPodsToEvictPerNamespace"},
      {"maxNoOfPodsToEvictTotal: 1.5", "maxNoOfPodsToEvictTotal"},
      {"nodeSelector: {matchExpressions: [{key: a, operator: Gt, values: ['1']}]}",
       "nodeSelector.matchExpressions[0].operator: unsupported operator"},
      {"nodeSelector: {matchExpressions: [{key: a, operator: In}]}", "nodeSelector.matchExpressions[0].values"},
      {"nodeSelector: {matchExpressions: [{key: a, operator: Exists, values: [b]}]}", "must be empty"},
      {"nodeSelector: {matchLabels: {'bad key!': x}}", "invalid label key"},
      {"nodeSelector: {matchLabels: {a: 'bad value!'}}", "invalid label value"},
      {"nodeSelector: [a]", "nodeSelector: must be an object"},
      {"leaderElection: {leaseDuration: 5s, renewDeadline: 10s}", "leaderElection.leaseDuration"},
      {"leaderElection: {other: 1}", "leaderElection"},
      {"clientConnection: {qps: -1}", "clientConnection.qps: must not be negative"},
      {"clientConnection: {burst: -1}", "clientConnection.burst"},
      {"clientConnection: {qps: nan}", "clientConnection.qps: must be a finite number"},
      {"profiles: {}", "profiles: must be a list"},
      {"profiles: [{name: a}, {name: a}]", "profiles[1].name: duplicate profile name"},
      {"profiles: [{name: a}, {}]", "profiles[1].name: must not be empty"},
      {"profiles: [{plugins: {sort: {}}}]", "profiles[0].plugins"},
      {"profiles: [{plugins: {balance: {enabled: [{name: ''}]}}}]", "profiles[0].plugins.balance.enabled[0].name"},
      {"profiles: [{plugins: {balance: {enabled: [{name: A}, {name: A}]}}}]", "listed twice"},
      {"profiles: [{plugins: {balance: {enabled: [A]}}}]", "profiles[0].plugins.balance.enabled[0]: must be an object"},
      {"profiles: [{pluginConfig: [{name: A}, {name: A}]}]", "profiles[0].pluginConfig[1].name: repeated config"},
      {"profiles: [{pluginConfig: [{name: A, args: [1]}]}]", "profiles[0].pluginConfig[0].args: must be an object"},
      {"profiles: [{pluginConfig: [{args: {}}]}]", "profiles[0].pluginConfig[0].name"},
      {"[1, 2]", "must be an object"},
      {"a: [", "invalid YAML"},
      {"dryRun: true\ndryRun: false", "dryRun: set twice in one map (at line 1, column 1 and line 2, column 1)"},
      {"profiles: [{name: a, pluginConfig: [{name: LowNodeLoad, args: {x: 1, x: 2}}]}]",
       "profiles[0].pluginConfig[0].args.x: set twice in one map"},
  };
  for (const Case& c : cases) {
    auto parsed = load_descheduler_configuration(c.text);
    INFO(c.text);
    REQUIRE_FALSE(parsed.ok());
    CHECK_THAT(parsed.message(), Catch::Contains(c.error));
  }
}

TEST_CASE("descheduler config: int-or-percent reader", "[descheduler-config]") {
  struct Case {
    const char* text;
    bool ok;
    const char* value;
  };
  const Case cases[] = {{"3", true, "3"},       {"'10%'", true, "10%"}, {"0", true, "0"},   {"'x%'", false, ""},
                        {"'%'", false, ""},     {"-1", false, ""},      {"[1]", false, ""}, {"'1.5%'", false, ""},
                        {"abc", false, ""}};
  for (const Case& c : cases) {
    INFO(c.text);
    Status status = catch_field_errors([&] {
      auto v = read_int_or_percent(YAML::Load(c.text), "f");
      CHECK(v.to_string() == c.value);
    });
    CHECK(status.ok() == c.ok);
    if (!status.ok()) CHECK_THAT(status.message(), Catch::StartsWith("f:"));
  }
}

}  // namespace
}  // namespace troupe::config
