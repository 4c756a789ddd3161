#include <catch2/catch.hpp>

#include "plugins/node_resources_fit/node_resources_fit.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

namespace {

std::shared_ptr<const NodeResourcesFit> make_fit(const std::string& yaml) {
  auto plugin = NodeResourcesFit::make(yaml.empty() ? YAML::Node() : YAML::Load(yaml));
  if (!plugin) FAIL(plugin.message());
  return std::dynamic_pointer_cast<const NodeResourcesFit>(*plugin);
}

std::string fit_error(const std::string& yaml) {
  auto plugin = NodeResourcesFit::make(YAML::Load(yaml));
  if (plugin) FAIL("expected an error for " << yaml);
  return plugin.message();
}

}  // namespace

TEST_CASE("NodeResourcesFit Filter reports every insufficient resource", "[node_resources_fit]") {
  auto fit = make_fit("{ignoredResources: [example.com/ignored], ignoredResourceGroups: [skip.io, kubernetes.io]}");
  // Node: 10 cpu, 20 memory units, 2 gpus, 4 pods; one pod with 5 cpu / 19 memory / 1 gpu on it.
  auto existing = PodBuilder("existing").container({{"cpu", "5"}, {"memory", "19"}, {"nvidia.com/gpu", "1"}}).info();
  auto node = NodeBuilder("n").allocatable(
      {{"cpu", "10"}, {"memory", "20"}, {"pods", "4"}, {"nvidia.com/gpu", "2"}, {"ephemeral-storage", "100"},
       {"kubernetes.io/batch-cpu", "1000"}});
  struct Case {
    const char* name;
    Amounts requests;
    std::vector<std::string> reasons;
  };
  const std::vector<Case> cases = {
      {"fits", {{"cpu", "5"}, {"memory", "1"}, {"nvidia.com/gpu", "1"}}, {}},
      {"no requests fit", {}, {}},
      {"cpu", {{"cpu", "5001m"}}, {"Insufficient cpu"}},
      {"memory", {{"memory", "2"}}, {"Insufficient memory"}},
      {"cpu and memory", {{"cpu", "6"}, {"memory", "2"}}, {"Insufficient cpu", "Insufficient memory"}},
      {"ephemeral-storage", {{"ephemeral-storage", "101"}}, {"Insufficient ephemeral-storage"}},
      {"extended", {{"nvidia.com/gpu", "2"}}, {"Insufficient nvidia.com/gpu"}},
      {"extended absent on the node", {{"example.com/foo", "1"}}, {"Insufficient example.com/foo"}},
      {"ignored resource", {{"example.com/ignored", "3"}}, {}},
      {"ignored group", {{"skip.io/anything", "3"}}, {}},
      {"prefixed native resources are never ignored", {{"kubernetes.io/batch-cpu", "1001"}},
       {"Insufficient kubernetes.io/batch-cpu"}},
      {"zero request of an absent resource fits", {{"example.com/foo", "0"}}, {}},
      {"scalars in name order", {{"z.io/b", "1"}, {"a.io/a", "1"}, {"cpu", "6"}},
       {"Insufficient cpu", "Insufficient a.io/a", "Insufficient z.io/b"}},
  };
  NodeInfo info = node.info({existing});
  for (const auto& c : cases) {
    SECTION(c.name) {
      auto pod = PodBuilder("p").container(c.requests).info();
      // Directly, and after PreFilter picked the scalars to check: the same answer.
      PluginStatus s = fit->filter(CycleState(), *pod, info);
      CHECK(s.reasons == c.reasons);
      CHECK(s.code == (c.reasons.empty() ? Code::success : Code::unschedulable));
      CycleState state;
      PreFilterResult result;
      REQUIRE(fit->pre_filter(state, *pod, result).ok());
      CHECK_FALSE(result.node_names);
      CHECK(fit->filter(state, *pod, info).reasons == c.reasons);
    }
  }
  SECTION("too many pods comes first") {
    NodeInfo full = NodeBuilder("f").allocatable({{"cpu", "1"}, {"pods", "1"}}).info({existing});
    auto pod = PodBuilder("p").container({{"cpu", "2"}}).info();
    PluginStatus s = fit->filter(CycleState(), *pod, full);
    CHECK(s.reasons == std::vector<std::string>{"Too many pods", "Insufficient cpu"});
  }
  SECTION("a node without a pods allocatable takes no pod") {
    NodeInfo none = NodeBuilder("x").allocatable({{"cpu", "1"}}).info();
    auto pod = PodBuilder("p").container({}).info();
    CHECK(fit->filter(CycleState(), *pod, none).reasons == std::vector<std::string>{"Too many pods"});
  }
}

TEST_CASE("NodeResourcesFit scoring strategies give upstream's numbers", "[node_resources_fit]") {
  // kube-scheduler's "nothing scheduled, resources requested, differently sized nodes" cases.
  auto pod = PodBuilder("p").container({{"cpu", "1"}, {"memory", "2000"}}).container({{"cpu", "2"}, {"memory", "3000"}}).info();
  NodeInfo small = NodeBuilder("small").allocatable({{"cpu", "4"}, {"memory", "10000"}, {"pods", "10"}}).info();
  NodeInfo large = NodeBuilder("large").allocatable({{"cpu", "6"}, {"memory", "10000"}, {"pods", "10"}}).info();
  struct Case {
    const char* args;
    int64_t small_score;
    int64_t large_score;
  };
  const std::vector<Case> cases = {
      // cpu (4000-3000)*100/4000 = 25, memory (10000-5000)*100/10000 = 50 -> 37; large: 50, 50 -> 50
      {"", 37, 50},
      {"{scoringStrategy: {type: LeastAllocated}}", 37, 50},
      // cpu 3000*100/4000 = 75, memory 50 -> 62; large 50
      {"{scoringStrategy: {type: MostAllocated}}", 62, 50},
      // weights: (25*3 + 50*1) / 4 = 31; large 50
      {"{scoringStrategy: {type: LeastAllocated, resources: [{name: cpu, weight: 3}, {name: memory, weight: 1}]}}", 31,
       50},
      // shape 0->0, 100->10 (scaled x10): cpu 75, memory 50 -> round(62.5) = 63; large 50
      {"{scoringStrategy: {type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 0, score: "
       "0}, {utilization: 100, score: 10}]}}}",
       63, 50},
      // reversed shape: cpu 25, memory 50 -> round(37.5) = 38; large 50
      {"{scoringStrategy: {type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 0, score: "
       "10}, {utilization: 100, score: 0}]}}}",
       38, 50},
      // a resource the node lacks is left out: only cpu counts
      {"{scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 1}, {name: example.com/x, weight: 5}]}}",
       75, 50},
  };
  for (const auto& c : cases) {
    SECTION(c.args) {
      auto fit = make_fit(c.args);
      CHECK(fit->score(CycleState(), *pod, small).score == c.small_score);
      CHECK(fit->score(CycleState(), *pod, large).score == c.large_score);
    }
  }
}

TEST_CASE("NodeResourcesFit scores with non-zero requests for cpu and memory", "[node_resources_fit]") {
  auto fit = make_fit("");
  // Empty pod: 100m cpu and 200Mi memory count; a pod without requests on the node counts the same way.
  auto pod = PodBuilder("p").container({}).info();
  auto other = PodBuilder("o").container({}).info();
  NodeInfo node = NodeBuilder("n").allocatable({{"cpu", "1"}, {"memory", "1000Mi"}, {"pods", "10"}}).info({other});
  // cpu (1000-200)*100/1000 = 80, memory (1000-400)*100/1000 = 60 -> 70
  CHECK(fit->score(CycleState(), *pod, node).score == 70);
  // Over capacity scores 0 for that resource.
  NodeInfo tiny = NodeBuilder("t").allocatable({{"cpu", "50m"}, {"memory", "1000Mi"}, {"pods", "10"}}).info();
  CHECK(fit->score(CycleState(), *pod, tiny).score == (0 + 80) / 2);
}

TEST_CASE("the broken linear function interpolates with integer division", "[node_resources_fit]") {
  const std::vector<UtilizationShapePoint> shape = {{10, 10}, {50, 50}, {90, 30}};
  struct Case {
    int64_t p, expected;
  };
  for (const Case& c : std::vector<Case>{{0, 10}, {10, 10}, {30, 30}, {50, 50}, {70, 40}, {89, 31}, {90, 30}, {95, 30}, {100, 30}})
    CHECK(broken_linear(shape, c.p) == c.expected);
  CHECK(broken_linear({{0, 100}}, 70) == 100);
}

TEST_CASE("NodeResourcesFit args are defaulted and validated", "[node_resources_fit]") {
  auto defaults = make_fit("");
  CHECK(defaults->args().strategy == ScoringStrategyType::least_allocated);
  REQUIRE(defaults->args().resources.size() == 2);
  CHECK(defaults->args().resources[0].name == "cpu");
  auto zero_weight = make_fit("{scoringStrategy: {type: MostAllocated, resources: [{name: cpu}]}}");
  CHECK(zero_weight->args().resources[0].weight == 1);

  struct Case {
    const char* args;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"{scoringStrategy: {type: Random}}",
       "scoringStrategy.type: Unsupported value: \"Random\": supported values: \"LeastAllocated\", \"MostAllocated\", "
       "\"RequestedToCapacityRatio\""},
      {"{scoringStrategy: {resources: [{name: cpu, weight: 101}]}}",
       "scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range [1, 100]"},
      {"{scoringStrategy: {resources: [{name: cpu, weight: -1}]}}",
       "scoringStrategy.resources[0].weight: Invalid value: -1: resource weight of cpu not in valid range [1, 100]"},
      {"{scoringStrategy: {resources: [{name: cpu}, {name: cpu}]}}",
       "scoringStrategy.resources[1].name: Duplicate value: \"cpu\""},
      {"{scoringStrategy: {type: RequestedToCapacityRatio}}", "scoringStrategy.requestedToCapacityRatio: Required value"},
      {"{scoringStrategy: {type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: []}}}",
       "scoringStrategy.requestedToCapacityRatio.shape: Required value: at least one point must be specified"},
      {"{scoringStrategy: {type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 50, score: "
       "1}, {utilization: 50, score: 2}]}}}",
       "scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 50: utilization values must be "
       "sorted in increasing order"},
      {"{scoringStrategy: {type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 101, "
       "score: 1}]}}}",
       "scoringStrategy.requestedToCapacityRatio.shape[0].utilization: Invalid value: 101: not in valid range [0, 100]"},
      {"{scoringStrategy: {type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 1, score: "
       "11}]}}}",
       "scoringStrategy.requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]"},
      {"{scoringStrategy: {type: MostAllocated, requestedToCapacityRatio: {shape: [{utilization: 1, score: 1}]}}}",
       "scoringStrategy.requestedToCapacityRatio: Forbidden: only allowed with type RequestedToCapacityRatio"},
      {"{ignoredResourceGroups: [example.com/x]}",
       "ignoredResourceGroups[0]: Invalid value: \"example.com/x\": resource group name can't contain '/'"},
      {"{ignoredResources: example.com/x}", "ignoredResources: must be a list, got \"example.com/x\""},
      {"{scoringStrategy: {typo: 1}}", "scoringStrategy.typo: unknown field"},
      {"[1, 2]", "must be an object, got a list"},
  };
  for (const auto& c : cases) CHECK(fit_error(c.args) == c.message);
}
