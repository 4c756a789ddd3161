#include <catch2/catch.hpp>

#include <functional>
#include <optional>

#include "plugins/node_numa_resource/node_numa_resource_plugin.hpp"
#include "plugins/node_numa_resource/node_policies.hpp"
#include "test/plugins/builders.hpp"
#include "test/plugins/node_numa_resource/numa_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::numa;
using namespace troupe::plugins::numa::testing;
using troupe::plugins::testing::NodeBuilder;
using troupe::plugins::testing::PodBuilder;
using topology::NumaPolicy;
using Strategy = std::optional<NumaAllocateStrategy>;
using StringMap = std::map<std::string, std::string>;

namespace {

constexpr const char* kBind = kLabelCpuBindPolicy;
constexpr const char* kNuma = kLabelNumaTopologyPolicy;
constexpr const char* kStrategy = kLabelNumaAllocateStrategy;
const std::string kKubeletFull = R"({"policy":"static","options":{"full-pcpus-only":"true"}})";
const std::string kKubeletDistribute = R"({"policy":"static","options":{"distribute-cpus-across-numa":"true"}})";
const std::string kKubeletNoneFull = R"({"policy":"none","options":{"full-pcpus-only":"true"}})";

std::shared_ptr<const Node> node_with(const StringMap& labels) {
  NodeBuilder b("n");
  b.allocatable({{"cpu", "16"}, {"memory", "32Gi"}, {"pods", "110"}});
  for (const auto& [k, v] : labels) b.label(k, v);
  return std::make_shared<const Node>(b.node());
}

/// An NRT with this kubelet policy annotation ("" = none) and topology policies.
std::shared_ptr<const NodeResourceTopology> nrt_with(const std::string& kubelet, std::vector<std::string> policies) {
  StringMap annotations;
  if (!kubelet.empty()) annotations[kAnnotationKubeletCpuManagerPolicy] = kubelet;
  return make_nrt(2, 1, 2, "8Gi", std::move(annotations), std::move(policies));
}

NodeInfo info_with_cpus(const StringMap& labels, std::shared_ptr<const NodeResourceTopology> nrt) {
  NodeInfo info(node_with(labels));
  auto cpus = std::make_unique<NodeCpus>();
  if (nrt) cpus->apply_topology(std::move(nrt));
  info.set_extension(NodeExtensionSlot::kCpus, std::move(cpus));
  return info;
}

const NodePolicies& policies_of(const NodeInfo& info) {
  const NodeCpus* cpus = info.extension<NodeCpus>(NodeExtensionSlot::kCpus);
  REQUIRE(cpus != nullptr);
  return cpus->policies();
}

NodePolicies policies(NodeCpuBindPolicy bind, NumaPolicy numa, Strategy strategy) {
  NodePolicies p;
  p.cpu_bind = bind;
  p.numa_policy = numa;
  p.allocate_strategy = strategy;
  return p;
}

}  // namespace

TEST_CASE("NodeCpus keeps the policies of the node's labels and NRT", "[numa][policies]") {
  struct Case {
    const char* name;
    StringMap labels;
    bool with_nrt;
    std::string kubelet;
    std::vector<std::string> nrt_policies;
    NodeCpuBindPolicy want_bind;
    NumaPolicy want_numa;
    Strategy want_strategy;
  };
  using B = NodeCpuBindPolicy;
  using S = NumaAllocateStrategy;
  const std::vector<Case> cases = {
      {"nothing", {}, false, "", {}, B::none, NumaPolicy::none, std::nullopt},
      {"nrt without policies", {}, true, "", {}, B::none, NumaPolicy::none, std::nullopt},
      {"full label", {{kBind, "FullPCPUsOnly"}}, false, "", {}, B::full_pcpus_only, NumaPolicy::none, std::nullopt},
      {"spread label", {{kBind, "SpreadByPCPUs"}}, false, "", {}, B::spread_by_pcpus, NumaPolicy::none, std::nullopt},
      {"unknown bind label", {{kBind, "FullPCPUs"}}, true, "", {}, B::none, NumaPolicy::none, std::nullopt},
      {"kubelet full-pcpus-only", {}, true, kKubeletFull, {}, B::full_pcpus_only, NumaPolicy::none, std::nullopt},
      {"kubelet full beats spread label", {{kBind, "SpreadByPCPUs"}}, true, kKubeletFull, {}, B::full_pcpus_only,
       NumaPolicy::none, std::nullopt},
      {"kubelet none policy ignores options", {}, true, kKubeletNoneFull, {}, B::none, NumaPolicy::none, std::nullopt},
      {"malformed kubelet annotation", {{kBind, "SpreadByPCPUs"}}, true, "{not json", {}, B::spread_by_pcpus,
       NumaPolicy::none, std::nullopt},
      {"nrt best effort", {}, true, "", {"BestEffort"}, B::none, NumaPolicy::best_effort, std::nullopt},
      {"nrt pod-level single", {}, true, "", {"SingleNUMANodePodLevel"}, B::none, NumaPolicy::single_numa_node,
       std::nullopt},
      {"nrt container-level single is none", {}, true, "", {"SingleNUMANodeContainerLevel"}, B::none, NumaPolicy::none,
       std::nullopt},
      {"label beats nrt", {{kNuma, "Restricted"}}, true, "", {"SingleNUMANodePodLevel"}, B::none,
       NumaPolicy::restricted, std::nullopt},
      {"None label keeps nrt", {{kNuma, "None"}}, true, "", {"BestEffort"}, B::none, NumaPolicy::best_effort,
       std::nullopt},
      {"unknown numa label keeps nrt", {{kNuma, "Strict"}}, true, "", {"Restricted"}, B::none, NumaPolicy::restricted,
       std::nullopt},
      {"numa label without nrt", {{kNuma, "SingleNUMANode"}}, false, "", {}, B::none, NumaPolicy::single_numa_node,
       std::nullopt},
      {"most allocated label", {{kStrategy, "MostAllocated"}}, false, "", {}, B::none, NumaPolicy::none,
       S::most_allocated},
      {"least allocated label", {{kStrategy, "LeastAllocated"}}, false, "", {}, B::none, NumaPolicy::none,
       S::least_allocated},
      {"distribute label", {{kStrategy, "DistributeEvenly"}}, false, "", {}, B::none, NumaPolicy::none,
       S::distribute_evenly},
      {"kubelet distribute", {}, true, kKubeletDistribute, {}, B::none, NumaPolicy::none, S::distribute_evenly},
      {"label beats kubelet distribute", {{kStrategy, "LeastAllocated"}}, true, kKubeletDistribute, {}, B::none,
       NumaPolicy::none, S::least_allocated},
      {"unknown strategy label falls to kubelet", {{kStrategy, "Balanced"}}, true, kKubeletDistribute, {}, B::none,
       NumaPolicy::none, S::distribute_evenly},
      {"unknown strategy label alone", {{kStrategy, "Balanced"}}, false, "", {}, B::none, NumaPolicy::none,
       std::nullopt},
      {"all three labels", {{kBind, "SpreadByPCPUs"}, {kNuma, "BestEffort"}, {kStrategy, "MostAllocated"}}, true, "",
       {"Restricted"}, B::spread_by_pcpus, NumaPolicy::best_effort, S::most_allocated},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      NodeInfo info = info_with_cpus(c.labels, c.with_nrt ? nrt_with(c.kubelet, c.nrt_policies) : nullptr);
      CHECK(policies_of(info) == policies(c.want_bind, c.want_numa, c.want_strategy));
      // The plain functions agree with what NodeCpus keeps.
      const NodeCpus& cpus = *info.extension<NodeCpus>(NodeExtensionSlot::kCpus);
      CHECK(combine_node_policies(read_node_policy_labels(*info.node()), cpus.options()) == policies_of(info));
    }
  }
}

TEST_CASE("NodeCpus policies follow Node and NRT updates in any order", "[numa][policies]") {
  using B = NodeCpuBindPolicy;
  using S = NumaAllocateStrategy;
  struct Step {
    const char* what;
    std::function<void(NodeInfo&)> apply;
    NodePolicies want;
  };
  auto set_labels = [](StringMap labels) { return [labels](NodeInfo& n) { n.set_node(node_with(labels)); }; };
  auto set_nrt = [](std::string kubelet, std::vector<std::string> p) {
    return [kubelet, p](NodeInfo& n) {
      n.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus)->apply_topology(nrt_with(kubelet, p));
    };
  };
  auto clear_nrt = [](NodeInfo& n) { n.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus)->clear_topology(); };
  const std::vector<Step> steps = {
      {"nrt before the node", set_nrt(kKubeletDistribute, {"Restricted"}),
       policies(B::none, NumaPolicy::restricted, S::distribute_evenly)},
      {"node arrives with labels", set_labels({{kBind, "SpreadByPCPUs"}, {kNuma, "BestEffort"}}),
       policies(B::spread_by_pcpus, NumaPolicy::best_effort, S::distribute_evenly)},
      {"label removed", set_labels({{kBind, "SpreadByPCPUs"}}),
       policies(B::spread_by_pcpus, NumaPolicy::restricted, S::distribute_evenly)},
      {"nrt turns kubelet full", set_nrt(kKubeletFull, {}), policies(B::full_pcpus_only, NumaPolicy::none, std::nullopt)},
      {"strategy label added", set_labels({{kBind, "SpreadByPCPUs"}, {kStrategy, "MostAllocated"}}),
       policies(B::full_pcpus_only, NumaPolicy::none, S::most_allocated)},
      {"nrt deleted", clear_nrt, policies(B::spread_by_pcpus, NumaPolicy::none, S::most_allocated)},
      {"node deleted", [](NodeInfo& n) { n.set_node(nullptr); }, policies(B::none, NumaPolicy::none, std::nullopt)},
      {"node back without labels", set_labels({}), policies(B::none, NumaPolicy::none, std::nullopt)},
  };
  NodeInfo info;
  info.set_extension(NodeExtensionSlot::kCpus, std::make_unique<NodeCpus>());
  for (const Step& step : steps) {
    INFO(step.what);
    step.apply(info);
    CHECK(policies_of(info) == step.want);
    NodeInfo copy(info);  // simulations copy NodeInfos: the copy keeps the policies
    CHECK(policies_of(copy) == step.want);
  }
}

TEST_CASE("decide reads the same policies with and without NodeCpus", "[numa][policies]") {
  // Without an NRT the kept policies come from the labels alone, which is
  // what decide reads directly from a NodeInfo that has no NodeCpus.
  struct Case {
    const char* name;
    StringMap labels;
    std::string pod_cpu;
    NodeCpuBindPolicy want_bind;
    NumaPolicy want_numa;
    NumaAllocateStrategy want_strategy;
    Code want_code;
  };
  using B = NodeCpuBindPolicy;
  using S = NumaAllocateStrategy;
  const std::vector<Case> cases = {
      {"plain node", {}, "500m", B::none, NumaPolicy::none, S::least_allocated, Code::success},
      {"spread node, fractional cpu", {{kBind, "SpreadByPCPUs"}}, "500m", B::spread_by_pcpus, NumaPolicy::none,
       S::least_allocated, Code::unschedulable_and_unresolvable},
      {"full node without topology", {{kBind, "FullPCPUsOnly"}}, "2", B::full_pcpus_only, NumaPolicy::none,
       S::least_allocated, Code::unschedulable_and_unresolvable},
      {"numa label", {{kNuma, "BestEffort"}, {kStrategy, "MostAllocated"}}, "2", B::none, NumaPolicy::best_effort,
       S::most_allocated, Code::success},
      {"unknown labels", {{kBind, "x"}, {kNuma, "y"}, {kStrategy, "z"}}, "1", B::none, NumaPolicy::none,
       S::least_allocated, Code::success},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      NodeNUMAResource plugin{NodeNumaResourceArgs{}};
      CycleState state;
      auto pod = PodBuilder("p").container({{"cpu", c.pod_cpu}, {"memory", "1Gi"}}).info();
      PreFilterResult pre;
      REQUIRE(plugin.pre_filter(state, *pod, pre).ok());
      const NumaState& s = *plugin.read_state(state);
      NodeInfo without(node_with(c.labels));
      NodeInfo with = info_with_cpus(c.labels, nullptr);
      for (const NodeInfo* node : {&without, &with}) {
        INFO((node == &with ? "with NodeCpus" : "without NodeCpus"));
        NodeDecision d;
        PluginStatus status = plugin.decide(s, *node, d);
        CHECK(status.code == c.want_code);
        CHECK(d.node_bind == c.want_bind);
        if (!status.ok()) continue;
        CHECK(d.numa_policy == c.want_numa);
        CHECK(d.strategy == c.want_strategy);
      }
    }
  }
}
