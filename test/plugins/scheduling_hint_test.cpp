#include <catch2/catch.hpp>

#include "plugins/registry.hpp"
#include "plugins/scheduling_hint/scheduling_hint.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::scheduling_hint;
using Names = std::vector<std::string>;

namespace {

const std::string kHeader = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

Framework default_framework() {
  auto config = parse_scheduler_configuration(kHeader);
  REQUIRE(config);
  auto frameworks = make_frameworks(*config);
  REQUIRE(frameworks);
  return std::move((*frameworks)[0]);
}

ObjectMeta meta_with(std::map<std::string, std::string> annotations) {
  ObjectMeta meta;
  meta.name = "p";
  meta.annotations = std::move(annotations);
  return meta;
}

}  // namespace

TEST_CASE("a scheduling hint decodes, or says which field is wrong", "[scheduling_hint]") {
  struct Case {
    const char* text;
    Names node_names;
    Names preferred;
    const char* error;  // nullptr: decodes
  };
  const std::vector<Case> cases = {
      {R"({"nodeNames":["a","b"]})", {"a", "b"}, {}, nullptr},
      {R"({"preferredNodeNames":["b","a"]})", {}, {"b", "a"}, nullptr},
      {R"({"nodeNames":["a"],"preferredNodeNames":["a"],"extensions":{"DeviceShare":{"x":1}}})", {"a"}, {"a"}, nullptr},
      {R"({})", {}, {}, nullptr},
      {R"(null)", {}, {}, nullptr},
      {R"({"nodeNames":null,"extensions":null})", {}, {}, nullptr},
      {R"({"somethingNew":true})", {}, {}, nullptr},  // Go ignores unknown fields
      {R"({"nodeNames":"a"})", {}, {}, "nodeNames"},
      {R"({"nodeNames":[1]})", {}, {}, "nodeNames"},
      {R"({"preferredNodeNames":{"a":1}})", {}, {}, "preferredNodeNames"},
      {R"({"extensions":[]})", {}, {}, "extensions: must be an object"},
      {R"(["a"])", {}, {}, "must be an object"},
      {R"({"nodeNames":["a")", {}, {}, ""},
      {R"(node-a)", {}, {}, ""},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto hint = decode_scheduling_hint(c.text);
    if (c.error != nullptr) {
      REQUIRE_FALSE(hint);
      CHECK_THAT(hint.message(), Catch::Contains(c.error));
      continue;
    }
    REQUIRE(hint);
    CHECK(hint->node_names == c.node_names);
    CHECK(hint->preferred_node_names == c.preferred);
  }
}

TEST_CASE("the hint's extensions name the plugins they are for", "[scheduling_hint]") {
  struct Case {
    const char* hint;  // nullptr: no annotation
    bool device_share;
  };
  const std::vector<Case> cases = {
      {nullptr, false},
      {R"({"nodeNames":["a"]})", false},
      {R"({"extensions":{"DeviceShare":{}}})", true},
      {R"({"extensions":{"Reservation":{},"DeviceShare":{"anything":1}}})", true},
      {R"({"extensions":{"deviceshare":{}}})", false},  // plugin names are exact
      {R"({"extensions":null})", false},
      {R"({"extensions":[]})", false},  // malformed: SchedulingHint's PreFilter says why
  };
  for (const auto& c : cases) {
    INFO((c.hint != nullptr ? c.hint : "(none)"));
    CHECK(hint_extends(meta_with(c.hint != nullptr ? std::map<std::string, std::string>{{kAnnotationSchedulingHint, c.hint}}
                                                   : std::map<std::string, std::string>{}),
                       "DeviceShare") == c.device_share);
  }
  auto decoded = decode_scheduling_hint(R"({"extensions":{"B":{},"A":{}}})");
  REQUIRE(decoded);
  CHECK(decoded->extensions == Names{"B", "A"});
}

TEST_CASE("the new annotation wins, an empty one falls back to the deprecated key", "[scheduling_hint]") {
  struct Case {
    std::map<std::string, std::string> annotations;
    std::optional<Names> node_names;  // nullopt: no hint
    const char* error;
  };
  const std::vector<Case> cases = {
      {{}, std::nullopt, nullptr},
      {{{kAnnotationSchedulingHint, R"({"nodeNames":["new"]})"}}, Names{"new"}, nullptr},
      {{{kDeprecatedAnnotationSchedulingHint, R"({"nodeNames":["old"]})"}}, Names{"old"}, nullptr},
      {{{kAnnotationSchedulingHint, R"({"nodeNames":["new"]})"},
        {kDeprecatedAnnotationSchedulingHint, R"({"nodeNames":["old"]})"}},
       Names{"new"},
       nullptr},
      {{{kAnnotationSchedulingHint, ""}, {kDeprecatedAnnotationSchedulingHint, R"({"nodeNames":["old"]})"}},
       Names{"old"},
       nullptr},
      {{{kAnnotationSchedulingHint, ""}}, std::nullopt, nullptr},
      {{{kAnnotationSchedulingHint, "{"}},
       std::nullopt,
       "invalid annotation internal.scheduling.koordinator.sh/scheduling-hint: "},
      {{{kDeprecatedAnnotationSchedulingHint, R"({"nodeNames":"a"})"}},
       std::nullopt,
       "invalid annotation scheduling.koordinator.sh/scheduling-hint: nodeNames"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i);
    auto hint = scheduling_hint_of(meta_with(cases[i].annotations));
    if (cases[i].error != nullptr) {
      REQUIRE_FALSE(hint);
      CHECK_THAT(hint.message(), Catch::StartsWith(cases[i].error));
      continue;
    }
    REQUIRE(hint);
    REQUIRE(hint->has_value() == cases[i].node_names.has_value());
    if (*hint) CHECK((*hint)->node_names == *cases[i].node_names);
  }
}

TEST_CASE("the preferred nodes are cut to maxHintNodes and to PreFilter's node names", "[scheduling_hint]") {
  using Allowed = std::optional<std::set<std::string>>;
  struct Case {
    Names preferred;
    int64_t max;
    Allowed allowed;
    Names expected;
  };
  const std::vector<Case> cases = {
      {{"a", "b", "c"}, 100, std::nullopt, {"a", "b", "c"}},
      {{"c", "b", "a"}, 100, std::nullopt, {"c", "b", "a"}},  // the hint's order
      {{"a", "b", "c"}, 2, std::nullopt, {"a", "b"}},
      {{"a", "b", "c"}, 0, std::nullopt, {}},
      {{"a", "b", "c"}, 100, Allowed{{"b", "z"}}, {"b"}},
      {{"a", "b", "c"}, 1, Allowed{{"b"}}, {}},  // cut first, then intersected: "b" was past the cut
      {{"a", "b"}, 100, Allowed{{"z"}}, {}},      // outside PreFilter's nodes: the hint is dropped
      {{"a", "a", "b"}, 100, std::nullopt, {"a", "b"}},
      {{}, 100, std::nullopt, {}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i);
    CHECK(nodes_to_prefer(cases[i].preferred, cases[i].max, cases[i].allowed) == cases[i].expected);
  }
}

TEST_CASE("SchedulingHintArgs default maxHintNodes to 100 and reject what is not a count", "[scheduling_hint]") {
  struct Case {
    const char* args;
    int64_t max;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"{}", 100, nullptr},
      {"{maxHintNodes: 3}", 3, nullptr},
      {"{maxHintNodes: 1}", 1, nullptr},
      {"{maxHintNodes: 0}", 0, "maxHintNodes: Invalid value: 0: must be a positive value"},
      {"{maxHintNodes: -1}", 0, "maxHintNodes: Invalid value: -1: must be a positive value"},
      {"{maxHintNodes: many}", 0, "maxHintNodes"},
      {"{maxHints: 3}", 0, "maxHints"},
  };
  for (const auto& c : cases) {
    INFO(c.args);
    auto config = parse_scheduler_configuration(kHeader + R"(profiles:
- schedulerName: s
  pluginConfig:
  - name: SchedulingHint
    args: )" + c.args + "\n");
    if (c.error != nullptr) {
      REQUIRE_FALSE(config);
      CHECK_THAT(config.message(), Catch::Contains(c.error));
      continue;
    }
    REQUIRE(config);
    auto frameworks = make_frameworks(*config);
    REQUIRE(frameworks);
    const auto* plugin = SchedulingHintPlugin::of((*frameworks)[0]);
    REQUIRE(plugin != nullptr);
    // What the args mean: how many of 200 preferred nodes survive.
    Names many;
    for (int i = 0; i < 200; ++i) many.push_back("n" + std::to_string(i));
    Pod pod = testing::PodBuilder("p").container({{"cpu", "1"}}).pod();
    std::string list = "[";
    for (size_t i = 0; i < many.size(); ++i) list += (i ? ",\"" : "\"") + many[i] + "\"";
    pod.meta.annotations[kAnnotationSchedulingHint] = R"({"preferredNodeNames":)" + list + "]}";
    auto info = PodInfo::make(pod);
    auto state = (*frameworks)[0].new_cycle_state();
    REQUIRE((*frameworks)[0].run_pre_filter(*state, *info).ok());
    CHECK(plugin->preferred_nodes(*state).size() == static_cast<size_t>(c.max));
  }
}

TEST_CASE("SchedulingHint's PreFilter restricts the nodes, keeps the preferred ones, fails on a bad hint",
          "[scheduling_hint]") {
  Framework fw = default_framework();
  const auto* plugin = SchedulingHintPlugin::of(fw);
  REQUIRE(plugin != nullptr);
  auto run = [&](std::map<std::string, std::string> annotations, PluginStatus& status) {
    Pod pod = testing::PodBuilder("p").container({{"cpu", "1"}}).pod();
    pod.meta.annotations = std::move(annotations);
    auto info = PodInfo::make(pod);
    std::shared_ptr<CycleState> state = fw.new_cycle_state();
    status = fw.run_pre_filter(*state, *info);
    return state;
  };
  PluginStatus status;

  SECTION("no hint: every node, nothing preferred") {
    auto state = run({}, status);
    REQUIRE(status.ok());
    CHECK_FALSE(state->node_names.has_value());
    CHECK(plugin->preferred_nodes(*state).empty());
  }
  SECTION("nodeNames restrict the candidates, as any PreFilter's node names") {
    auto state = run({{kAnnotationSchedulingHint, R"({"nodeNames":["b","a"],"preferredNodeNames":["c","a"]})"}},
                     status);
    REQUIRE(status.ok());
    REQUIRE(state->node_names.has_value());
    CHECK(*state->node_names == std::set<std::string>{"a", "b"});
    CHECK(state->node_names_plugins == Names{"SchedulingHint"});
    CHECK(plugin->preferred_nodes(*state) == Names{"a"});  // "c" is outside nodeNames
    CHECK(Framework::excluded_by_pre_filter_reason(*state) == "node(s) didn't satisfy plugin(s) [SchedulingHint]");
  }
  SECTION("preferred nodes alone leave every node a candidate") {
    auto state = run({{kAnnotationSchedulingHint, R"({"preferredNodeNames":["c","a"]})"}}, status);
    REQUIRE(status.ok());
    CHECK_FALSE(state->node_names.has_value());
    CHECK(plugin->preferred_nodes(*state) == Names{"c", "a"});
  }
  SECTION("a malformed hint is an error that names the plugin and the annotation") {
    run({{kAnnotationSchedulingHint, R"({"nodeNames":"a"})"}}, status);
    CHECK(status.code == Code::error);
    CHECK(status.plugin == "SchedulingHint");
    CHECK_THAT(status.message(), Catch::Contains("invalid annotation internal.scheduling.koordinator.sh/"
                                                 "scheduling-hint: nodeNames"));
  }
  SECTION("a later attempt without the hint forgets the earlier one") {
    Pod pod = testing::PodBuilder("p").container({{"cpu", "1"}}).pod();
    pod.meta.annotations[kAnnotationSchedulingHint] = R"({"preferredNodeNames":["a"]})";
    std::shared_ptr<CycleState> state = fw.new_cycle_state();
    REQUIRE(fw.run_pre_filter(*state, *PodInfo::make(pod)).ok());
    REQUIRE(plugin->preferred_nodes(*state) == Names{"a"});
    pod.meta.annotations.clear();
    REQUIRE(fw.run_pre_filter(*state, *PodInfo::make(pod)).ok());
    CHECK(plugin->preferred_nodes(*state).empty());
  }
}
