// A NODE actor's part of the preemption search (actors/preemption_search.hpp):
// it searches the nodes its last round rejected, plus those the extenders
// turned down, and counts the nodes it rules out without a copy.

#include <catch2/catch.hpp>

#include "actors/preemption_search.hpp"
#include "test/actors/default_framework.hpp"
#include "test/actors/partition_rounds.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::actors;
using troupe::actors::testing::default_framework;
using troupe::actors::testing::filter_round;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

namespace {

namespace pre = plugins::preemption;

std::shared_ptr<const Node> node(const std::string& name) {
  return std::make_shared<const Node>(
      NodeBuilder(name).allocatable({{"cpu", "4"}, {"memory", "8Gi"}, {"pods", "110"}}).node());
}

std::shared_ptr<const PodInfo> bound(const std::string& name, const std::string& node_name, int32_t priority) {
  return PodBuilder(name).uid("uid-" + name).container({{"cpu", "3"}}).priority(priority).node_name(node_name).info();
}

/// A partition of four full nodes: a and b hold a priority-0 pod, c a
/// priority-100 pod, d a priority-0 pod too.
NodePartition full_partition() {
  NodePartition part;
  for (auto n : {"a", "b", "c", "d"}) part.upsert_node(node(n));
  part.account_pod(bound("low-a", "a", 0));
  part.account_pod(bound("low-b", "b", 0));
  part.account_pod(bound("high-c", "c", 100));
  part.account_pod(bound("low-d", "d", 0));
  return part;
}

struct Search {
  std::shared_ptr<const Framework> framework = default_framework();
  std::shared_ptr<CycleRequest> cycle = std::make_shared<CycleRequest>();
  std::map<std::string, PluginStatus> extender_statuses;

  explicit Search(int32_t preemptor_priority) {
    cycle->cycle = 7;
    cycle->framework = framework;
    cycle->pod = PodBuilder("preemptor").uid("uid-preemptor").container({{"cpu", "2"}}).priority(preemptor_priority).info();
    cycle->state = std::shared_ptr<CycleState>(framework->new_cycle_state());
    REQUIRE(framework->run_pre_filter(*cycle->state, *cycle->pod).ok());
  }

  pre::PartitionPreemption run(const NodePartition& part, uint64_t round_cycle) const {
    PreemptionRequest request;
    request.cycle = cycle;
    request.extender_statuses = std::make_shared<const std::map<std::string, PluginStatus>>(extender_statuses);
    request.pdbs = std::make_shared<const std::vector<PodDisruptionBudget>>();
    request.search.options.min_candidate_nodes_absolute = 100;
    request.search.total_nodes = 4;
    return evaluate_preemption(part, round_cycle, request);
  }
};

}  // namespace

TEST_CASE("the preemption search reads the partition's own round and counts what it rules out") {
  struct Case {
    int32_t preemptor_priority;
    std::optional<std::string> best;  // sorted by name, the first candidate with fewest/least victims wins
    int64_t no_victims;               // nodes ruled out without a copy
  };
  const std::vector<Case> cases = {
      {50, "a", 1},           // c's pod outranks the preemptor: ruled out; a, b and d each have a victim
      {0, std::nullopt, 4},   // equal priority: no victim anywhere
      {-5, std::nullopt, 4},  // lower priority: no victim anywhere
      {1000, "a", 0},         // every node has a victim
  };
  for (const auto& c : cases) {
    CAPTURE(c.preemptor_priority);
    NodePartition part = full_partition();
    Search search(c.preemptor_priority);
    auto round = filter_round(part, *search.framework, *search.cycle->state, *search.cycle->pod, 100);
    REQUIRE(round.feasible.empty());
    REQUIRE(part.last_rejections().size() == 4);
    auto answer = search.run(part, 7);
    CHECK_FALSE(answer.ineligible);
    REQUIRE(answer.best.has_value() == c.best.has_value());
    if (c.best) CHECK(answer.best->node == *c.best);
    const auto ruled_out = answer.ruled_out.count(pre::kNoVictimsFound) ? answer.ruled_out.at(pre::kNoVictimsFound) : 0;
    CHECK(ruled_out == c.no_victims);
  }
}

TEST_CASE("the preemption search skips nodes that passed, nodes gone since the round, and another cycle's round") {
  NodePartition part = full_partition();
  part.upsert_node(node("empty"));  // the preemptor fits here: not a candidate
  Search search(50);
  auto round = filter_round(part, *search.framework, *search.cycle->state, *search.cycle->pod, 100);
  REQUIRE(round.feasible.size() == 1);
  REQUIRE(part.last_rejections().size() == 4);

  SECTION("a node whose Node object is deleted after the round is no candidate") {
    part.delete_node("a");
    auto answer = search.run(part, 7);
    REQUIRE(answer.best);
    CHECK(answer.best->node == "b");
  }
  SECTION("a node erased with its pods after the round is no candidate") {
    part.forget_pod("uid-low-a");
    part.delete_node("a");
    REQUIRE(part.last_rejections().size() == 3);
    auto answer = search.run(part, 7);
    REQUIRE(answer.best);
    CHECK(answer.best->node == "b");
  }
  SECTION("a request for another cycle finds nothing rather than use this round") {
    auto answer = search.run(part, 6);
    CHECK_FALSE(answer.best);
    CHECK(answer.ruled_out.empty());
  }
}

TEST_CASE("nodes the extenders turned down are searched too, with their own status") {
  NodePartition part = full_partition();
  part.upsert_node(node("empty"));
  Search search(50);
  (void)filter_round(part, *search.framework, *search.cycle->state, *search.cycle->pod, 100);
  SECTION("an extender's Unschedulable node with no pod to evict counts as no victims") {
    search.extender_statuses["empty"] = PluginStatus::unschedulable("extender says no");
    auto answer = search.run(part, 7);
    CHECK(answer.ruled_out.at(pre::kNoVictimsFound) == 2);  // c and empty
  }
  SECTION("an extender's UnschedulableAndUnresolvable node counts as not helpful") {
    search.extender_statuses["empty"] = PluginStatus::unresolvable("extender says never");
    auto answer = search.run(part, 7);
    CHECK(answer.ruled_out.at(pre::kPreemptionNotHelpful) == 1);
    CHECK(answer.ruled_out.at(pre::kNoVictimsFound) == 1);
  }
  SECTION("a node of another partition is ignored") {
    search.extender_statuses["elsewhere"] = PluginStatus::unschedulable("extender says no");
    auto answer = search.run(part, 7);
    CHECK(answer.ruled_out.at(pre::kNoVictimsFound) == 1);
  }
}
