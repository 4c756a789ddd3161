#include <catch2/catch.hpp>

#include "model/elastic_quota.hpp"
#include "plugins/elastic_quota/elastic_quota_plugin.hpp"
#include "plugins/registry.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::elastic_quota;

namespace {

QuotaView view_of(ResourceAmounts used, ResourceAmounts runtime, ResourceAmounts request) {
  QuotaView view;
  view.quota_name = "team-a";
  QuotaUsage usage;
  usage.name = "team-a";
  usage.used = std::move(used);
  usage.runtime = std::move(runtime);
  usage.max = {{"cpu", 10'000}, {"memory", 64LL << 30}};
  usage.min = {{"cpu", 2'000}};
  view.quota = usage;
  view.request = std::move(request);
  return view;
}

ElasticQuotaArgs args_from(const std::string& yaml) {
  return ElasticQuotaArgs::from_yaml(YAML::Load(yaml));
}

}  // namespace

TEST_CASE("PreFilter lets a pod in while its quota has room, in Koordinator's words when not", "[elastic_quota]") {
  const ElasticQuotaArgs defaults = args_from("{}");
  struct Case {
    const char* name;
    QuotaView view;
    const char* rejection;  // nullptr: fits
  };
  const std::vector<Case> cases = {
      {"fits", view_of({{"cpu", 2'000}}, {{"cpu", 4'000}}, {{"cpu", 1'000}}), nullptr},
      {"fits exactly", view_of({{"cpu", 3'000}}, {{"cpu", 4'000}}, {{"cpu", 1'000}}), nullptr},
      {"over the runtime",
       view_of({{"cpu", 3'500}}, {{"cpu", 4'000}}, {{"cpu", 1'000}}),
       "Insufficient quotas, quotaName: team-a, runtime: cpu:4, used: cpu:3500m, pod's request: cpu:1, "
       "exceedDimensions: [cpu]"},
      {"two resources over, in name order",
       view_of({{"cpu", 4'000}, {"memory", 1LL << 30}}, {{"cpu", 4'000}, {"memory", 1LL << 30}},
               {{"cpu", 500}, {"memory", 512LL << 20}}),
       "Insufficient quotas, quotaName: team-a, runtime: cpu:4,memory:1Gi, used: cpu:4,memory:1Gi, "
       "pod's request: cpu:500m,memory:512Mi, exceedDimensions: [cpu memory]"},
      {"nothing used yet: <empty>", view_of({}, {{"cpu", 500}}, {{"cpu", 1'000}}),
       "Insufficient quotas, quotaName: team-a, runtime: cpu:500m, used: <empty>, pod's request: cpu:1, "
       "exceedDimensions: [cpu]"},
      {"a resource the runtime does not name is not limited",
       view_of({{"cpu", 1'000}}, {{"cpu", 4'000}}, {{"cpu", 1'000}, {"nvidia.com/gpu", 8}}), nullptr},
      {"over in a resource the pod does not ask for does not count",
       view_of({{"cpu", 1'000}, {"memory", 2LL << 30}}, {{"cpu", 4'000}, {"memory", 1LL << 30}}, {{"cpu", 1'000}}),
       nullptr},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      auto rejection = quota_rejection(c.view, defaults);
      if (c.rejection == nullptr) {
        CHECK_FALSE(rejection);
      } else {
        REQUIRE(rejection);
        CHECK(*rejection == c.rejection);
      }
    }
  }
}

TEST_CASE("with enableRuntimeQuota false the max is the limit", "[elastic_quota]") {
  auto view = view_of({{"cpu", 5'000}}, {{"cpu", 4'000}}, {{"cpu", 1'000}});
  CHECK(quota_rejection(view, args_from("{}")));
  CHECK_FALSE(quota_rejection(view, args_from("{enableRuntimeQuota: false}")));
}

TEST_CASE("a non-preemptible pod must fit in its quota's min", "[elastic_quota]") {
  auto view = view_of({{"cpu", 1'000}}, {{"cpu", 8'000}}, {{"cpu", 1'500}});
  view.non_preemptible = true;
  view.quota->non_preemptible_used = {{"cpu", 1'000}};
  auto rejection = quota_rejection(view, args_from("{}"));
  REQUIRE(rejection);
  CHECK(*rejection ==
        "Insufficient non-preemptible quotas, quotaName: team-a, min: cpu:2, nonPreemptibleUsed: cpu:1, "
        "pod's request: cpu:1500m, exceedDimensions: [cpu]");
  view.request = {{"cpu", 1'000}};
  CHECK_FALSE(quota_rejection(view, args_from("{}")));
  view.non_preemptible = false;
  view.request = {{"cpu", 1'500}};
  CHECK_FALSE(quota_rejection(view, args_from("{}")));
}

TEST_CASE("enableCheckParentQuota checks every ancestor below the root", "[elastic_quota]") {
  auto view = view_of({{"cpu", 1'000}}, {{"cpu", 4'000}}, {{"cpu", 1'000}});
  view.quota->parents = {QuotaUsage::Parent{"org", {{"cpu", 7'500}}, {{"cpu", 8'000}}},
                         QuotaUsage::Parent{"company", {{"cpu", 7'500}}, {{"cpu", 20'000}}}};
  CHECK_FALSE(quota_rejection(view, args_from("{}")));
  auto rejection = quota_rejection(view, args_from("{enableCheckParentQuota: true}"));
  REQUIRE(rejection);
  CHECK(*rejection ==
        "Insufficient quotas, quotaNameTopo: [org team-a], runtime: cpu:8, used: cpu:7500m, pod's request: cpu:1, "
        "exceedDimensions: [cpu]");
  view.quota->parents[0].runtime = {{"cpu", 9'000}};
  CHECK_FALSE(quota_rejection(view, args_from("{enableCheckParentQuota: true}")));
}

TEST_CASE("enableCheckParentQuota: each level's max with enableRuntimeQuota off; only the pod's resources",
          "[elastic_quota]") {
  // team-a: runtime 4, max 10 (view_of); org: used 7.5, runtime 8, max 12 cpu, memory over its runtime.
  auto view = view_of({{"cpu", 3'000}}, {{"cpu", 4'000}}, {{"cpu", 3'000}});
  view.quota->parents = {QuotaUsage::Parent{"org", {{"cpu", 7'500}, {"memory", 4LL << 30}},
                                            {{"cpu", 8'000}, {"memory", 2LL << 30}},
                                            {{"cpu", 12'000}, {"memory", 8LL << 30}}}};
  struct Case {
    const char* what;
    const char* args;
    ResourceAmounts request;
    const char* rejection;  // nullptr: admitted
  };
  const std::vector<Case> cases = {
      {"runtime limits: team-a itself is over", "{enableCheckParentQuota: true}", {{"cpu", 3'000}},
       "Insufficient quotas, quotaName: team-a, runtime: cpu:4, used: cpu:3, pod's request: cpu:3, "
       "exceedDimensions: [cpu]"},
      {"max limits: team-a (10) and org (12) have room", "{enableCheckParentQuota: true, enableRuntimeQuota: false}",
       {{"cpu", 3'000}}, nullptr},
      {"max limits: org's max reached", "{enableCheckParentQuota: true, enableRuntimeQuota: false}", {{"cpu", 5'000}},
       "Insufficient quotas, quotaNameTopo: [org team-a], runtime: cpu:12,memory:8Gi, used: cpu:7500m,memory:4Gi, "
       "pod's request: cpu:5, exceedDimensions: [cpu]"},
      {"org over its runtime in memory: a cpu-only pod still fits", "{enableCheckParentQuota: true}", {{"cpu", 500}},
       nullptr},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    view.request = c.request;
    auto rejection = quota_rejection(view, args_from(c.args));
    if (c.rejection == nullptr) {
      CHECK_FALSE(rejection);
    } else {
      REQUIRE(rejection);
      CHECK(*rejection == c.rejection);
    }
  }
}

TEST_CASE("a quota outside the tree turns its pods away, saying why", "[elastic_quota]") {
  auto view = view_of({}, {}, {{"cpu", 1'000}});
  view.quota->unreachable_parent = "ghost";
  auto rejection = quota_rejection(view, args_from("{}"));
  REQUIRE(rejection);
  CHECK(*rejection == "Insufficient quotas, quotaName: team-a, its parent quota ghost is not in the quota tree "
                      "(missing, or in a loop)");
}

TEST_CASE("ElasticQuotaArgs default as Koordinator's and name the field in errors", "[elastic_quota]") {
  const auto defaults = args_from("{}");
  CHECK(defaults.enable_runtime_quota);
  CHECK_FALSE(defaults.enable_check_parent_quota);
  CHECK(defaults.enable_min_quota_scale);
  CHECK(defaults.quota_group_namespace == "koordinator-system");
  const ResourceAmounts default_max = amounts_of(defaults.default_quota_group_max);
  CHECK(default_max.at("memory") == std::numeric_limits<int64_t>::max() / 5);
  CHECK(default_max.at("cpu") == std::numeric_limits<int64_t>::max());  // millicores, saturated
  CHECK(defaults.default_quota_group_max.find("cpu")->second.to_string() == "1844674407370955161");
  const auto set = args_from("{defaultQuotaGroupMax: {cpu: '8', memory: 16Gi}, delayEvictTime: 2m, monitorAllQuotas: true}");
  CHECK(amounts_of(set.default_quota_group_max) == ResourceAmounts{{"cpu", 8'000}, {"memory", 16LL << 30}});
  CHECK(set.monitor_all_quotas);
  CHECK(set.delay_evict_time == std::chrono::minutes(2));
  CHECK(set.revoke_pod_interval == std::chrono::seconds(1));
  CHECK_FALSE(defaults.monitor_all_quotas);
  CHECK(defaults.delay_evict_time == std::chrono::seconds(120));

  struct Case {
    const char* yaml;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"{defaultQuotaGroupMax: {cpu: lots}}", "defaultQuotaGroupMax.cpu: "},
      {"{systemQuotaGroupMax: {cpu: '-1'}}", "systemQuotaGroupMax.cpu: Invalid value: \"-1\": must not be negative"},
      {"{systemQuotaGroupMax: [cpu]}", "systemQuotaGroupMax: "},
      {"{enableRuntimeQuota: maybe}", "enableRuntimeQuota: "},
      {"{revokePodInterval: -1s}", "revokePodInterval: Invalid value: must not be negative"},
      {"{revokePodInterval: 0s}", "revokePodInterval: Invalid value: must be greater than 0"},
      {"{delayEvictTime: soon}", "delayEvictTime: "},
      {"{monitorAllQuotas: sometimes}", "monitorAllQuotas: "},
      {"{hookPlugins: [{key: a, factoryKey: b}]}", "hookPlugins: quota hook plugins are not implemented by troupe"},
      {"{quotaTrees: true}", "quotaTrees"},
  };
  for (const auto& c : cases) {
    auto plugin = ElasticQuotaPlugin::make(YAML::Load(c.yaml));
    REQUIRE_FALSE(plugin);
    CHECK_THAT(plugin.message(), Catch::Contains(c.error));
  }
  CHECK(ElasticQuotaPlugin::make(YAML::Load("{hookPlugins: []}")));
}

TEST_CASE("an ElasticQuota's labels and annotations place it in the tree", "[elastic_quota]") {
  auto quota = decode_elastic_quota_json(R"({
    "apiVersion": "scheduling.sigs.k8s.io/v1alpha1", "kind": "ElasticQuota",
    "metadata": {"name": "dev", "namespace": "org",
      "labels": {"quota.scheduling.koordinator.sh/parent": "org", "quota.scheduling.koordinator.sh/allow-lent-resource": "false"},
      "annotations": {"quota.scheduling.koordinator.sh/shared-weight": "{\"cpu\":\"2\"}",
                      "quota.scheduling.koordinator.sh/namespaces": "[\"dev-1\",\"dev-2\"]"}},
    "spec": {"min": {"cpu": "1"}, "max": {"cpu": "4", "memory": "8Gi"}}})");
  REQUIRE(quota);
  const QuotaSpec spec = quota_spec_of(*quota);
  CHECK(spec.parent == "org");
  CHECK_FALSE(spec.is_parent);
  CHECK_FALSE(spec.allow_lent_resource);
  CHECK(spec.min == ResourceAmounts{{"cpu", 1'000}});
  CHECK(spec.max == ResourceAmounts{{"cpu", 4'000}, {"memory", 8LL << 30}});
  CHECK(spec.shared_weight == ResourceAmounts{{"cpu", 2'000}});
  CHECK(spec.namespaces == std::vector<std::string>{"dev-1", "dev-2"});

  // Defaults: the root as parent, lending allowed, max as the weight; unreadable annotations are ignored.
  auto plain = decode_elastic_quota_json(R"({"metadata": {"name": "q",
      "annotations": {"quota.scheduling.koordinator.sh/shared-weight": "not json",
                      "quota.scheduling.koordinator.sh/namespaces": "{}"}},
    "spec": {"max": {"cpu": "4"}}})");
  REQUIRE(plain);
  const QuotaSpec defaults = quota_spec_of(*plain);
  CHECK(defaults.parent == kRootQuotaName);
  CHECK(defaults.allow_lent_resource);
  CHECK(defaults.shared_weight == defaults.max);
  CHECK(defaults.namespaces.empty());

  auto root = decode_elastic_quota_json(R"({"metadata": {"name": "koordinator-root-quota",
      "labels": {"quota.scheduling.koordinator.sh/parent": ""}}})");
  REQUIRE(root);
  CHECK(quota_spec_of(*root).parent.empty());  // the root has no parent

  auto bad = decode_elastic_quota_json(R"({"metadata": {"name": "q"}, "spec": {"max": {"cpu": "four"}}})");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.message(), Catch::Contains("spec.max"));
}
