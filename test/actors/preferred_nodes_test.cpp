#include <catch2/catch.hpp>

#include "actors/partitioning.hpp"
#include "actors/preferred_nodes.hpp"
#include "model/pod.hpp"
#include "plugins/scheduling_hint/scheduling_hint.hpp"
#include "test/actors/default_framework.hpp"

using namespace troupe;
using namespace troupe::actors;
using Names = std::vector<std::string>;

namespace {

/// The cycle's state after PreFilter for a pod with this hint annotation ("" = none).
std::shared_ptr<plugins::CycleState> pre_filtered(const plugins::Framework& framework, const std::string& hint) {
  Pod pod;
  pod.meta.name = "p";
  pod.meta.uid = "uid-p";
  pod.spec.containers.emplace_back().name = "c";
  if (!hint.empty()) pod.meta.annotations[plugins::scheduling_hint::kAnnotationSchedulingHint] = hint;
  std::shared_ptr<plugins::CycleState> state = framework.new_cycle_state();
  REQUIRE(framework.run_pre_filter(*state, *plugins::PodInfo::make(pod)).ok());
  return state;
}

EvaluationPtr evaluation(Names feasible, std::vector<std::pair<std::string, int64_t>> scores = {},
                         std::string error = "") {
  auto e = std::make_shared<Evaluation>();
  e->feasible = std::move(feasible);
  for (const auto& [name, total] : scores) {
    plugins::NodeScore s;
    s.node_name = name;
    s.weighted_sum = total;
    e->scores.push_back(s);
  }
  e->error = std::move(error);
  return e;
}

}  // namespace

TEST_CASE("the nodes tried first: the nomination, then the preferred nodes; none without a preference",
          "[preferred_nodes]") {
  auto framework = testing::default_framework();
  struct Case {
    const char* hint;
    std::optional<std::string> nominated;
    Names expected;
  };
  const std::vector<Case> cases = {
      {"", std::nullopt, {}},
      {"", std::string("n9"), {}},  // a nomination alone: the usual round takes it
      {R"({"preferredNodeNames":["b","a"]})", std::nullopt, {"b", "a"}},
      {R"({"preferredNodeNames":["b","a"]})", std::string("n9"), {"n9", "b", "a"}},
      {R"({"preferredNodeNames":["b","a"]})", std::string("a"), {"a", "b"}},  // tried once
      {R"({"nodeNames":["a"],"preferredNodeNames":["b"]})", std::nullopt, {}},  // outside nodeNames: dropped
      {R"({"nodeNames":["a","b"]})", std::nullopt, {}},
      {R"({"nodeNames":["a","b"],"preferredNodeNames":["b"]})", std::string("n9"), {"b"}},  // n9 not allowed
      {R"({"nodeNames":["a","b"],"preferredNodeNames":["b"]})", std::string("a"), {"a", "b"}},
  };
  for (const auto& c : cases) {
    INFO(c.hint << " nominated " << c.nominated.value_or("-"));
    auto state = pre_filtered(*framework, c.hint);
    CHECK(nodes_to_try_first(*framework, *state, c.nominated) == c.expected);
  }
}

TEST_CASE("the preferred pass asks only the partitions that hold a preferred node", "[preferred_nodes]") {
  const size_t partitions = 4;
  Names names = {"node-1", "node-2", "node-3"};
  std::set<size_t> expected;
  for (const auto& name : names) expected.insert(partition_of(name, partitions));
  auto holders = partitions_holding(names, partitions);
  CHECK(std::set<size_t>(holders.begin(), holders.end()) == expected);
  CHECK(holders.size() == expected.size());  // each once
  CHECK(std::is_sorted(holders.begin(), holders.end()));
  CHECK(partitions_holding({}, partitions).empty());
  CHECK(partitions_holding({"a", "b"}, 1) == std::vector<size_t>{0});
}

TEST_CASE("the preferred pass merges the partitions' answers in the order tried", "[preferred_nodes]") {
  struct Case {
    Names tried;
    std::vector<EvaluationPtr> parts;
    bool scored;
    Names feasible;
    std::vector<int64_t> weighted;
    const char* error;
  };
  const std::vector<Case> cases = {
      {{"a", "b", "c"}, {evaluation({"c"}, {{"c", 7}}), evaluation({"a"}, {{"a", 3}})}, true, {"a", "c"}, {3, 7}, ""},
      {{"c", "a"}, {evaluation({"a", "c"}, {{"a", 3}, {"c", 7}})}, true, {"c", "a"}, {7, 3}, ""},
      {{"a", "b"}, {evaluation({"b"})}, false, {"b"}, {0}, ""},  // PreScore skipped: names only
      {{"a"}, {evaluation({})}, true, {}, {}, ""},               // none passes: every node is searched
      {{"a", "b"}, {evaluation({"a"}, {{"a", 1}}), evaluation({}, {}, "plugin X failed")}, true, {}, {},
       "plugin X failed"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i);
    auto out = merge_preferred(cases[i].tried, cases[i].parts, cases[i].scored);
    CHECK(out.error == cases[i].error);
    Names names;
    std::vector<int64_t> weighted;
    for (const auto& s : out.feasible) {
      names.push_back(s.node_name);
      weighted.push_back(s.weighted_sum);
    }
    CHECK(names == cases[i].feasible);
    CHECK(weighted == cases[i].weighted);
  }
}
