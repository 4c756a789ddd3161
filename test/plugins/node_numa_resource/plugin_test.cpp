#include <catch2/catch.hpp>

#include <random>

#include "plugins/node_numa_resource/node_numa_resource_plugin.hpp"
#include "test/plugins/builders.hpp"
#include "test/plugins/node_numa_resource/numa_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::numa;
using namespace troupe::plugins::numa::testing;
using troupe::plugins::testing::NodeBuilder;
using troupe::plugins::testing::PodBuilder;

namespace {

std::shared_ptr<const PodInfo> lsr_pod(const std::string& name, const std::string& cpu,
                                       std::map<std::string, std::string> annotations = {}) {
  Pod pod = PodBuilder(name).container({{"cpu", cpu}, {"memory", "1Gi"}}).pod();
  pod.meta.labels["koordinator.sh/qosClass"] = "LSR";
  pod.spec.priority = 9500;
  pod.meta.annotations = std::move(annotations);
  return PodInfo::make(std::move(pod));
}

NodeInfo numa_node(int sockets, int nodes_per_socket, int cores_per_node, std::map<std::string, std::string> labels = {},
                   std::map<std::string, std::string> nrt_annotations = {}) {
  NodeBuilder b("n");
  b.allocatable({{"cpu", "64"}, {"memory", "64Gi"}, {"pods", "110"}});
  for (auto& [k, v] : labels) b.label(k, v);
  NodeInfo info = b.info();
  auto cpus = std::make_unique<NodeCpus>();
  cpus->apply_topology(make_nrt(sockets, nodes_per_socket, cores_per_node, "8Gi", std::move(nrt_annotations)));
  info.set_extension(NodeExtensionSlot::kCpus, std::move(cpus));
  return info;
}

}  // namespace

TEST_CASE("NodeNUMAResource PreFilter and Filter reasons", "[numa][plugin]") {
  struct Case {
    const char* name;
    std::string cpu;
    std::map<std::string, std::string> pod_annotations;
    std::map<std::string, std::string> node_labels;
    bool with_cpus_state;
    Code want_code;
    std::string want_reason;
  };
  const std::vector<Case> cases = {
      {"fits", "2", {}, {}, true, Code::success, ""},
      {"fractional cpus", "1500m", {}, {}, true, Code::unschedulable_and_unresolvable, kErrInvalidRequestedCpus},
      {"no topology", "2", {}, {}, false, Code::unschedulable_and_unresolvable, kErrInvalidCpuTopology},
      {"odd cpus on full pcpus node", "3", {}, {{"node.koordinator.sh/cpu-bind-policy", "FullPCPUsOnly"}}, true,
       Code::unschedulable_and_unresolvable, kErrSmtAlignment},
      {"required spread on a full node", "2", {{kAnnotationResourceSpec, R"({"requiredCPUBindPolicy":"SpreadByPCPUs"})"}},
       {{"node.koordinator.sh/cpu-bind-policy", "FullPCPUsOnly"}}, true, Code::unschedulable_and_unresolvable,
       kErrCpuBindPolicyConflict},
      {"policy mismatch", "2", {{kAnnotationNumaTopologySpec, R"({"numaTopologyPolicy":"Restricted"})"}},
       {{"node.koordinator.sh/numa-topology-policy", "SingleNUMANode"}}, true, Code::unschedulable_and_unresolvable,
       kErrNumaPolicyNotMatch},
      {"required too many", "20", {{kAnnotationResourceSpec, R"({"requiredCPUBindPolicy":"FullPCPUs"})"}}, {}, true,
       Code::unschedulable, kErrNotEnoughCpus},
      {"single NUMA too big", "6", {}, {{"node.koordinator.sh/numa-topology-policy", "SingleNUMANode"}}, true,
       Code::unschedulable, "Unaligned NUMA Hint cause"},
      {"single NUMA fits", "4", {}, {{"node.koordinator.sh/numa-topology-policy", "SingleNUMANode"}}, true,
       Code::success, ""},
      // BestEffort is admitted at Filter too (FilterByNUMANode): its merge
      // always admits, the allocation on the hint may still fail.
      {"best effort fits across NUMA nodes", "6", {}, {{"node.koordinator.sh/numa-topology-policy", "BestEffort"}},
       true, Code::success, ""},
      {"best effort, more CPUs than the NUMA nodes have", "10", {},
       {{"node.koordinator.sh/numa-topology-policy", "BestEffort"}}, true, Code::unschedulable, "Insufficient NUMA cpu"},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      Run run;
      auto pod = lsr_pod("p", c.cpu, c.pod_annotations);
      PluginStatus pre = run.pre(*pod);
      PluginStatus status = pre;
      if (pre.ok()) {
        NodeInfo node = c.with_cpus_state ? numa_node(2, 1, 2, c.node_labels)
                                          : NodeBuilder("n").allocatable({{"cpu", "8"}}).info();
        status = run.plugin.filter(run.state, *pod, node);
      }
      CHECK(status.code == c.want_code);
      if (!c.want_reason.empty()) {
        REQUIRE_FALSE(status.reasons.empty());
        CHECK(status.reasons[0].rfind(c.want_reason, 0) == 0);
      }
    }
  }
}

TEST_CASE("NodeNUMAResource skips pods without requests and non-LSR pods on plain nodes", "[numa][plugin]") {
  Run run;
  auto empty = PodInfo::make(PodBuilder("e").container({}).pod());
  CHECK(run.pre(*empty).is_skip());
  Run ls;
  auto ls_pod = PodInfo::make(PodBuilder("ls").container({{"cpu", "1500m"}}).pod());
  REQUIRE(ls.pre(*ls_pod).ok());
  NodeInfo plain = NodeBuilder("n").allocatable({{"cpu", "8"}}).info();
  CHECK(ls.plugin.filter(ls.state, *ls_pod, plain).ok());
  CHECK(ls.plugin.reserve(ls.state, *ls_pod, plain).ok());
}

TEST_CASE("NodeNUMAResource gives no NUMA hints without NUMA state, as GetPodTopologyHints says", "[numa][plugin]") {
  Run run;
  Pod pod = PodBuilder("ls").container({{"cpu", "2"}, {"memory", "1Gi"}}).pod();
  pod.meta.annotations[kAnnotationNumaTopologySpec] = R"({"numaTopologyPolicy":"SingleNUMANode"})";
  auto info = PodInfo::make(std::move(pod));
  REQUIRE(run.pre(*info).ok());
  NodeInfo plain = NodeBuilder("n").allocatable({{"cpu", "8"}, {"memory", "8Gi"}}).info();
  topology::NumaHints hints;
  PluginStatus status = run.plugin.numa_hints(run.state, *info, plain, hints);
  CHECK(status.code == Code::unschedulable);
  CHECK(status.message() == "node(s) Insufficient NUMA Node resources");
  // At Filter the missing NUMA zones are said first.
  PluginStatus filtered = run.plugin.filter(run.state, *info, plain);
  CHECK(filtered.code == Code::unschedulable_and_unresolvable);
  CHECK(filtered.message() == kErrMissingNumaResources);
}

TEST_CASE("NodeNUMAResource Reserve, PreBind and Unreserve", "[numa][plugin]") {
  Run run;
  auto pod = lsr_pod("p", "2");
  REQUIRE(run.pre(*pod).ok());
  NodeInfo node = numa_node(2, 1, 2, {{"node.koordinator.sh/numa-topology-policy", "SingleNUMANode"}},
                            {{"kubelet.koordinator.sh/cpu-manager-policy", R"({"policy":"static","reservedCPUs":"0"})"}});
  REQUIRE(run.plugin.filter(run.state, *pod, node).ok());
  REQUIRE(run.plugin.reserve(run.state, *pod, node).ok());
  const NodeCpus* cpus = node.extension<NodeCpus>(NodeExtensionSlot::kCpus);
  // cpu 0 is kubelet-reserved, so node 1 (4 free) beats node 0 (3 free): whole core 2.
  const PodAllocation* a = cpus->allocation(pod_identity(*pod));
  REQUIRE(a != nullptr);
  CHECK(a->cpus.to_string() == "2,6");
  BindingChanges changes;
  REQUIRE(run.plugin.pre_bind(run.state, *pod, "n", changes).ok());
  CHECK(changes.annotations.at(kAnnotationResourceStatus) ==
        R"({"cpuset":"2,6","numaNodeResources":[{"node":1,"resources":{"cpu":"2","memory":"1Gi"}}]})");
  CHECK(changes.annotations.at(kAnnotationResourceSpec) == R"({"preferredCPUBindPolicy":"FullPCPUs"})");
  // The bound pod carrying the annotation rebuilds exactly what Reserve accounted.
  NodeCpus rebuilt;
  rebuilt.apply_topology(make_nrt(2, 1, 2));
  Pod bound = *pod->pod;
  for (auto& [k, v] : changes.annotations) bound.meta.annotations[k] = v;
  rebuilt.on_pod_added(*PodInfo::make(bound));
  CHECK(rebuilt.allocated_cpus() == cpus->allocated_cpus());
  CHECK(rebuilt.numa_allocated() == cpus->numa_allocated());
  run.plugin.unreserve(run.state, *pod, node);
  cpus = node.extension<NodeCpus>(NodeExtensionSlot::kCpus);
  CHECK(cpus->allocations().empty());
  CHECK(cpus->numa_allocated().empty());
  CHECK(cpus->available_cpus().to_string() == "1-7");
}

TEST_CASE("NodeNUMAResource Score under a NUMA policy, as calculateAllocatableAndRequested", "[numa][plugin][score]") {
  // Two NUMA nodes of 4 CPUs (2 cores) and 8Gi; an LSR pod of 2 CPUs and 1Gi
  // gets one NUMA node: allocatable is that NUMA node's, cpu requested is
  // every CPU bound on the node (here or not), memory what others hold there.
  struct Case {
    const char* name;
    const char* scoring;       // scoringStrategy.type: it rates the node, not numaScoringStrategy
    bool other_pod_first;      // another 2-CPU pod is bound first (on the other NUMA node)
    int64_t want;
  };
  const Case cases[] = {
      // cpu (4-2)/4 = 50, memory (8-1)/8 = 87: 68
      {"least allocated, empty node", "LeastAllocated", false, 68},
      // cpu: 2 bound elsewhere + 2 = 4 of 4 = 0, memory 87: 43
      {"least allocated, CPUs bound on the other NUMA node count", "LeastAllocated", true, 43},
      // cpu 50, memory 12: 31
      {"most allocated", "MostAllocated", false, 31},
      // cpu 100, memory 12: 56
      {"most allocated, CPUs bound elsewhere", "MostAllocated", true, 56},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      NodeNumaResourceArgs args = NodeNumaResourceArgs::from_yaml(
          YAML::Load(std::string("scoringStrategy: {type: ") + c.scoring +
                     "}\nnumaScoringStrategy: {type: LeastAllocated}"));
      NodeNUMAResource plugin(args);
      NodeInfo node = numa_node(2, 1, 2, {{"node.koordinator.sh/numa-topology-policy", "SingleNUMANode"}});
      if (c.other_pod_first) {
        CycleState first;
        auto other = lsr_pod("other", "2");
        PreFilterResult r;
        REQUIRE(plugin.pre_filter(first, *other, r).ok());
        REQUIRE(plugin.reserve(first, *other, node).ok());
      }
      CycleState state;
      auto pod = lsr_pod("p", "2");
      PreFilterResult r;
      REQUIRE(plugin.pre_filter(state, *pod, r).ok());
      REQUIRE(plugin.filter(state, *pod, node).ok());
      CHECK(plugin.score(state, *pod, node).score == c.want);
    }
  }
}

TEST_CASE("NodeCpus counts malformed annotations and removes exactly", "[numa][node]") {
  NodeCpus cpus;
  cpus.apply_topology(make_nrt(1, 1, 4));
  auto bad = lsr_pod("bad", "2", {{kAnnotationResourceStatus, "{"}});
  cpus.on_pod_added(*bad);
  CHECK(cpus.malformed_annotations() == 1);
  CHECK(cpus.allocations().empty());
  auto a = lsr_pod("a", "2", {{kAnnotationResourceStatus, R"({"cpuset":"0,4"})"},
                              {kAnnotationResourceSpec, R"({"preferredCPUExclusivePolicy":"PCPULevel"})"}});
  cpus.on_pod_added(*a);
  cpus.on_pod_added(*a);  // a second add is ignored
  CHECK(cpus.allocated_cpus().policy(0) == CpuExclusivePolicy::pcpu_level);
  CHECK(cpus.available_cpus().to_string() == "1-3,5-7");
  auto clone = cpus.clone();
  cpus.on_pod_removed(*a);
  CHECK(cpus.available_cpus().to_string() == "0-7");
  CHECK(static_cast<NodeCpus&>(*clone).available_cpus().to_string() == "1-3,5-7");
  cpus.clear_topology();
  CHECK(cpus.available_cpus().empty());
}

TEST_CASE("NUMA node status follows the pods' cpusets, as Koordinator's NodeAllocation", "[numa][node]") {
  // One socket, NUMA node 0 = CPUs 0-3 and 8-11, node 1 = CPUs 4-7 and 12-15.
  using S = topology::NumaNodeStatus;
  struct Case {
    const char* what;
    std::vector<std::string> statuses;  // resource-status annotations of the pods on the node
    S node0, node1;
  };
  const std::vector<Case> cases = {
      {"no pods", {}, S::idle, S::idle},
      {"a cpuset in node 0", {R"({"cpuset":"0,8"})"}, S::single, S::idle},
      {"a cpuset across both, without NUMA resources", {R"({"cpuset":"0-5"})"}, S::shared, S::shared},
      {"NUMA resources on both but no cpuset: counts nowhere",
       {R"({"numaNodeResources":[{"node":0,"resources":{"cpu":"1"}},{"node":1,"resources":{"cpu":"1"}}]})"},
       S::idle, S::idle},
      {"single in node 1, then a pod across both", {R"({"cpuset":"4"})", R"({"cpuset":"3-4"})"}, S::shared,
       S::shared},
      {"one single pod per node", {R"({"cpuset":"1"})", R"({"cpuset":"12"})"}, S::single, S::single},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    NodeCpus cpus;
    cpus.apply_topology(make_nrt(1, 2, 4));
    for (size_t i = 0; i < c.statuses.size(); ++i)
      cpus.on_pod_added(*lsr_pod("p" + std::to_string(i), "1", {{kAnnotationResourceStatus, c.statuses[i]}}));
    REQUIRE(cpus.malformed_annotations() == 0);
    const auto statuses = cpus.numa_statuses();
    CHECK(statuses[0] == c.node0);
    CHECK(statuses[1] == c.node1);
  }
}

TEST_CASE("NodeNUMAResource args", "[numa][args]") {
  CHECK(NodeNUMAResource::make(YAML::Load("{}")));
  auto bad_policy = NodeNUMAResource::make(YAML::Load("defaultCPUBindPolicy: Default"));
  REQUIRE_FALSE(bad_policy);
  CHECK(bad_policy.message().find("defaultCPUBindPolicy") == 0);
  CHECK(bad_policy.message().find("must specified CPU bind policy FullPCPUs or SpreadByPCPUs") != std::string::npos);
  auto bad_type = NodeNUMAResource::make(YAML::Load("scoringStrategy: {type: Balanced}"));
  REQUIRE_FALSE(bad_type);
  CHECK(bad_type.message().find("scoringStrategy.type") == 0);
  auto bad_weight = NodeNUMAResource::make(YAML::Load("numaScoringStrategy: {resources: [{name: cpu, weight: 101}]}"));
  REQUIRE_FALSE(bad_weight);
  CHECK(bad_weight.message().find("numaScoringStrategy.resources[0].weight") == 0);
  auto args = NodeNumaResourceArgs::from_yaml(YAML::Load("numaScoringStrategy: {type: MostAllocated}"));
  CHECK(args.default_numa_allocate_strategy() == NumaAllocateStrategy::most_allocated);
}

TEST_CASE("random reserve and unreserve never give a CPU to two pods", "[numa][property]") {
  std::mt19937 rng(7);
  NodeInfo node = numa_node(2, 2, 4);  // 32 CPUs
  NodeNUMAResource plugin{NodeNumaResourceArgs{}};
  struct Held { std::shared_ptr<const PodInfo> pod; CycleState state; };
  std::vector<Held> held;
  const char* specs[] = {"", R"({"preferredCPUBindPolicy":"SpreadByPCPUs"})",
                         R"({"preferredCPUExclusivePolicy":"PCPULevel"})",
                         R"({"requiredCPUBindPolicy":"FullPCPUs","preferredCPUExclusivePolicy":"NUMANodeLevel"})"};
  for (int step = 0; step < 400; ++step) {
    if (!held.empty() && rng() % 3 == 0) {
      size_t i = rng() % held.size();
      plugin.unreserve(held[i].state, *held[i].pod, node);
      held.erase(held.begin() + static_cast<long>(i));
    } else {
      std::map<std::string, std::string> ann;
      if (const char* s = specs[rng() % 4]; *s) ann[kAnnotationResourceSpec] = s;
      auto pod = lsr_pod("p" + std::to_string(step), std::to_string(2 * (1 + rng() % 3)), ann);
      Held h{pod, CycleState()};
      PreFilterResult r;
      REQUIRE(plugin.pre_filter(h.state, *pod, r).ok());
      if (plugin.filter(h.state, *pod, node).ok() && plugin.reserve(h.state, *pod, node).ok()) held.push_back(std::move(h));
    }
    const NodeCpus* cpus = node.extension<NodeCpus>(NodeExtensionSlot::kCpus);
    CpuSet seen;
    size_t total = 0;
    for (const auto& [key, a] : cpus->allocations()) {
      CHECK_FALSE(seen.intersects(a.cpus));
      seen |= a.cpus;
      total += a.cpus.size();
    }
    CHECK(seen.size() == total);
    CHECK(cpus->allocations().size() == held.size());
  }
}
