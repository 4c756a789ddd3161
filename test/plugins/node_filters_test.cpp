#include <catch2/catch.hpp>

#include "plugins/node_name/node_name.hpp"
#include "plugins/node_ports/node_ports.hpp"
#include "plugins/node_unschedulable/node_unschedulable.hpp"
#include "plugins/taint_toleration/taint_toleration.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

TEST_CASE("TaintToleration Filter: NoSchedule and NoExecute need a toleration", "[taint_toleration]") {
  TaintToleration plugin;
  using E = TaintEffect;
  using O = TolerationOperator;
  struct Case {
    const char* name;
    std::vector<Taint> taints;
    std::vector<Toleration> tolerations;
    std::string reason;  // empty: fits
  };
  const std::vector<Case> cases = {
      {"no taints", {}, {}, ""},
      {"untolerated NoSchedule", {{"dedicated", "gpu", E::no_schedule, {}}}, {}, "node(s) had untolerated taint {dedicated: gpu}"},
      {"untolerated NoExecute", {{"k", "", E::no_execute, {}}}, {}, "node(s) had untolerated taint {k: }"},
      {"PreferNoSchedule does not filter", {{"k", "v", E::prefer_no_schedule, {}}}, {}, ""},
      {"Equal toleration", {{"k", "v", E::no_schedule, {}}}, {toleration("k", O::equal, "v", E::no_schedule)}, ""},
      {"Equal with another value", {{"k", "v", E::no_schedule, {}}}, {toleration("k", O::equal, "w", E::no_schedule)},
       "node(s) had untolerated taint {k: v}"},
      {"Exists any value", {{"k", "v", E::no_schedule, {}}}, {toleration("k", O::exists, "", E::no_schedule)}, ""},
      {"empty effect tolerates every effect", {{"k", "v", E::no_execute, {}}}, {toleration("k", O::equal, "v", E::all)}, ""},
      {"effect must match", {{"k", "v", E::no_execute, {}}}, {toleration("k", O::equal, "v", E::no_schedule)},
       "node(s) had untolerated taint {k: v}"},
      {"empty key with Exists tolerates everything",
       {{"a", "1", E::no_schedule, {}}, {"b", "2", E::no_execute, {}}}, {toleration("", O::exists, "", E::all)}, ""},
      {"the first untolerated taint is reported",
       {{"a", "1", E::no_schedule, {}}, {"b", "2", E::no_schedule, {}}}, {toleration("a", O::exists, "", E::all)},
       "node(s) had untolerated taint {b: 2}"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    NodeBuilder nb("n");
    for (const auto& t : c.taints) nb.taint(t.key, t.value, t.effect);
    PodBuilder pb("p");
    for (const auto& t : c.tolerations) pb.toleration(t);
    PluginStatus s = plugin.filter(CycleState(), *pb.info(), nb.info());
    if (c.reason.empty()) {
      CHECK(s.ok());
    } else {
      CHECK(s.code == Code::unschedulable_and_unresolvable);
      CHECK(s.reasons == std::vector<std::string>{c.reason});
    }
  }
}

TEST_CASE("TaintToleration scores untolerated PreferNoSchedule taints, reverse-normalized", "[taint_toleration]") {
  TaintToleration plugin;
  using E = TaintEffect;
  auto pod = PodBuilder("p")
                 .toleration(toleration("tolerated", TolerationOperator::exists, "", E::prefer_no_schedule))
                 .toleration(toleration("no-sched-only", TolerationOperator::exists, "", E::no_schedule))
                 .info();
  std::vector<NodeInfo> nodes;
  nodes.push_back(NodeBuilder("a").info());                                                       // 0
  nodes.push_back(NodeBuilder("b").taint("x", "1", E::prefer_no_schedule).info());               // 1
  nodes.push_back(NodeBuilder("c").taint("x", "1", E::prefer_no_schedule).taint("y", "", E::prefer_no_schedule).info());  // 2
  nodes.push_back(NodeBuilder("d").taint("tolerated", "", E::prefer_no_schedule).info());        // 0
  // A NoSchedule-only toleration does not cover a PreferNoSchedule taint when scoring.
  nodes.push_back(NodeBuilder("e").taint("no-sched-only", "", E::prefer_no_schedule).info());    // 1
  nodes.push_back(NodeBuilder("f").taint("z", "", E::no_schedule).info());                        // 0: not scored
  std::vector<int64_t> scores;
  for (const auto& n : nodes) scores.push_back(plugin.score(CycleState(), *pod, n).score);
  CHECK(scores == std::vector<int64_t>{0, 1, 2, 0, 1, 0});
  REQUIRE(plugin.normalize_scores(CycleState(), *pod, scores).ok());
  CHECK(scores == std::vector<int64_t>{100, 50, 0, 100, 50, 100});
}

TEST_CASE("NodeName and NodeUnschedulable", "[node_name][node_unschedulable]") {
  NodeName name;
  NodeInfo n1 = NodeBuilder("n1").info();
  CHECK(name.filter(CycleState(), *PodBuilder("p").info(), n1).ok());
  CHECK(name.filter(CycleState(), *PodBuilder("p").node_name("n1").info(), n1).ok());
  PluginStatus s = name.filter(CycleState(), *PodBuilder("p").node_name("n2").info(), n1);
  CHECK(s.code == Code::unschedulable_and_unresolvable);
  CHECK(s.reasons == std::vector<std::string>{"node(s) didn't match the requested node name"});

  NodeUnschedulable unsched;
  NodeInfo cordoned = NodeBuilder("c").unschedulable().info();
  CHECK(unsched.filter(CycleState(), *PodBuilder("p").info(), n1).ok());
  PluginStatus u = unsched.filter(CycleState(), *PodBuilder("p").info(), cordoned);
  CHECK(u.code == Code::unschedulable_and_unresolvable);
  CHECK(u.reasons == std::vector<std::string>{"node(s) were unschedulable"});
  auto tolerant = PodBuilder("t").toleration(
      toleration("node.kubernetes.io/unschedulable", TolerationOperator::exists, "", TaintEffect::no_schedule));
  CHECK(unsched.filter(CycleState(), *tolerant.info(), cordoned).ok());
  auto wrong_effect = PodBuilder("w").toleration(
      toleration("node.kubernetes.io/unschedulable", TolerationOperator::exists, "", TaintEffect::no_execute));
  CHECK_FALSE(unsched.filter(CycleState(), *wrong_effect.info(), cordoned).ok());
}

TEST_CASE("NodePorts: skip without host ports, reject conflicts", "[node_ports]") {
  NodePorts plugin;
  CycleState state;
  PreFilterResult result;
  CHECK(plugin.pre_filter(state, *PodBuilder("p").container({}).info(), result).code == Code::skip);
  auto wants = PodBuilder("w").host_port(8080).host_port(53, "10.0.0.1", Protocol::udp).info();
  CHECK(plugin.pre_filter(state, *wants, result).ok());

  auto holder = PodBuilder("h").host_port(8080, "127.0.0.1").info();
  auto udp = PodBuilder("u").host_port(53, "0.0.0.0", Protocol::udp).info();
  auto other = PodBuilder("o").host_port(9090).info();
  const std::string reason = "node(s) didn't have free ports for the requested pod ports";
  CHECK(plugin.filter(state, *wants, NodeBuilder("free").info({other})).ok());
  CHECK(plugin.filter(state, *wants, NodeBuilder("busy").info({holder})).reasons == std::vector<std::string>{reason});
  CHECK(plugin.filter(state, *wants, NodeBuilder("dns").info({udp})).code == Code::unschedulable);
}
