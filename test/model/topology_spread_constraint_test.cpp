// spec.topologySpreadConstraints as decode_pod reads them: the API server's
// defaults, and its validation errors naming the field.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/pod.hpp"

using namespace troupe;

namespace {

std::string pod_with(const std::string& constraints) {
  return R"({"metadata": {"name": "p", "namespace": "default"}, "spec": {"topologySpreadConstraints": )" +
         constraints + "}}";
}

Pod must_decode(const std::string& text) {
  Result<Pod> pod = decode_pod_json(text);
  INFO(text);
  if (!pod) FAIL(pod.message());
  return *pod;
}

}  // namespace

TEST_CASE("topologySpreadConstraints decode with the API server's defaults", "[topology_spread_constraint]") {
  Pod pod = must_decode(pod_with(R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
                                      "labelSelector": {"matchLabels": {"app": "web"}}}])"));
  REQUIRE(pod.spec.topology_spread_constraints.size() == 1);
  const TopologySpreadConstraint& c = pod.spec.topology_spread_constraints[0];
  CHECK(c.max_skew == 1);
  CHECK(c.topology_key == "zone");
  CHECK(c.when_unsatisfiable == UnsatisfiableAction::do_not_schedule);
  CHECK(c.node_affinity_policy == NodeInclusionPolicy::honor);
  CHECK(c.node_taints_policy == NodeInclusionPolicy::ignore);
  CHECK_FALSE(c.min_domains);
  CHECK(c.match_label_keys.empty());
  REQUIRE(c.label_selector);
  CHECK(c.label_selector->matches({{"app", "web"}}));
  CHECK_FALSE(c.label_selector->matches({{"app", "db"}}));

  CHECK(must_decode(R"({"metadata": {"name": "p"}, "spec": {}})").spec.topology_spread_constraints.empty());
  CHECK(must_decode(pod_with("[]")).spec.topology_spread_constraints.empty());
  CHECK(must_decode(pod_with("null")).spec.topology_spread_constraints.empty());
  Pod null_selector = must_decode(
      pod_with(R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
                   "labelSelector": null}])"));
  CHECK_FALSE(null_selector.spec.topology_spread_constraints.at(0).label_selector);  // null: nil, selects no pod
}

TEST_CASE("topologySpreadConstraints decode every field", "[topology_spread_constraint]") {
  Pod pod = must_decode(pod_with(R"([
      {"maxSkew": 2, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule",
       "labelSelector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["web", "api"]}]},
       "minDomains": 3, "nodeAffinityPolicy": "Ignore", "nodeTaintsPolicy": "Honor",
       "matchLabelKeys": ["pod-template-hash"]},
      {"maxSkew": 1, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "ScheduleAnyway",
       "nodeAffinityPolicy": "Honor", "nodeTaintsPolicy": "Ignore"},
      {"maxSkew": 1, "topologyKey": "rack", "whenUnsatisfiable": "ScheduleAnyway", "labelSelector": {}}])"));
  REQUIRE(pod.spec.topology_spread_constraints.size() == 3);
  const auto& first = pod.spec.topology_spread_constraints[0];
  CHECK(first.max_skew == 2);
  CHECK(first.topology_key == "topology.kubernetes.io/zone");
  CHECK(first.min_domains == std::optional<int32_t>(3));
  CHECK(first.node_affinity_policy == NodeInclusionPolicy::ignore);
  CHECK(first.node_taints_policy == NodeInclusionPolicy::honor);
  CHECK(first.match_label_keys == std::vector<std::string>{"pod-template-hash"});
  REQUIRE(first.label_selector);
  CHECK(first.label_selector->matches({{"app", "api"}}));
  CHECK_FALSE(first.label_selector->matches({{"app", "db"}}));

  const auto& second = pod.spec.topology_spread_constraints[1];
  CHECK(second.when_unsatisfiable == UnsatisfiableAction::schedule_anyway);
  CHECK(second.node_affinity_policy == NodeInclusionPolicy::honor);
  CHECK(second.node_taints_policy == NodeInclusionPolicy::ignore);
  CHECK_FALSE(second.label_selector);  // absent: nil, selects no pod

  const auto& third = pod.spec.topology_spread_constraints[2];
  REQUIRE(third.label_selector);  // {}: selects every pod
  CHECK(third.label_selector->empty());
  CHECK(third.label_selector->matches({}));
}

TEST_CASE("topologySpreadConstraints survive encode unchanged", "[topology_spread_constraint]") {
  const std::string text = pod_with(R"([{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule",)"
                                    R"("labelSelector":{"matchLabels":{"app":"web"}}}])");
  Pod pod = must_decode(text);
  auto input = parse_json(text);
  REQUIRE(input.ok());
  CHECK(encode(pod) == to_json(**input));
}

TEST_CASE("topologySpreadConstraints errors name the field", "[topology_spread_constraint]") {
  const std::string field = "spec.topologySpreadConstraints[0].";
  struct Case {
    std::string constraints;
    std::string message;
  };
  const std::vector<Case> cases = {
      {R"([{"maxSkew": 0, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}])",
       field + "maxSkew: Invalid value: must be greater than zero"},
      {R"([{"maxSkew": -1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}])",
       field + "maxSkew: Invalid value: must be greater than zero"},
      {R"([{"topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}])", field + "maxSkew: Required value"},
      {R"([{"maxSkew": "1", "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}])",
       field + "maxSkew: Invalid value: string: must be an integer"},
      {R"([{"maxSkew": 1, "whenUnsatisfiable": "DoNotSchedule"}])", field + "topologyKey: Required value"},
      {R"([{"maxSkew": 1, "topologyKey": "", "whenUnsatisfiable": "DoNotSchedule"}])",
       field + "topologyKey: Required value: can not be empty"},
      {R"([{"maxSkew": 1, "topologyKey": "zone"}])", field + "whenUnsatisfiable: Required value"},
      {R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "Sometimes"}])",
       field + R"(whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", )"
               R"("ScheduleAnyway")"},
      {R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "minDomains": 0}])",
       field + "minDomains: Invalid value: must be greater than zero"},
      {R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "minDomains": -3}])",
       field + "minDomains: Invalid value: must be greater than zero"},
      {R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway", "minDomains": 2}])",
       field + "minDomains: Invalid value: can only use minDomains if whenUnsatisfiable=DoNotSchedule"},
      {R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
            "nodeAffinityPolicy": "Maybe"}])",
       field + R"(nodeAffinityPolicy: Unsupported value: "Maybe": supported values: "Honor", "Ignore")"},
      {R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "nodeTaintsPolicy": "Always"}])",
       field + R"(nodeTaintsPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore")"},
      {R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
            "labelSelector": {"matchExpressions": [{"key": "app", "operator": "Near"}]}}])",
       field + R"(labelSelector.matchExpressions[0].operator: Unsupported value: "Near": supported values: )"
               R"("DoesNotExist", "Exists", "In", "NotIn")"},
      {R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "matchLabelKeys": "app"}])",
       field + "matchLabelKeys: Invalid value: string: must be an array"},
      {R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"},
           {"maxSkew": 0, "topologyKey": "rack", "whenUnsatisfiable": "ScheduleAnyway"}])",
       "spec.topologySpreadConstraints[1].maxSkew: Invalid value: must be greater than zero"},
      {R"({"maxSkew": 1})", "spec.topologySpreadConstraints: Invalid value: object: must be an array"},
      {R"(["zone"])", "spec.topologySpreadConstraints[0]: Invalid value: string: must be an object"},
  };
  for (const auto& c : cases) {
    const std::string json = pod_with(c.constraints);
    INFO(json);
    Result<Pod> decoded = decode_pod_json(json);
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.message() == c.message);
  }
}
