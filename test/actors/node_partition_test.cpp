#include <catch2/catch.hpp>

#include "test/actors/default_framework.hpp"
#include "test/actors/partition_rounds.hpp"
#include "actors/node_partition.hpp"
#include "plugins/registry.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::actors;
using troupe::actors::testing::default_framework;
using troupe::actors::testing::feasible_names;
using troupe::actors::testing::filter_round;
using troupe::actors::testing::names_of;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

namespace {

std::shared_ptr<const Node> node(const std::string& name, const std::string& cpu) {
  return std::make_shared<const Node>(NodeBuilder(name).allocatable({{"cpu", cpu}, {"memory", "8Gi"}, {"pods", "110"}}).node());
}

std::shared_ptr<const PodInfo> pod(const std::string& name, const std::string& cpu, const std::string& node_name = "") {
  auto b = PodBuilder(name).uid("uid-" + name).container({{"cpu", cpu}});
  if (!node_name.empty()) b.node_name(node_name);
  return PodInfo::make(b.pod());
}

struct Cycle {
  std::shared_ptr<const Framework> framework;
  std::unique_ptr<CycleState> state;
  std::shared_ptr<const PodInfo> pod;

  Cycle(std::shared_ptr<const Framework> f, std::shared_ptr<const PodInfo> p)
      : framework(std::move(f)), state(framework->new_cycle_state()), pod(std::move(p)) {
    REQUIRE(framework->run_pre_filter(*state, *pod).ok());
  }
};

}  // namespace

TEST_CASE("filter finds the nodes that fit and counts why the others do not") {
  auto fw = default_framework();
  struct Case { std::string cpu; std::vector<std::string> feasible; int64_t insufficient_cpu; };
  std::vector<Case> cases = {
      {"1", {"a", "b", "c"}, 0},
      {"3", {"b", "c"}, 1},
      {"5", {"c"}, 2},
      {"9", {}, 3},
  };
  for (const auto& c : cases) {
    NodePartition part;
    part.upsert_node(node("a", "2"));
    part.upsert_node(node("b", "4"));
    part.upsert_node(node("c", "8"));
    Cycle cycle(fw, pod("p", c.cpu));
    auto out = filter_round(part, *fw, *cycle.state, *cycle.pod, 100);
    CHECK(out.nodes == 3);
    CHECK(names_of(out) == c.feasible);
    auto counts = out.failures.counts();
    CHECK(counts["Insufficient cpu"] == c.insufficient_cpu);
    REQUIRE(part.last_rejections().size() == static_cast<size_t>(c.insufficient_cpu));
    for (const auto& r : part.last_rejections()) CHECK(r.code == Code::unschedulable);
  }
}

TEST_CASE("filter stops at the feasible-node budget and resumes where it stopped") {
  auto fw = default_framework();
  NodePartition part;
  for (auto n : {"n0", "n1", "n2", "n3", "n4"}) part.upsert_node(node(n, "4"));
  Cycle cycle(fw, pod("p", "1"));
  CHECK(feasible_names(part, *fw, *cycle.state, *cycle.pod, 2) == std::vector<std::string>{"n0", "n1"});
  CHECK(feasible_names(part, *fw, *cycle.state, *cycle.pod, 2) == std::vector<std::string>{"n2", "n3"});
  RoundOptions scored;
  scored.limit = 2;
  REQUIRE(fw->run_pre_score(*cycle.state, *cycle.pod).ok());
  auto out = part.run_round(*fw, *cycle.state, *cycle.pod, scored);
  REQUIRE(out.feasible.size() == 2);
  CHECK(out.feasible[0].node_name == "n4");
  CHECK(out.feasible[1].node_name == "n0");
  CHECK(out.feasible[0].weighted_sum > 0);  // scored in the same round
}

TEST_CASE("reserve accounts the pod, unreserve is its exact inverse, and a full node rejects at reserve") {
  auto fw = default_framework();
  NodePartition part;
  part.upsert_node(node("a", "2"));
  Cycle first(fw, pod("p1", "1500m"));
  Cycle second(fw, pod("p2", "1"));
  REQUIRE(feasible_names(part, *fw, *second.state, *second.pod, 10).size() == 1);  // fits before p1 lands

  REQUIRE(part.reserve(*fw, *first.state, first.pod, "a").ok());
  CHECK(part.find("a")->requested().milli_cpu == 1500);
  CHECK(part.pod_count() == 1);
  // Filter said yes for p2 earlier, but p1 took the room: reserve re-checks.
  auto late = part.reserve(*fw, *second.state, second.pod, "a");
  CHECK_FALSE(late.ok());
  CHECK(late.message() == "Insufficient cpu");

  part.unreserve(*fw, *first.state, *first.pod, "a");
  CHECK(part.find("a")->requested().milli_cpu == 0);
  CHECK(part.pod_count() == 0);
  CHECK(part.reserve(*fw, *second.state, second.pod, "a").ok());
  CHECK_FALSE(part.reserve(*fw, *second.state, second.pod, "gone").ok());
}

TEST_CASE("a bound pod is accounted once, whether it was reserved here or seen first on the watch") {
  auto fw = default_framework();
  NodePartition part;
  part.upsert_node(node("a", "4"));
  Cycle c(fw, pod("p", "1"));
  REQUIRE(part.reserve(*fw, *c.state, c.pod, "a").ok());
  part.account_pod(pod("p", "1", "a"));  // the binding, observed on the watch
  CHECK(part.find("a")->requested().milli_cpu == 1000);
  part.account_pod(pod("q", "2", "a"));  // bound by another scheduler
  CHECK(part.find("a")->requested().milli_cpu == 3000);
  part.forget_pod("uid-p");
  part.forget_pod("uid-p");  // twice is harmless
  CHECK(part.find("a")->requested().milli_cpu == 2000);
}

TEST_CASE("a bound pod resized in place is accounted again with its new requests") {
  auto fw = default_framework();
  struct Case {
    const char* name;
    bool reserved_here;      // assumed by a Reserve before its binding was seen
    const char* resized_to;  // the cpu the later version asks for
    int64_t milli_after;
  };
  const Case cases[] = {
      {"seen bound, shrunk", false, "500m", 2500},
      {"seen bound, grown", false, "3", 5000},
      {"reserved here, shrunk", true, "250m", 2250},
      {"same requests: nothing changes", true, "1", 3000},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    NodePartition part;
    part.upsert_node(node("a", "8"));
    part.account_pod(pod("q", "2", "a"));
    if (c.reserved_here) {
      Cycle cycle(fw, pod("p", "1"));
      REQUIRE(part.reserve(*fw, *cycle.state, cycle.pod, "a").ok());
    }
    part.account_pod(pod("p", "1", "a"));
    CHECK(part.find("a")->requested().milli_cpu == 3000);
    part.account_pod(pod("p", c.resized_to, "a"));
    CHECK(part.find("a")->requested().milli_cpu == c.milli_after);
    CHECK(part.find("a")->non_zero_requested().milli_cpu == c.milli_after);
    CHECK(part.pod_count() == 2);
    part.forget_pod("uid-p");
    CHECK(part.find("a")->requested().milli_cpu == 2000);
  }
}

TEST_CASE("a pod seen bound stays accounted through a late unreserve; bound elsewhere, it moves") {
  auto fw = default_framework();
  struct Case {
    const char* name;
    const char* bound_to;  // "" = the binding is never observed
    int64_t a_milli;       // what node a holds after the late unreserve
    int64_t b_milli;
  };
  const Case cases[] = {
      {"never observed bound: unreserve frees it", "", 0, 0},
      {"observed bound where reserved: a binding reported failed took effect", "a", 1000, 0},
      {"observed bound on another node: it moves there", "b", 0, 1000},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    NodePartition part;
    part.upsert_node(node("a", "4"));
    part.upsert_node(node("b", "4"));
    Cycle cycle(fw, pod("p", "1"));
    REQUIRE(part.reserve(*fw, *cycle.state, cycle.pod, "a").ok());
    if (*c.bound_to) part.account_pod(pod("p", "1", c.bound_to));
    part.unreserve(*fw, *cycle.state, *cycle.pod, "a");
    CHECK(part.find("a")->requested().milli_cpu == c.a_milli);
    CHECK(part.find("b")->requested().milli_cpu == c.b_milli);
    CHECK(part.pod_count() == (*c.bound_to ? 1u : 0u));
    part.forget_pod("uid-p");  // deleted: nothing is left anywhere
    CHECK(part.find("a")->requested().milli_cpu == 0);
    CHECK(part.find("b")->requested().milli_cpu == 0);
  }
}

TEST_CASE("pods may arrive before their node, and a deleted node keeps its pods' accounting") {
  auto fw = default_framework();
  NodePartition part;
  part.account_pod(pod("early", "3", "late-node"));
  CHECK(part.node_count() == 0);
  Cycle c(fw, pod("p", "2"));
  CHECK(feasible_names(part, *fw, *c.state, *c.pod, 10).empty());  // no node object: nothing to place on

  part.upsert_node(node("late-node", "4"));
  CHECK(part.node_count() == 1);
  CHECK(feasible_names(part, *fw, *c.state, *c.pod, 10).empty());  // 3 of 4 cpus already taken
  part.delete_node("late-node");
  CHECK(part.node_count() == 0);
  part.upsert_node(node("late-node", "4"));
  CHECK(part.find("late-node")->requested().milli_cpu == 3000);
  part.forget_pod("uid-early");
  part.delete_node("late-node");
  CHECK(part.nodes().empty());
}

TEST_CASE("each partition takes a share of the feasible-node budget proportional to its size") {
  constexpr int64_t kAll = std::numeric_limits<int64_t>::max();
  struct Case { int64_t wanted, total, mine, expected; };
  std::vector<Case> cases = {
      {100, 50, 30, kAll},   // small cluster: every node is checked
      {100, 100, 3, kAll},
      {0, 0, 0, kAll},       // size unknown
      {100, 1000, 500, 50},
      {100, 1000, 3, 1},     // rounded up: a tiny partition still contributes
      {250, 5000, 2600, 130},
      {250, 5000, 0, 0},
  };
  for (const auto& c : cases) CHECK(feasible_share(c.wanted, c.total, c.mine) == c.expected);
}

namespace {

std::shared_ptr<const Device> gpu_device(const std::string& node_name, bool healthy) {
  auto device = decode_device_json(
      R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Device","metadata":{"name":")" + node_name +
      R"("},"spec":{"devices":[{"type":"gpu","minor":0,"health":)" + (healthy ? "true" : "false") +
      R"(,"resources":{"koordinator.sh/gpu-core":"100","koordinator.sh/gpu-memory":"16Gi",)"
      R"("koordinator.sh/gpu-memory-ratio":"100"}}]}})");
  REQUIRE(device.ok());
  return std::make_shared<const Device>(std::move(*device));
}

std::shared_ptr<const PodInfo> gpu_pod(const std::string& name) {
  return PodInfo::make(PodBuilder(name).uid("uid-" + name).container({{"cpu", "1"}, {"nvidia.com/gpu", "1"}}).pod());
}

std::shared_ptr<const Node> gpu_node(const std::string& name) {
  return std::make_shared<const Node>(
      NodeBuilder(name).allocatable({{"cpu", "8"}, {"memory", "8Gi"}, {"pods", "110"}, {"nvidia.com/gpu", "1"}}).node());
}

}  // namespace

TEST_CASE("a node's Device reaches its NodeInfo in any order and outlives the node object", "[devices]") {
  auto fw = default_framework();
  NodePartition part;
  part.apply_object(NodeObject(gpu_device("g", true)));  // before the node
  CHECK(part.node_count() == 0);
  CHECK(part.device_summaries("g").rfind("\"g\":{", 0) == 0);
  part.upsert_node(gpu_node("g"));
  Cycle first(fw, gpu_pod("first"));
  REQUIRE(feasible_names(part, *fw, *first.state, *first.pod, 10) == std::vector<std::string>{"g"});
  REQUIRE(part.reserve(*fw, *first.state, first.pod, "g").ok());
  // The only card is taken: DeviceShare rejects the next whole-GPU pod here.
  Cycle second(fw, gpu_pod("second"));
  CHECK(feasible_names(part, *fw, *second.state, *second.pod, 10).empty());

  // The node object goes and comes back: the Device and the allocation stay.
  part.delete_node("g");
  part.upsert_node(gpu_node("g"));
  CHECK(feasible_names(part, *fw, *second.state, *second.pod, 10).empty());
  part.unreserve(*fw, *first.state, *first.pod, "g");
  CHECK(feasible_names(part, *fw, *second.state, *second.pod, 10) == std::vector<std::string>{"g"});

  // An unhealthy card is never chosen; a deleted Device leaves no usable card.
  part.apply_object(NodeObject(gpu_device("g", false)));
  CHECK(feasible_names(part, *fw, *second.state, *second.pod, 10).empty());
  part.apply_object(NodeObject(gpu_device("g", true)));
  part.delete_object(NodeObjectRef{NodeObjectKind::device, "g", "g"});
  CHECK(feasible_names(part, *fw, *second.state, *second.pod, 10).empty());

  // Without node, pods or Device the entry is dropped.
  part.delete_node("g");
  CHECK(part.nodes().empty());
  CHECK(part.device_summaries("").empty());
}

TEST_CASE("a Device or NRT alone keeps its node's entry until it is deleted, and is applied again after", "[devices]") {
  // Devices and NRTs are named after their node: the partition keeps no
  // tracking entry for them, so deleting and re-applying must still reach the node.
  auto topology = std::make_shared<NodeResourceTopology>();
  topology->meta.name = "n";
  struct Case {
    const char* what;
    NodeObject object;
    NodeObjectKind kind;
  };
  const std::vector<Case> cases = {
      {"device", NodeObject(gpu_device("n", true)), NodeObjectKind::device},
      {"topology", NodeObject(std::shared_ptr<const NodeResourceTopology>(topology)), NodeObjectKind::topology},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    NodePartition part;
    part.apply_object(c.object);
    REQUIRE(part.find("n") != nullptr);
    CHECK(part.find("n")->extensions_hold_objects());
    part.apply_object(c.object);  // an update of the same object
    CHECK(part.nodes().size() == 1);
    part.delete_object(NodeObjectRef{c.kind, "n", "n"});
    CHECK(part.nodes().empty());
    part.delete_object(NodeObjectRef{c.kind, "n", "n"});  // a second delete is harmless
    CHECK(part.nodes().empty());
    part.upsert_node(gpu_node("n"));
    part.apply_object(c.object);
    CHECK(part.find("n")->extensions_hold_objects());
    part.delete_object(NodeObjectRef{c.kind, "n", "n"});
    REQUIRE(part.find("n") != nullptr);  // the node object keeps the entry
    CHECK_FALSE(part.find("n")->extensions_hold_objects());
  }
}
