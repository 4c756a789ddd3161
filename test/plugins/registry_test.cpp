#include <catch2/catch.hpp>

#include "plugins/default_prebind/default_prebind.hpp"
#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "plugins/elastic_quota/elastic_quota_plugin.hpp"
#include "plugins/registry.hpp"

using namespace troupe;
using namespace troupe::plugins;
using config::ExtensionPoint;

namespace {
const std::string kHeader = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

std::vector<std::string> enabled_names(const config::Profile& p, ExtensionPoint point) {
  std::vector<std::string> out;
  for (const auto& e : p.enabled_at(point)) out.push_back(e.name);
  return out;
}
}  // namespace

TEST_CASE("the in-tree registry lists every plugin with its extension points", "[registry]") {
  const Registry& r = in_tree_registry();
  using P = ExtensionPoint;
  struct Case {
    const char* name;
    config::ExtensionPointSet points;
    int32_t weight;
    bool enabled_by_default = true;
  };
  const std::vector<Case> cases = {
      {"SchedulingGates", {P::pre_enqueue}, 0},
      {"PrioritySort", {P::queue_sort}, 0},
      {"NodeUnschedulable", {P::filter}, 0},
      {"NodeName", {P::filter}, 0},
      {"TaintToleration", {P::filter, P::score}, 3},
      {"NodeAffinity", {P::pre_filter, P::filter, P::pre_score, P::score}, 2},
      {"NodePorts", {P::pre_filter, P::filter}, 0},
      {"NodeResourcesFit", {P::pre_filter, P::filter, P::score}, 1},
      {"VolumeRestrictions", {P::pre_filter, P::filter}, 0},
      {"NodeVolumeLimits", {P::pre_filter, P::filter}, 0},
      {"VolumeBinding", {P::pre_filter, P::filter, P::pre_bind}, 0},
      {"VolumeZone", {P::pre_filter, P::filter}, 0},
      {"PodTopologySpread", {P::pre_filter, P::filter, P::pre_score, P::score}, 2},
      {"InterPodAffinity", {P::pre_filter, P::filter, P::pre_score, P::score}, 2},
      {"DefaultPreemption", {P::post_filter}, 0},
      {"NodeResourcesBalancedAllocation", {P::pre_score, P::score}, 1},
      {"ImageLocality", {P::pre_score, P::score}, 1},
      {"NodeResourcesFitPlus", {P::score}, 1},
      {"ScarceResourceAvoidance", {P::score}, 1},
      // Needs koordlet's NodeMetrics: enabled by the profiles that want it.
      {"LoadAwareScheduling", {P::pre_filter, P::filter, P::score}, 1, false},
      {"SchedulingHint", {P::pre_filter}, 0},
      {"Reservation", {P::pre_filter, P::filter, P::post_filter, P::score, P::reserve, P::pre_bind}, 1},
      {"NodeNUMAResource", {P::pre_filter, P::filter, P::score, P::reserve, P::pre_bind}, 1},
      {"DeviceShare", {P::pre_filter, P::filter, P::score, P::reserve, P::pre_bind}, 1},
      {"AliyunGPUShare", {P::pre_filter, P::filter, P::reserve, P::pre_bind}, 0},
      {"Coscheduling", {P::pre_filter, P::post_filter, P::permit}, 0},
      // Quotas are an operator's choice: enabled by the profiles that want them.
      {"ElasticQuota", {P::pre_filter}, 0, false},
      // The Binding carries PreBind's annotations unless a profile asks for Koordinator's patch first.
      {"DefaultPreBind", {P::pre_bind}, 0, false},
      {"DefaultBinder", {P::bind}, 0},
  };
  REQUIRE(r.entries().size() == cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO(cases[i].name);
    CHECK(r.entries()[i].name == cases[i].name);
    CHECK(r.entries()[i].points == cases[i].points);
    CHECK(r.entries()[i].default_weight == cases[i].weight);
    CHECK(r.entries()[i].enabled_by_default == cases[i].enabled_by_default);
  }
}

TEST_CASE("a profile without plugins enables every plugin with kube-scheduler's weights", "[registry]") {
  auto config = parse_scheduler_configuration(kHeader);
  REQUIRE(config);
  const auto& p = config->profiles[0];
  CHECK(enabled_names(p, ExtensionPoint::filter) ==
        std::vector<std::string>{"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
                                 "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding",
                                 "VolumeZone", "PodTopologySpread", "InterPodAffinity", "Reservation",
                                 "NodeNUMAResource", "DeviceShare", "AliyunGPUShare"});
  std::vector<std::pair<std::string, int32_t>> weights;
  for (const auto& e : p.enabled_at(ExtensionPoint::score)) weights.emplace_back(e.name, e.weight);
  CHECK(weights == std::vector<std::pair<std::string, int32_t>>{{"TaintToleration", 3},
                                                                {"NodeAffinity", 2},
                                                                {"NodeResourcesFit", 1},
                                                                {"PodTopologySpread", 2},
                                                                {"InterPodAffinity", 2},
                                                                {"NodeResourcesBalancedAllocation", 1},
                                                                {"ImageLocality", 1},
                                                                {"NodeResourcesFitPlus", 1},
                                                                {"ScarceResourceAvoidance", 1},
                                                                {"Reservation", 1},
                                                                {"NodeNUMAResource", 1},
                                                                {"DeviceShare", 1}});
  auto frameworks = make_frameworks(*config);
  REQUIRE(frameworks);
  REQUIRE(frameworks->size() == 1);
  CHECK((*frameworks)[0].plugin_names(ExtensionPoint::pre_filter) ==
        std::vector<std::string>{"NodeAffinity", "NodePorts", "NodeResourcesFit", "VolumeRestrictions",
                                 "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity",
                                 "SchedulingHint", "Reservation", "NodeNUMAResource", "DeviceShare", "AliyunGPUShare",
                                 "Coscheduling"});
  CHECK((*frameworks)[0].plugin_names(ExtensionPoint::permit) == std::vector<std::string>{"Coscheduling"});
  CHECK((*frameworks)[0].plugin_names(ExtensionPoint::post_filter) ==
        std::vector<std::string>{"DefaultPreemption", "Reservation", "Coscheduling"});
  CHECK((*frameworks)[0].plugin_names(ExtensionPoint::pre_enqueue) == std::vector<std::string>{"SchedulingGates"});
  // Reservation nominates first (NodeNUMAResource and DeviceShare restore what it reserved), then
  // NodeNUMAResource: DeviceShare's Reserve uses the NUMA affinity it chose.
  CHECK((*frameworks)[0].plugin_names(ExtensionPoint::reserve) ==
        std::vector<std::string>{"Reservation", "NodeNUMAResource", "DeviceShare", "AliyunGPUShare"});
}

TEST_CASE("config/examples/default.yaml loads and equals the implicit default", "[registry]") {
  auto explicit_config = load_scheduler_configuration(std::string(TROUPE_SOURCE_DIR) + "/config/examples/default.yaml");
  REQUIRE(explicit_config);
  auto implicit_config = parse_scheduler_configuration(kHeader);
  REQUIRE(implicit_config);
  const auto& a = explicit_config->profiles[0];
  const auto& b = implicit_config->profiles[0];
  CHECK(a.scheduler_name == b.scheduler_name);
  for (ExtensionPoint point : config::kAllExtensionPoints) {
    INFO(config::yaml_key(point));
    REQUIRE(a.enabled_at(point).size() == b.enabled_at(point).size());
    for (size_t i = 0; i < a.enabled_at(point).size(); ++i) {
      CHECK(a.enabled_at(point)[i].name == b.enabled_at(point)[i].name);
      CHECK(a.enabled_at(point)[i].weight == b.enabled_at(point)[i].weight);
    }
  }
  CHECK(explicit_config->leader_election.resource_name == "troupe-scheduler");
  REQUIRE(make_frameworks(*explicit_config));
  // DeviceShare's args spelled out are its defaults: Fragmentation, learning its task classes.
  auto device_share = [](const Framework& framework) -> const deviceshare::DeviceShare* {
    for (size_t slot = 0; slot < framework.plugin_count(); ++slot)
      if (auto* p = dynamic_cast<const deviceshare::DeviceShare*>(framework.plugin_at(slot))) return p;
    return nullptr;
  };
  auto explicit_frameworks = make_frameworks(*explicit_config);
  auto implicit_frameworks = make_frameworks(*implicit_config);
  REQUIRE(explicit_frameworks);
  REQUIRE(implicit_frameworks);
  const auto* spelled = device_share(explicit_frameworks->front());
  const auto* implicit = device_share(implicit_frameworks->front());
  REQUIRE(spelled != nullptr);
  REQUIRE(implicit != nullptr);
  CHECK(implicit->args().strategy == deviceshare::ScoringStrategy::fragmentation);
  CHECK(spelled->args().strategy == implicit->args().strategy);
  CHECK(spelled->args().fragmentation.learned() == implicit->args().fragmentation.learned());
  CHECK(spelled->args().fragmentation.card_waste_weight == implicit->args().fragmentation.card_waste_weight);
  CHECK(spelled->args().fragmentation.spread_weight == implicit->args().fragmentation.spread_weight);
  CHECK(spelled->args().fragmentation.tie_break_seed == implicit->args().fragmentation.tie_break_seed);
  REQUIRE(spelled->args().resources.size() == implicit->args().resources.size());
  for (size_t i = 0; i < implicit->args().resources.size(); ++i) {
    CHECK(spelled->args().resources[i].name == implicit->args().resources[i].name);
    CHECK(spelled->args().resources[i].weight == implicit->args().resources[i].weight);
  }
}

TEST_CASE("plugin args errors name the pluginConfig entry", "[registry]") {
  struct Case {
    const char* body;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: Most}}\n",
       "profiles[0].pluginConfig[0].args: scoringStrategy.type: Unsupported value: \"Most\": supported values: "
       "\"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\""},
      {"profiles:\n- pluginConfig:\n  - name: NodeName\n    args: {foo: 1}\n",
       "profiles[0].pluginConfig[0].args: foo: unknown field"},
      {"profiles:\n- plugins: {filter: {enabled: [{name: DynamicResources}]}}\n",
       "profiles[0].plugins.filter.enabled[0].name: plugin \"DynamicResources\" is not implemented by troupe"},
      {"profiles:\n- pluginConfig:\n  - name: VolumeBinding\n    args: {bindTimeoutSeconds: -1}\n",
       "profiles[0].pluginConfig[0].args: bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should "
       "not be a negative value"},
      {"profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args: {hardPodAffinityWeight: 101}\n",
       "profiles[0].pluginConfig[0].args: hardPodAffinityWeight: Invalid value: 101: not in valid range [0-100]"},
      {"profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args: {defaultingType: List, "
       "defaultConstraints: [{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}]}\n",
       "profiles[0].pluginConfig[0].args: defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)"},
      {"profiles:\n- plugins: {score: {enabled: [{name: Foo}]}}\n",
       "profiles[0].plugins.score.enabled[0].name: unknown plugin \"Foo\""},
  };
  for (const auto& c : cases) {
    auto config = parse_scheduler_configuration(kHeader + c.body);
    REQUIRE_FALSE(config);
    CHECK(config.message() == c.message);
  }
}

TEST_CASE("a Koordinator-style profile that only reshapes in-tree plugins works", "[registry]") {
  auto config = parse_scheduler_configuration(kHeader + R"(
profiles:
- schedulerName: koord-scheduler
  plugins:
    postFilter: {disabled: [{name: DefaultPreemption}]}
    score:
      enabled:
      - {name: NodeResourcesFitPlus, weight: 5}
      - {name: ScarceResourceAvoidance, weight: 2}
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: LeastAllocated
        resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}, {name: kubernetes.io/batch-cpu, weight: 1}, {name: kubernetes.io/batch-memory, weight: 1}]
  - name: NodeResourcesFitPlus
    args: {resources: {nvidia.com/gpu: {type: MostAllocated, weight: 2}, cpu: {type: LeastAllocated, weight: 1}}}
  - name: ScarceResourceAvoidance
    args: {resources: [nvidia.com/gpu]}
  - name: DeviceShare
    args: {}
)");
  REQUIRE(config);
  auto frameworks = make_frameworks(*config);
  REQUIRE(frameworks);
  CHECK((*frameworks)[0].profile_name() == "koord-scheduler");
  CHECK((*frameworks)[0].plugin_names(ExtensionPoint::score).front() == "NodeResourcesFitPlus");
}

TEST_CASE("Koordinator's reference postFilter list loads, in its order", "[registry]") {
  // config/manager/scheduler-config.yaml: Reservation, Coscheduling, ElasticQuota, DefaultPreemption
  // (troupe's ElasticQuota has no PostFilter: quota preemption is absent, so it is left out here).
  auto config = parse_scheduler_configuration(kHeader + R"(
profiles:
- schedulerName: koord-scheduler
  plugins:
    postFilter:
      disabled: [{name: "*"}]
      enabled: [{name: Reservation}, {name: Coscheduling}, {name: DefaultPreemption}]
)");
  REQUIRE(config);
  auto frameworks = make_frameworks(*config);
  REQUIRE(frameworks);
  CHECK((*frameworks)[0].plugin_names(ExtensionPoint::post_filter) ==
        std::vector<std::string>{"Reservation", "Coscheduling", "DefaultPreemption"});
}

TEST_CASE("DefaultPreBind asks for PreBind's annotations to be patched onto the pod before the Binding",
          "[registry]") {
  auto config = parse_scheduler_configuration(kHeader + R"(
profiles:
- schedulerName: koord-scheduler
  plugins:
    preBind: {enabled: [{name: DefaultPreBind}]}
)");
  REQUIRE(config);
  auto frameworks = make_frameworks(*config);
  REQUIRE(frameworks);
  const auto& framework = (*frameworks)[0];
  CHECK(framework.plugin_names(ExtensionPoint::pre_bind).back() == "DefaultPreBind");
  CycleState state;
  BindingChanges changes;
  auto pod = PodInfo::make(Pod{});
  REQUIRE(DefaultPreBind{}.pre_bind(state, *pod, "node-1", changes).ok());
  CHECK(changes.patch_before_binding);

  auto default_profile = parse_scheduler_configuration(kHeader + "profiles:\n- schedulerName: troupe\n");
  REQUIRE(default_profile);
  CHECK(enabled_names(default_profile->profiles[0], ExtensionPoint::pre_bind) ==
        std::vector<std::string>{"VolumeBinding", "Reservation", "NodeNUMAResource", "DeviceShare", "AliyunGPUShare"});
}

TEST_CASE("config/examples/koordinator.yaml: Koordinator's reference profile, less what troupe refuses, loads",
          "[registry][deploy]") {
  auto config = load_scheduler_configuration(std::string(TROUPE_SOURCE_DIR) + "/config/examples/koordinator.yaml");
  if (!config) FAIL(config.message());
  REQUIRE(config->profiles.size() == 1);
  CHECK(config->profiles[0].scheduler_name == "koord-scheduler");
  CHECK(config->leader_election.resource_name == "koord-scheduler");
  auto frameworks = make_frameworks(*config);
  if (!frameworks) FAIL(frameworks.message());
  const Framework& framework = (*frameworks)[0];
  using Names = std::vector<std::string>;
  // Plugins named at a point and enabled by default run first there, in the
  // profile's order (kube-scheduler's multiPoint expansion); the others follow.
  const Names pre_filter = framework.plugin_names(ExtensionPoint::pre_filter);
  CHECK(Names(pre_filter.begin(), pre_filter.begin() + 5) ==
        Names{"SchedulingHint", "Reservation", "NodeNUMAResource", "DeviceShare", "Coscheduling"});
  CHECK(pre_filter.back() == "ElasticQuota");
  const Names filter = framework.plugin_names(ExtensionPoint::filter);
  CHECK(Names(filter.begin(), filter.begin() + 3) == Names{"NodeNUMAResource", "DeviceShare", "Reservation"});
  CHECK(filter.back() == "LoadAwareScheduling");
  CHECK(framework.plugin_names(ExtensionPoint::post_filter) == Names{"Reservation", "Coscheduling", "DefaultPreemption"});
  CHECK(framework.plugin_names(ExtensionPoint::permit) == Names{"Coscheduling"});
  CHECK(framework.plugin_names(ExtensionPoint::pre_bind).back() == "DefaultPreBind");
  CHECK(framework.plugin_names(ExtensionPoint::bind) == Names{"DefaultBinder"});
  int32_t reservation_weight = 0;
  for (const auto& entry : config->profiles[0].enabled_at(ExtensionPoint::score))
    if (entry.name == "Reservation") reservation_weight = entry.weight;
  CHECK(reservation_weight == 5000);
}

TEST_CASE("deploy/configmap.yaml carries a profile that loads and matches the example", "[registry][deploy]") {
  YAML::Node configmap = YAML::LoadFile(std::string(TROUPE_SOURCE_DIR) + "/deploy/configmap.yaml");
  CHECK(configmap["kind"].Scalar() == "ConfigMap");
  CHECK(configmap["metadata"]["name"].Scalar() == "troupe-scheduler-config");
  const YAML::Node embedded = configmap["data"]["scheduler-config.yaml"];
  REQUIRE(embedded.IsScalar());
  auto from_configmap = parse_scheduler_configuration(embedded.Scalar());
  if (!from_configmap) FAIL(from_configmap.message());
  auto example = load_scheduler_configuration(std::string(TROUPE_SOURCE_DIR) + "/config/examples/default.yaml");
  REQUIRE(example);
  CHECK(from_configmap->troupe.bind_address == example->troupe.bind_address);
  CHECK(from_configmap->leader_election.resource_name == example->leader_election.resource_name);
  const auto& a = from_configmap->profiles[0];
  const auto& b = example->profiles[0];
  CHECK(a.scheduler_name == b.scheduler_name);
  CHECK(a.plugin_names() == b.plugin_names());
  for (ExtensionPoint point : config::kAllExtensionPoints) {
    REQUIRE(a.enabled_at(point).size() == b.enabled_at(point).size());
    for (size_t i = 0; i < a.enabled_at(point).size(); ++i)
      CHECK(a.enabled_at(point)[i].weight == b.enabled_at(point)[i].weight);
  }
}

TEST_CASE("ElasticQuota runs at PreFilter only: its Reserve is the cycle's, quota preemption is absent",
          "[registry]") {
  auto config = parse_scheduler_configuration(kHeader + R"(
profiles:
- schedulerName: koord-scheduler
  plugins:
    preFilter: {enabled: [{name: ElasticQuota}]}
  pluginConfig:
  - name: ElasticQuota
    args: {quotaGroupNamespace: koordinator-system, enableCheckParentQuota: true}
)");
  REQUIRE(config);
  auto frameworks = make_frameworks(*config);
  REQUIRE(frameworks);
  CHECK((*frameworks)[0].plugin_names(ExtensionPoint::pre_filter).back() == "ElasticQuota");
  const auto* plugin = elastic_quota::ElasticQuotaPlugin::of((*frameworks)[0]);
  REQUIRE(plugin != nullptr);
  CHECK(plugin->args().enable_check_parent_quota);
  for (const char* point : {"reserve", "postFilter"}) {
    auto refused = parse_scheduler_configuration(kHeader + "profiles:\n- schedulerName: s\n  plugins:\n    " + point +
                                                 ": {enabled: [{name: ElasticQuota}]}\n");
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.message(), Catch::Contains("plugin \"ElasticQuota\" does not extend"));
  }
}
