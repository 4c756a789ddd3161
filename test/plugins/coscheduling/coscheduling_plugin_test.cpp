#include <catch2/catch.hpp>

#include "plugins/coscheduling/coscheduling_plugin.hpp"
#include "plugins/registry.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::coscheduling;
using namespace std::chrono_literals;

namespace {

std::shared_ptr<const Coscheduling> make(const std::string& yaml) {
  auto plugin = Coscheduling::make(yaml.empty() ? YAML::Node() : YAML::Load(yaml));
  if (!plugin) FAIL(plugin.message());
  return std::dynamic_pointer_cast<const Coscheduling>(*plugin);
}

PodInfo pod_info() {
  Pod pod;
  pod.meta.namespace_name = "ns";
  pod.meta.name = "p";
  return *PodInfo::make(std::move(pod));
}

}  // namespace

TEST_CASE("Coscheduling args: defaults and values", "[coscheduling]") {
  auto defaults = make("");
  CHECK(defaults->args().defaults.timeout == 600s);
  CHECK(defaults->args().defaults.match_policy == MatchPolicy::once_satisfied);
  CHECK(defaults->args().controller_workers == 1);
  auto set = make("{defaultTimeout: 30s, controllerWorkers: 4, defaultMatchPolicy: only-waiting, "
                  "skipCheckScheduleCycle: true, enablePreemption: false, awareNetworkTopology: false}");
  CHECK(set->args().defaults.timeout == 30s);
  CHECK(set->args().defaults.match_policy == MatchPolicy::only_waiting);
  CHECK(set->args().controller_workers == 4);
  CHECK(set->args().skip_check_schedule_cycle);
}

TEST_CASE("Coscheduling args: errors name the field", "[coscheduling]") {
  struct Case {
    const char* yaml;
    const char* message_part;
  };
  const std::vector<Case> cases = {
      {"{defaultTimeout: -1s}", "defaultTimeout: must not be negative"},
      {"{defaultTimeout: soon}", "defaultTimeout"},
      {"{controllerWorkers: 0}", "controllerWorkers: must be at least 1"},
      {"{defaultMatchPolicy: always}", "defaultMatchPolicy: must be one of"},
      {"{enablePreemption: true}", "enablePreemption: true is not supported by troupe"},
      {"{awareNetworkTopology: true}", "awareNetworkTopology: true is not supported by troupe"},
      {"{timeout: 3s}", "timeout"},
      {"[1]", ""},
  };
  for (const auto& c : cases) {
    INFO(c.yaml);
    auto plugin = Coscheduling::make(YAML::Load(c.yaml));
    REQUIRE_FALSE(plugin.ok());
    CHECK_THAT(plugin.message(), Catch::Contains(c.message_part));
  }
}

TEST_CASE("Coscheduling: PreFilter and Permit follow the cycle's gang view", "[coscheduling]") {
  auto plugin = make("");
  PodInfo pod = pod_info();
  GangSpec spec;
  spec.id = "ns/g";
  spec.min_member = 2;
  spec.wait_time = 5s;
  struct Case {
    const char* name;
    std::optional<GangView> view;
    Code pre_filter;
    Code permit;
  };
  GangView not_gang;
  GangView invalid;
  invalid.invalid = "gang.scheduling.koordinator.sh/min-available: must be a positive integer, got \"x\"";
  GangView not_ready;
  not_ready.spec = spec;
  not_ready.not_ready = "gang child pod not collect enough";
  GangView waits;
  waits.spec = spec;
  GangView allowed = waits;
  allowed.permit_allowed = true;
  const std::vector<Case> cases = {
      {"no view (the cycle shared none)", std::nullopt, Code::success, Code::success},
      {"not a gang pod", not_gang, Code::success, Code::success},
      {"unreadable gang", invalid, Code::unschedulable_and_unresolvable, Code::success},
      {"too few members", not_ready, Code::unschedulable_and_unresolvable, Code::wait},
      {"a gang pod that must wait", waits, Code::success, Code::wait},
      {"a gang pod the book allowed", allowed, Code::success, Code::success},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CycleState state(4);
    if (c.view) plugin->share_view(state, *c.view);
    PreFilterResult result;
    auto pre = plugin->pre_filter(state, pod, result);
    CHECK(pre.code == c.pre_filter);
    if (c.view && !c.view->invalid.empty()) CHECK(pre.message() == c.view->invalid);
    auto permit = plugin->permit(state, pod, "node-1");
    CHECK(permit.status.code == c.permit);
    if (permit.status.code == Code::wait) CHECK(permit.timeout == 5s);
  }
}

TEST_CASE("Coscheduling: PostFilter rejects the group of a Strict gang's member only", "[coscheduling]") {
  auto plugin = make("");
  PodInfo pod = pod_info();
  GangSpec spec;
  spec.id = "ns/g";
  GangView not_gang;
  GangView invalid;
  invalid.invalid = "unreadable";
  GangView keeps_waiting;  // NonStrict, or a once-satisfied gang that was satisfied
  keeps_waiting.spec = spec;
  GangView rejects = keeps_waiting;
  rejects.failure_rejects_group = true;
  GangView turned_away = rejects;  // its schedule cycle was over: Koordinator's skipReject
  turned_away.skip_reject = true;
  struct Case {
    const char* name;
    std::optional<GangView> view;
    std::string message;  // "" = Unschedulable without a reason, nothing rejected
  };
  const std::vector<Case> cases = {
      {"no view", std::nullopt, ""},
      {"not a gang pod", not_gang, ""},
      {"unreadable gang", invalid, ""},
      {"its group keeps waiting", keeps_waiting, ""},
      {"its group is rejected", rejects, "Gang \"ns/g\" gets rejected due to pod is unschedulable"},
      {"turned away by the schedule cycle", turned_away, ""},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CycleState state(4);
    if (c.view) plugin->share_view(state, *c.view);
    auto result = plugin->post_filter(state, pod, {});
    CHECK(result.status.code == Code::unschedulable);
    CHECK(result.message == c.message);
    CHECK(result.status.message() == c.message);
    CHECK(!result.nominated_node);
    const GangView* after = plugin->view(state);
    CHECK((after != nullptr && after->rejected_at_post_filter) == !c.message.empty());
  }
}

TEST_CASE("Coscheduling: enabled by the default profile, configurable by name", "[coscheduling]") {
  auto config = parse_scheduler_configuration(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: gangs
  pluginConfig:
  - name: Coscheduling
    args: {defaultTimeout: 45s}
)");
  if (!config) FAIL(config.message());
  auto frameworks = make_frameworks(*config);
  if (!frameworks) FAIL(frameworks.message());
  const auto& framework = frameworks->front();
  auto names = framework.plugin_names(config::ExtensionPoint::permit);
  CHECK(std::find(names.begin(), names.end(), "Coscheduling") != names.end());
  names = framework.plugin_names(config::ExtensionPoint::pre_filter);
  CHECK(std::find(names.begin(), names.end(), "Coscheduling") != names.end());
  const Coscheduling* plugin = nullptr;
  for (size_t slot = 0; slot < framework.plugin_count(); ++slot)
    if (auto* p = dynamic_cast<const Coscheduling*>(framework.plugin_at(slot))) plugin = p;
  REQUIRE(plugin != nullptr);
  CHECK(plugin->args().defaults.timeout == 45s);
}
