#include <catch2/catch.hpp>

#include "plugins/node_affinity/node_affinity.hpp"
#include "plugins/node_affinity/node_selector.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;
using Op = LabelRequirement::Op;

namespace {

std::shared_ptr<const troupe::plugins::NodeAffinity> make_affinity(const std::string& yaml = "") {
  auto plugin = troupe::plugins::NodeAffinity::make(yaml.empty() ? YAML::Node() : YAML::Load(yaml));
  if (!plugin) FAIL(plugin.message());
  return std::dynamic_pointer_cast<const troupe::plugins::NodeAffinity>(*plugin);
}

NodeSelectorTerm expressions(std::vector<LabelRequirement> r) { return NodeSelectorTerm{std::move(r), {}}; }
NodeSelectorTerm fields(std::vector<LabelRequirement> r) { return NodeSelectorTerm{{}, std::move(r)}; }

const Node& node_of(const NodeInfo& info) { return *info.node(); }

}  // namespace

TEST_CASE("node selector terms match with every operator", "[node_affinity]") {
  NodeInfo info = NodeBuilder("node-1").label("zone", "a").label("cores", "16").label("gpu", "").info();
  const Node& node = node_of(info);
  struct Case {
    const char* name;
    NodeSelectorTerm term;
    bool matches;
  };
  const std::vector<Case> cases = {
      {"In", expressions({requirement("zone", Op::in, {"a", "b"})}), true},
      {"In other", expressions({requirement("zone", Op::in, {"b"})}), false},
      {"NotIn", expressions({requirement("zone", Op::not_in, {"b"})}), true},
      {"NotIn listed", expressions({requirement("zone", Op::not_in, {"a"})}), false},
      {"NotIn missing label", expressions({requirement("rack", Op::not_in, {"a"})}), true},
      {"Exists", expressions({requirement("gpu", Op::exists)}), true},
      {"Exists missing", expressions({requirement("tpu", Op::exists)}), false},
      {"DoesNotExist", expressions({requirement("tpu", Op::does_not_exist)}), true},
      {"DoesNotExist present", expressions({requirement("gpu", Op::does_not_exist)}), false},
      {"Gt", expressions({requirement("cores", Op::gt, {"8"})}), true},
      {"Gt equal", expressions({requirement("cores", Op::gt, {"16"})}), false},
      {"Lt", expressions({requirement("cores", Op::lt, {"32"})}), true},
      {"Lt non-integer label", expressions({requirement("zone", Op::lt, {"32"})}), false},
      {"Gt missing label", expressions({requirement("ram", Op::gt, {"1"})}), false},
      {"AND within a term", expressions({requirement("zone", Op::in, {"a"}), requirement("cores", Op::gt, {"32"})}), false},
      {"matchFields In", fields({requirement("metadata.name", Op::in, {"node-1"})}), true},
      {"matchFields In other", fields({requirement("metadata.name", Op::in, {"node-2"})}), false},
      {"matchFields NotIn", fields({requirement("metadata.name", Op::not_in, {"node-2"})}), true},
      {"matchFields on another field never matches", fields({requirement("metadata.uid", Op::in, {"node-1"})}), false},
      {"expressions and fields ANDed",
       NodeSelectorTerm{{requirement("zone", Op::in, {"a"})}, {requirement("metadata.name", Op::in, {"node-2"})}}, false},
      {"empty term matches nothing", NodeSelectorTerm{}, false},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(term_matches(c.term, node) == c.matches);
  }
  CHECK(selector_matches(NodeSelector{{expressions({requirement("zone", Op::in, {"b"})}),
                                       expressions({requirement("gpu", Op::exists)})}},
                         node));  // terms are ORed
  CHECK_FALSE(selector_matches(NodeSelector{}, node));
}

TEST_CASE("NodeAffinity Filter: nodeSelector, required terms, addedAffinity", "[node_affinity]") {
  auto plugin = make_affinity();
  NodeInfo a = NodeBuilder("a").label("zone", "a").label("disk", "ssd").info();
  NodeInfo b = NodeBuilder("b").label("zone", "b").info();
  const std::string reason = "node(s) didn't match Pod's node affinity/selector";

  auto plain = PodBuilder("p").info();
  CHECK(plugin->filter(CycleState(), *plain, b).ok());

  auto selector = PodBuilder("s").node_selector({{"zone", "a"}, {"disk", "ssd"}}).info();
  CHECK(plugin->filter(CycleState(), *selector, a).ok());
  PluginStatus s = plugin->filter(CycleState(), *selector, b);
  CHECK(s.code == Code::unschedulable_and_unresolvable);
  CHECK(s.reasons == std::vector<std::string>{reason});

  auto required = PodBuilder("r").required_terms({expressions({requirement("zone", Op::in, {"b"})})}).info();
  CHECK(plugin->filter(CycleState(), *required, b).ok());
  CHECK(plugin->filter(CycleState(), *required, a).reasons == std::vector<std::string>{reason});

  auto both = PodBuilder("r").node_selector({{"zone", "a"}}).required_terms({expressions({requirement("zone", Op::in, {"b"})})}).info();
  CHECK_FALSE(plugin->filter(CycleState(), *both, a).ok());
  CHECK_FALSE(plugin->filter(CycleState(), *both, b).ok());

  auto enforced = make_affinity(
      "{addedAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: "
      "[{key: zone, operator: In, values: [a]}]}]}}}");
  CHECK(enforced->filter(CycleState(), *plain, a).ok());
  CHECK(enforced->filter(CycleState(), *plain, b).reasons ==
        std::vector<std::string>{"node(s) didn't match scheduler-enforced node affinity"});
}

TEST_CASE("NodeAffinity PreFilter skips, pins node names, detects conflicts", "[node_affinity]") {
  auto plugin = make_affinity();
  CycleState state;
  PreFilterResult result;
  CHECK(plugin->pre_filter(state, *PodBuilder("p").info(), result).code == Code::skip);
  CHECK(plugin->pre_filter(state, *PodBuilder("p").node_selector({{"a", "b"}}).info(), result).ok());
  CHECK_FALSE(result.node_names);

  auto pinned = PodBuilder("p")
                    .required_terms({fields({requirement("metadata.name", Op::in, {"n1", "n2"}),
                                             requirement("metadata.name", Op::in, {"n2", "n3"})}),
                                     fields({requirement("metadata.name", Op::in, {"n4"})})})
                    .info();
  PreFilterResult r1;
  REQUIRE(plugin->pre_filter(state, *pinned, r1).ok());
  REQUIRE(r1.node_names);
  CHECK(*r1.node_names == std::set<std::string>{"n2", "n4"});

  auto open = PodBuilder("p")
                  .required_terms({fields({requirement("metadata.name", Op::in, {"n1"})}),
                                   expressions({requirement("zone", Op::exists)})})
                  .info();
  PreFilterResult r2;
  REQUIRE(plugin->pre_filter(state, *open, r2).ok());
  CHECK_FALSE(r2.node_names);  // the second term admits any node

  auto conflict = PodBuilder("p")
                      .required_terms({fields({requirement("metadata.name", Op::in, {"n1"}),
                                               requirement("metadata.name", Op::in, {"n2"})})})
                      .info();
  PreFilterResult r3;
  PluginStatus s = plugin->pre_filter(state, *conflict, r3);
  CHECK(s.code == Code::unschedulable_and_unresolvable);
  CHECK(s.message() == "pod affinity terms conflict");
}

TEST_CASE("NodeAffinity scores preferred terms and normalizes to 100", "[node_affinity]") {
  auto plugin = make_affinity(
      "{addedAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 5, preference: {matchExpressions: "
      "[{key: disk, operator: In, values: [ssd]}]}}]}}");
  auto pod = PodBuilder("p")
                 .preferred(2, expressions({requirement("zone", Op::in, {"a"})}))
                 .preferred(10, expressions({requirement("gpu", Op::exists)}))
                 .preferred(0, expressions({requirement("zone", Op::exists)}))  // weight 0: no-op
                 .info();
  std::vector<NodeInfo> nodes;
  nodes.push_back(NodeBuilder("a").label("zone", "a").info());                                   // 2
  nodes.push_back(NodeBuilder("b").label("zone", "a").label("gpu", "").info());                  // 12
  nodes.push_back(NodeBuilder("c").label("zone", "b").label("gpu", "").label("disk", "ssd").info());  // 15
  nodes.push_back(NodeBuilder("d").info());                                                      // 0
  CycleState state;
  REQUIRE(plugin->pre_score(state, *pod).ok());
  std::vector<int64_t> scores;
  for (const auto& n : nodes) scores.push_back(plugin->score(state, *pod, n).score);
  CHECK(scores == std::vector<int64_t>{2, 12, 15, 0});
  REQUIRE(plugin->normalize_scores(state, *pod, scores).ok());
  CHECK(scores == std::vector<int64_t>{13, 80, 100, 0});

  auto no_pref = make_affinity();
  CHECK(no_pref->pre_score(state, *PodBuilder("x").info()).code == Code::skip);
  CHECK(no_pref->pre_score(state, *PodBuilder("x").preferred(0, expressions({requirement("a", Op::exists)})).info()).code ==
        Code::skip);
}

TEST_CASE("NodeAffinity args kube-scheduler loads are loaded: no term, weights out of 1-100", "[node_affinity]") {
  // No nodeSelectorTerms: NewNodeSelector accepts it, and no node matches.
  auto none = make_affinity("{addedAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}}");
  CHECK(none->filter(CycleState(), *PodBuilder("p").info(), NodeBuilder("a").info()).reasons ==
        std::vector<std::string>{"node(s) didn't match scheduler-enforced node affinity"});
  // Weights are not range-checked: 0 adds nothing, 150 counts as 150.
  auto weighted = make_affinity(
      "{addedAffinity: {preferredDuringSchedulingIgnoredDuringExecution: ["
      "{weight: 0, preference: {matchExpressions: [{key: zone, operator: Exists}]}},"
      "{weight: 150, preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}}]}}");
  CycleState state;
  auto pod = PodBuilder("p").info();
  REQUIRE(weighted->pre_score(state, *pod).ok());
  CHECK(weighted->score(state, *pod, NodeBuilder("a").label("zone", "a").info()).score == 0);
  CHECK(weighted->score(state, *pod, NodeBuilder("b").label("zone", "a").label("disk", "ssd").info()).score == 150);
}

TEST_CASE("NodeAffinity args are validated with field paths", "[node_affinity]") {
  struct Case {
    const char* args;
    const char* message;
  };
  const std::string req = "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
  const std::vector<Case> cases = {
      {"{addedAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: "
       "[{key: a, operator: Near, values: [x]}]}]}}}",
       "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]."
       "operator: Unsupported value: \"Near\": supported values: \"DoesNotExist\", \"Exists\", \"Gt\", \"In\", "
       "\"Lt\", \"NotIn\""},
      {"{addedAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: "
       "[{key: a, operator: In}]}]}}}",
       "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: "
       "Required value: must be specified when `operator` is 'In' or 'NotIn'"},
      {"{addedAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: "
       "[{key: a, operator: Gt, values: [x]}]}]}}}",
       "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: "
       "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"},
      {"{addedAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: "
       "[{key: a, operator: Exists, values: [x]}]}]}}}",
       "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: "
       "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"},
      {"{addedAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: "
       "metadata.uid, operator: In, values: [x]}]}]}}}",
       "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key: Invalid "
       "value: \"metadata.uid\": not a valid field selector key"},
      {"{addedAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 3}]}}",
       "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference: Required value"},
      {"{addedAfinity: {}}", "addedAfinity: unknown field"},
  };
  for (const auto& c : cases) {
    auto plugin = troupe::plugins::NodeAffinity::make(YAML::Load(c.args));
    REQUIRE_FALSE(plugin);
    CHECK(plugin.message() == c.message);
  }
}
