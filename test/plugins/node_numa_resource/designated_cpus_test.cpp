#include <catch2/catch.hpp>

#include "plugins/node_numa_resource/designated_cpus.hpp"
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

constexpr const char* kHint = "internal.scheduling.koordinator.sh/scheduling-hint";
constexpr const char* kExtension = R"({"extensions":{"NodeNUMAResource":{}}})";

std::shared_ptr<const PodInfo> lsr_pod(const std::string& cpu, const char* designated, bool extension = true) {
  Pod pod = PodBuilder("train").container({{"cpu", cpu}, {"memory", "1Gi"}}).pod();
  pod.meta.labels["koordinator.sh/qosClass"] = "LSR";
  pod.spec.priority = 9500;
  if (designated != nullptr) pod.meta.annotations[kAnnotationResourceStatus] = designated;
  if (extension) pod.meta.annotations[kHint] = kExtension;
  return PodInfo::make(std::move(pod));
}

// 2 NUMA nodes of 4 hyper-threaded cores: NUMA 0 = CPUs 0-3,8-11, NUMA 1 = 4-7,12-15 (siblings i and i+8).
NodeInfo numa_node() {
  NodeInfo info = NodeBuilder("n").allocatable({{"cpu", "16"}, {"memory", "16Gi"}, {"pods", "110"}}).info();
  auto cpus = std::make_unique<NodeCpus>();
  cpus->apply_topology(make_nrt(2, 1, 4));
  info.set_extension(NodeExtensionSlot::kCpus, std::move(cpus));
  return info;
}

std::string cpuset(const std::string& cpus) { return R"({"cpuset":")" + cpus + R"("})"; }

}  // namespace

TEST_CASE("a designated cpuset narrows the CPUs the pod may take; its request still decides",
          "[numa][designated]") {
  struct Case {
    const char* name;
    const char* taken;  // another pod's cpuset first (nullptr: none)
    std::string designated;
    const char* cpu;
    bool extension;
    const char* want;  // the pod's cpuset, or nullptr: Filter and Reserve fail
  };
  const std::vector<Case> cases = {
      {"a whole core on NUMA node 1", nullptr, cpuset("5,13"), "2", true, "5,13"},
      {"without the extension the allocator chooses", nullptr, cpuset("5,13"), "2", false, "0,8"},
      {"more CPUs named than asked", nullptr, cpuset("4-7,12-15"), "2", true, "4,12"},
      {"fewer CPUs named than asked", nullptr, cpuset("5"), "2", true, nullptr},
      {"a named CPU another pod holds", "5", cpuset("5,13"), "2", true, nullptr},
      {"two cores across NUMA nodes", nullptr, cpuset("3,11,4,12"), "4", true, "3-4,11-12"},
      {"no cpuset named: no designation", nullptr, R"({"numaNodeResources":[]})", "2", true, "0,8"},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      Run run;
      NodeInfo node = numa_node();
      if (c.taken != nullptr) {
        PodAllocation other;
        other.cpus = *CpuSet::parse(c.taken);
        REQUIRE(node.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus)->add_allocation("other", other));
      }
      auto pod = lsr_pod(c.cpu, c.designated.c_str(), c.extension);
      REQUIRE(run.pre(*pod).ok());
      PluginStatus filtered = run.plugin.filter(run.state, *pod, node);
      PluginStatus reserved = run.plugin.reserve(run.state, *pod, node);
      const PodAllocation* got = node.extension<NodeCpus>(NodeExtensionSlot::kCpus)->allocation(pod_identity(*pod));
      if (c.want == nullptr) {
        CHECK_FALSE(filtered.ok());
        CHECK_FALSE(reserved.ok());
        CHECK(got == nullptr);  // nothing held
        continue;
      }
      INFO(filtered.message() << " / " << reserved.message());
      REQUIRE(filtered.ok());
      REQUIRE(reserved.ok());
      REQUIRE(got != nullptr);
      CHECK(got->cpus.to_string() == c.want);
      // The trial's blocker never reaches the node: only the pod (and the other) hold CPUs.
      CHECK(node.extension<NodeCpus>(NodeExtensionSlot::kCpus)->allocations().size() == (c.taken ? 2u : 1u));
      run.plugin.unreserve(run.state, *pod, node);
      CHECK(node.extension<NodeCpus>(NodeExtensionSlot::kCpus)->allocation(pod_identity(*pod)) == nullptr);
    }
  }
}

TEST_CASE("a pod designates CPUs only with the hint's NodeNUMAResource extension", "[numa][designated]") {
  struct Case {
    const char* name;
    const char* hint;    // nullptr: none
    const char* status;  // resource-status, nullptr: none
    bool designates;
    const char* error;  // substring of the error, nullptr: none
  };
  const std::vector<Case> cases = {
      {"no hint", nullptr, R"({"cpuset":"1"})", false, nullptr},
      {"a hint for DeviceShare only", R"({"extensions":{"DeviceShare":{}}})", R"({"cpuset":"1"})", false, nullptr},
      {"the extension and a cpuset", kExtension, R"({"cpuset":"1-3"})", true, nullptr},
      {"the extension without the annotation", kExtension, nullptr, false, nullptr},
      {"an empty cpuset", kExtension, R"({"cpuset":""})", false, nullptr},
      {"a malformed annotation", kExtension, R"({"cpuset":"3-1"})", false, kAnnotationResourceStatus},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      ObjectMeta meta;
      if (c.hint != nullptr) meta.annotations[kHint] = c.hint;
      if (c.status != nullptr) meta.annotations[kAnnotationResourceStatus] = c.status;
      auto got = designated_cpus_of(meta);
      if (c.error != nullptr) {
        REQUIRE_FALSE(got);
        CHECK_THAT(got.message(), Catch::Contains(c.error));
        continue;
      }
      REQUIRE(got);
      CHECK((*got != nullptr) == c.designates);
    }
  }
  SECTION("PreFilter turns a pod with a malformed designation away, naming the annotation") {
    Run run;
    auto pod = lsr_pod("2", R"({"cpuset":"x"})");
    PluginStatus status = run.pre(*pod);
    CHECK(status.code == Code::unschedulable_and_unresolvable);
    CHECK_THAT(status.message(), Catch::Contains(kAnnotationResourceStatus));
  }
}

TEST_CASE("the designated CPUs decide the NUMA node under SingleNUMANode", "[numa][designated]") {
  Run run;
  NodeInfo node = NodeBuilder("n")
                      .allocatable({{"cpu", "16"}, {"memory", "16Gi"}, {"pods", "110"}})
                      .label("node.koordinator.sh/numa-topology-policy", "SingleNUMANode")
                      .info();
  auto cpus = std::make_unique<NodeCpus>();
  cpus->apply_topology(make_nrt(2, 1, 4));
  node.set_extension(NodeExtensionSlot::kCpus, std::move(cpus));
  auto pod = lsr_pod("2", R"({"cpuset":"6,14"})");
  REQUIRE(run.pre(*pod).ok());
  REQUIRE(run.plugin.filter(run.state, *pod, node).ok());
  REQUIRE(run.plugin.reserve(run.state, *pod, node).ok());
  BindingChanges changes;
  REQUIRE(run.plugin.pre_bind(run.state, *pod, "n", changes).ok());
  CHECK(changes.annotations.at(kAnnotationResourceStatus) ==
        R"({"cpuset":"6,14","numaNodeResources":[{"node":1,"resources":{"cpu":"2","memory":"1Gi"}}]})");
  // Four CPUs named across both NUMA nodes cannot sit on one.
  Run across;
  NodeInfo other = node;
  auto split = lsr_pod("4", R"({"cpuset":"3,11,4,12"})");
  REQUIRE(across.pre(*split).ok());
  CHECK_FALSE(across.plugin.filter(across.state, *split, other).ok());
}

TEST_CASE("Reserve lets go of the pod's own stale resource-status before it allocates", "[numa][designated]") {
  // The cycle assumes the pod on the node before Reserve, and NodeCpus then
  // holds the resource-status it carries; Reserve's allocation replaces it.
  for (bool extension : {false, true}) {
    INFO("extension " << extension);
    Run run;
    NodeInfo node = numa_node();
    auto pod = lsr_pod("2", R"({"cpuset":"5,13"})", extension);
    REQUIRE(run.pre(*pod).ok());
    auto* cpus = node.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus);
    cpus->on_pod_added(*pod);
    REQUIRE(cpus->allocation(pod_identity(*pod)) != nullptr);
    REQUIRE(run.plugin.reserve(run.state, *pod, node).ok());
    CHECK(cpus->allocations().size() == 1);
    CHECK(cpus->allocation(pod_identity(*pod))->cpus.to_string() == (extension ? "5,13" : "0,8"));
    run.plugin.unreserve(run.state, *pod, node);
    CHECK(cpus->available_cpus().to_string() == "0-15");
  }
}

TEST_CASE("a designation across NUMA nodes is split by where its CPUs are", "[numa][designated]") {
  // Restricted: 6 CPUs need both NUMA nodes; the designation has 4 on NUMA
  // node 0 and 2 on NUMA node 1, so the NUMA amounts must follow it (an even
  // split would ask 3 of NUMA node 1).
  Run run;
  NodeInfo node = NodeBuilder("n")
                      .allocatable({{"cpu", "16"}, {"memory", "16Gi"}, {"pods", "110"}})
                      .label("node.koordinator.sh/numa-topology-policy", "Restricted")
                      .info();
  auto cpus = std::make_unique<NodeCpus>();
  cpus->apply_topology(make_nrt(2, 1, 4));
  node.set_extension(NodeExtensionSlot::kCpus, std::move(cpus));
  auto pod = lsr_pod("6", R"({"cpuset":"0-1,8-9,4,12"})");
  REQUIRE(run.pre(*pod).ok());
  PluginStatus filtered = run.plugin.filter(run.state, *pod, node);
  INFO(filtered.message());
  REQUIRE(filtered.ok());
  REQUIRE(run.plugin.reserve(run.state, *pod, node).ok());
  CHECK(node.extension<NodeCpus>(NodeExtensionSlot::kCpus)->allocation(pod_identity(*pod))->cpus.to_string() ==
        "0-1,4,8-9,12");
}

TEST_CASE("a pod that gets no cpuset has no designation", "[numa][designated]") {
  // An LS pod shares the pool: its designated cpuset is not read, so CPUs
  // another pod holds do not turn it away.
  Run run;
  NodeInfo node = numa_node();
  PodAllocation other;
  other.cpus = *CpuSet::parse("5,13");
  REQUIRE(node.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus)->add_allocation("other", other));
  Pod pod = PodBuilder("ls").container({{"cpu", "2"}, {"memory", "1Gi"}}).pod();
  pod.meta.labels["koordinator.sh/qosClass"] = "LS";
  pod.meta.annotations[kAnnotationResourceStatus] = R"({"cpuset":"5,13"})";
  pod.meta.annotations[kHint] = kExtension;
  auto info = PodInfo::make(std::move(pod));
  REQUIRE(run.pre(*info).ok());
  CHECK(run.plugin.read_state(run.state)->designated_cpus == nullptr);
  CHECK(run.plugin.filter(run.state, *info, node).ok());
}
