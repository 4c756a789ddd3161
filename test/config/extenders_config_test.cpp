// extenders[] of KubeSchedulerConfiguration: every field, kube-scheduler's
// defaults, and errors that name the field.
#include <catch2/catch.hpp>

#include "config/scheduler_config.hpp"
#include "test/config/test_catalog.hpp"

using namespace troupe::config;
using troupe::config::testing::make_test_catalog;

namespace {

const std::string kHeader = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

}  // namespace

TEST_CASE("extenders: every field is read", "[config][extenders]") {
  auto config = parse_scheduler_configuration(kHeader + R"(
extenders:
- urlPrefix: https://gpu-extender:8443/scheduler
  filterVerb: filter
  prioritizeVerb: prioritize
  preemptVerb: preempt
  bindVerb: bind
  weight: 2
  enableHTTPS: true
  tlsConfig: {insecure: true, serverName: gpu, certData: Y2VydA==, keyData: a2V5, caData: Y2E=}
  httpTimeout: 1500ms
  nodeCacheCapable: true
  managedResources:
  - {name: example.com/gpu, ignoredByScheduler: true}
  - {name: example.com/fpga}
  ignorable: true
- urlPrefix: http://other
)",
                                              make_test_catalog());
  REQUIRE(config);
  REQUIRE(config->extenders.size() == 2);
  const Extender& e = config->extenders[0];
  CHECK(e.url_prefix == "https://gpu-extender:8443/scheduler");
  CHECK(e.filter_verb == "filter");
  CHECK(e.prioritize_verb == "prioritize");
  CHECK(e.preempt_verb == "preempt");
  CHECK(e.bind_verb == "bind");
  CHECK(e.weight == 2);
  CHECK(e.enable_https);
  CHECK(e.tls.insecure);
  CHECK(e.tls.server_name == "gpu");
  CHECK(e.tls.cert_data == "Y2VydA==");
  CHECK(e.tls.key_data == "a2V5");
  CHECK(e.tls.ca_data == "Y2E=");
  CHECK(e.http_timeout == std::chrono::milliseconds(1500));
  CHECK(e.node_cache_capable);
  REQUIRE(e.managed_resources.size() == 2);
  CHECK(e.managed_resources[0].name == "example.com/gpu");
  CHECK(e.managed_resources[0].ignored_by_scheduler);
  CHECK_FALSE(e.managed_resources[1].ignored_by_scheduler);
  CHECK(e.ignorable);
  // Defaults: no verbs, 5 s timeout (kube-scheduler's DefaultExtenderTimeout), not ignorable.
  const Extender& d = config->extenders[1];
  CHECK(d.filter_verb.empty());
  CHECK(d.weight == 0);
  CHECK(d.http_timeout == std::chrono::seconds(5));
  CHECK_FALSE(d.ignorable);
  CHECK_FALSE(d.node_cache_capable);
}

TEST_CASE("extenders: ignoredByScheduler resources become NodeResourcesFit's ignoredResources", "[config][extenders]") {
  // As kube-scheduler's buildExtenders: every profile, in place of the args' own list, other args kept.
  auto config = parse_scheduler_configuration(kHeader + R"(
extenders:
- urlPrefix: http://a
  managedResources: [{name: example.com/gpu, ignoredByScheduler: true}, {name: example.com/fpga}]
- urlPrefix: http://b
  managedResources: [{name: example.com/vram, ignoredByScheduler: true}]
profiles:
- schedulerName: one
  pluginConfig:
  - name: NodeResourcesFit
    args: {ignoredResources: [example.com/own], scoringStrategy: {type: MostAllocated}}
- schedulerName: two
)",
                                              make_test_catalog());
  REQUIRE(config);
  for (const Profile& p : config->profiles) {
    INFO(p.scheduler_name);
    const YAML::Node ignored = p.args_for("NodeResourcesFit")["ignoredResources"];
    REQUIRE(ignored.IsSequence());
    REQUIRE(ignored.size() == 2);
    CHECK(ignored[0].as<std::string>() == "example.com/gpu");
    CHECK(ignored[1].as<std::string>() == "example.com/vram");
  }
  CHECK(config->profiles[0].args_for("NodeResourcesFit")["scoringStrategy"]["type"].as<std::string>() ==
        "MostAllocated");
}

TEST_CASE("extenders: without ignoredByScheduler NodeResourcesFit's args are as written", "[config][extenders]") {
  auto config = parse_scheduler_configuration(kHeader + R"(
extenders: [{urlPrefix: 'http://a', managedResources: [{name: example.com/gpu}]}]
profiles:
- schedulerName: one
  pluginConfig: [{name: NodeResourcesFit, args: {ignoredResources: [example.com/own]}}]
- schedulerName: two
)",
                                              make_test_catalog());
  REQUIRE(config);
  const YAML::Node own = config->profiles[0].args_for("NodeResourcesFit")["ignoredResources"];
  REQUIRE(own.size() == 1);
  CHECK(own[0].as<std::string>() == "example.com/own");
  CHECK(config->profiles[1].args_for("NodeResourcesFit").IsNull());
}

TEST_CASE("extenders: a zero httpTimeout means the default", "[config][extenders]") {
  auto config =
      parse_scheduler_configuration(kHeader + "extenders: [{urlPrefix: 'http://x', httpTimeout: 0s}]\n", make_test_catalog());
  REQUIRE(config);
  CHECK(config->extenders[0].http_timeout == std::chrono::seconds(5));
}

TEST_CASE("extenders: errors name the field", "[config][extenders]") {
  struct Case {
    const char* yaml;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"extenders: {urlPrefix: 'http://x'}\n", "extenders: "},
      {"extenders: [{urlPrefix: 'http://x', filterverb: f}]\n", "extenders[0].filterverb: unknown field"},
      {"extenders: [{urlPrefix: 'http://x', weight: heavy}]\n", "extenders[0].weight: "},
      {"extenders: [{urlPrefix: 'http://x', prioritizeVerb: p, weight: -1}]\n",
       "extenders[0].weight: must have a positive weight applied to it"},
      {"extenders: [{urlPrefix: 'http://x', enableHTTPS: sometimes}]\n", "extenders[0].enableHTTPS: "},
      {"extenders: [{urlPrefix: 'http://x', httpTimeout: soon}]\n", "extenders[0].httpTimeout: "},
      {"extenders: [{urlPrefix: 'http://x', httpTimeout: -1s}]\n", "extenders[0].httpTimeout: must not be negative"},
      {"extenders: [{urlPrefix: 'http://x', tlsConfig: {insecure: true, certPem: x}}]\n",
       "extenders[0].tlsConfig.certPem: unknown field"},
      {"extenders: [{urlPrefix: 'http://x', tlsConfig: [1]}]\n", "extenders[0].tlsConfig: "},
      {"extenders: [{urlPrefix: 'http://x', managedResources: [{ignoredByScheduler: true}]}]\n",
       "extenders[0].managedResources[0].name: Required value"},
      {"extenders: [{urlPrefix: 'http://x', managedResources: {name: a}}]\n", "extenders[0].managedResources: "},
      {"extenders: [{urlPrefix: 'http://x', managedResources: [{name: cpu}]}]\n",
       "extenders[0].managedResources[0].name: \"cpu\": is an invalid extended resource name"},
      {"extenders: [{urlPrefix: 'http://x', managedResources: [{name: kubernetes.io/batch-cpu}]}]\n",
       "extenders[0].managedResources[0].name: \"kubernetes.io/batch-cpu\": is an invalid extended resource name"},
      {"extenders: [{urlPrefix: 'http://x', managedResources: [{name: example.com/gpu}, {name: example.com/gpu}]}]\n",
       "extenders[0].managedResources[1].name: duplicate extender managed resource name \"example.com/gpu\""},
      {"extenders: [{urlPrefix: 'http://x'}, {urlPrefix: ''}]\n", "extenders[1].urlPrefix: Required value"},
      {"extenders: [{urlPrefix: 'http://x', nodeCacheCapable: 1}]\n", "extenders[0].nodeCacheCapable: "},
  };
  for (const auto& c : cases) {
    INFO(c.yaml);
    auto result = parse_scheduler_configuration(kHeader + c.yaml, make_test_catalog());
    REQUIRE_FALSE(result);
    CHECK_THAT(result.message(), Catch::StartsWith(c.error));
  }
}
