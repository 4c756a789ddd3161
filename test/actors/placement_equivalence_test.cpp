// Placement equivalence: the partitioned path the node actors run
// (NodePartition::filter/score per partition, scores merged, finalize once)
// decides exactly as the straightforward path — the same Framework run over
// plain NodeInfos one node at a time — on random clusters and pods. Whatever
// the partitions optimise (iteration order, early exit, cached lookups), the
// feasible set, the failure reasons, every node's total score and so the
// placement must not change.

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "test/actors/default_framework.hpp"
#include "actors/node_partition.hpp"
#include "actors/partitioning.hpp"
#include "plugins/node_extensions.hpp"
#include "plugins/registry.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::actors;
using troupe::actors::testing::default_framework;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

namespace {

const std::vector<std::string> kZones = {"zone-a", "zone-b", "zone-c"};
const std::vector<std::string> kTaintKeys = {"dedicated", "spot"};

template <class T>
const T& pick(std::mt19937_64& rng, const std::vector<T>& from) {
  return from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(rng)];
}
int64_t between(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

Node random_node(std::mt19937_64& rng, int index) {
  NodeBuilder b("node-" + std::to_string(index));
  Amounts alloc = {{"cpu", std::to_string(between(rng, 2, 32))},
                   {"memory", std::to_string(between(rng, 4, 128)) + "Gi"},
                   {"pods", std::to_string(between(rng, 3, 40))}};
  if (between(rng, 0, 3) == 0) alloc.push_back({"example.com/fpga", std::to_string(between(rng, 1, 4))});
  b.allocatable(alloc).label("topology.kubernetes.io/zone", pick(rng, kZones));
  if (between(rng, 0, 1) == 0) b.label("disk", between(rng, 0, 1) ? "ssd" : "hdd");
  if (between(rng, 0, 5) == 0) b.taint(pick(rng, kTaintKeys), "true", TaintEffect::no_schedule);
  if (between(rng, 0, 4) == 0) b.taint(pick(rng, kTaintKeys), "true", TaintEffect::prefer_no_schedule);
  if (between(rng, 0, 19) == 0) b.unschedulable();
  return b.node();
}

std::shared_ptr<const PodInfo> random_pod(std::mt19937_64& rng, int index) {
  const std::string name = "pod-" + std::to_string(index);
  PodBuilder b(name);
  b.uid("uid-" + name);
  Amounts requests;
  if (between(rng, 0, 5) != 0) requests.push_back({"cpu", std::to_string(between(rng, 1, 40) * 100) + "m"});
  if (between(rng, 0, 5) != 0) requests.push_back({"memory", std::to_string(between(rng, 1, 64) * 256) + "Mi"});
  if (between(rng, 0, 7) == 0) requests.push_back({"example.com/fpga", "1"});
  b.container(requests);
  if (between(rng, 0, 4) == 0) b.node_selector({{"topology.kubernetes.io/zone", pick(rng, kZones)}});
  if (between(rng, 0, 3) == 0)
    b.preferred(static_cast<int32_t>(between(rng, 1, 100)),
                NodeSelectorTerm{{requirement("disk", LabelRequirement::Op::in, {"ssd"})}, {}});
  if (between(rng, 0, 2) == 0)
    b.toleration(toleration(pick(rng, kTaintKeys), TolerationOperator::exists, "", TaintEffect::all));
  return b.info();
}

/// What one path decided for one pod.
struct Decision {
  std::set<std::string> feasible;
  std::map<std::string, int64_t> failures;  // reason -> nodes
  std::map<std::string, int64_t> totals;    // node -> final score
  std::string chosen;                       // "" when nothing fits

  /// The highest total; the first name among equals (both paths use the same rule).
  void choose() {
    int64_t best = std::numeric_limits<int64_t>::min();
    for (const auto& [node, total] : totals)
      if (total > best) best = total, chosen = node;
    if (totals.empty() && feasible.size() == 1) chosen = *feasible.begin();
  }
};

void record_scores(Decision& d, const std::vector<NodeScore>& scores) {
  for (const auto& s : scores) d.totals[s.node_name] = s.total;
}

/// The straightforward path: every node, one at a time, in a plain map.
class ReferencePath {
 public:
  void add_node(const Node& node) {
    NodeInfo& info = nodes_[node.meta.name];
    attach_node_extensions(info);
    info.set_node(std::make_shared<const Node>(node));
  }

  Decision decide(const Framework& fw, CycleState& state, const PodInfo& pod) const {
    Decision d;
    std::vector<const NodeInfo*> feasible;
    std::vector<std::string> names;
    for (const auto& [name, info] : nodes_) {
      auto status = fw.run_filter(state, pod, info);
      REQUIRE(status.code != Code::error);
      if (status.ok()) {
        feasible.push_back(&info);
        names.push_back(name);
        d.feasible.insert(name);
      } else {
        FailureHistogram h;
        h.add(status);
        for (const auto& [reason, count] : h.counts()) d.failures[reason] += count;
      }
    }
    if (feasible.size() > 1) {
      // Upstream's order: PreScore once the feasible nodes are known.
      REQUIRE(fw.run_pre_score(state, pod).ok());
      std::vector<NodeScore> scores(feasible.size());
      for (size_t i = 0; i < feasible.size(); ++i) {
        scores[i].node_name = names[i];
        REQUIRE(fw.score_node(state, pod, *feasible[i], scores[i]).ok());
      }
      REQUIRE(fw.finalize_scores(state, pod, scores).ok());
      record_scores(d, scores);
    }
    d.choose();
    return d;
  }

  void reserve(const Framework& fw, CycleState& state, const std::shared_ptr<const PodInfo>& pod,
               const std::string& node) {
    REQUIRE(fw.run_reserve(state, pod, nodes_.at(node)).ok());
  }

 private:
  std::map<std::string, NodeInfo> nodes_;
};

/// The node actors' path: nodes spread over partitions by name, each
/// partition filtering and scoring its own share, the scores merged.
class PartitionedPath {
 public:
  explicit PartitionedPath(size_t partitions) : parts_(partitions) {}

  void add_node(const Node& node) {
    parts_[partition_of(node.meta.name, parts_.size())].upsert_node(std::make_shared<const Node>(node));
  }

  Decision decide(const Framework& fw, CycleState& state, const PodInfo& pod) {
    // troupe's order: PreScore first, then one round per partition that
    // filters and scores, the raw scores normalised over every partition.
    Decision d;
    REQUIRE(fw.run_pre_score(state, pod).ok());
    std::vector<NodeScore> scores;
    for (auto& part : parts_) {
      auto out = part.run_round(fw, state, pod, RoundOptions{});
      REQUIRE_FALSE(out.error);
      for (const auto& s : out.feasible) d.feasible.insert(s.node_name);
      scores.insert(scores.end(), out.feasible.begin(), out.feasible.end());
      for (const auto& [reason, count] : out.failures.counts()) d.failures[reason] += count;
    }
    if (scores.size() > 1) {
      REQUIRE(fw.finalize_scores(state, pod, scores).ok());
      record_scores(d, scores);
    }
    d.choose();
    return d;
  }

  void reserve(const Framework& fw, CycleState& state, const std::shared_ptr<const PodInfo>& pod,
               const std::string& node) {
    REQUIRE(parts_[partition_of(node, parts_.size())].reserve(fw, state, pod, node).ok());
  }

 private:
  std::vector<NodePartition> parts_;
};

}  // namespace

TEST_CASE("partitioned placement equals one-node-at-a-time placement on random clusters") {
  auto fw = default_framework();
  struct Case { uint64_t seed; int nodes; int pods; size_t partitions; };
  const std::vector<Case> cases = {
      {1, 1, 20, 1},     {2, 2, 30, 2},     {3, 7, 60, 3},     {4, 40, 200, 2},
      {5, 40, 200, 1},   {6, 97, 400, 4},   {7, 150, 500, 2},  {8, 25, 300, 8},
      {9, 60, 300, 5},   {10, 120, 600, 3},
  };
  for (const auto& c : cases) {
    CAPTURE(c.seed, c.nodes, c.pods, c.partitions);
    std::mt19937_64 rng(c.seed);
    ReferencePath reference;
    PartitionedPath partitioned(c.partitions);
    for (int i = 0; i < c.nodes; ++i) {
      Node node = random_node(rng, i);
      reference.add_node(node);
      partitioned.add_node(node);
    }
    int placed = 0;
    for (int i = 0; i < c.pods; ++i) {
      CAPTURE(i);
      auto pod = random_pod(rng, i);
      auto ref_state = fw->new_cycle_state();
      auto part_state = fw->new_cycle_state();
      auto ref_pre = fw->run_pre_filter(*ref_state, *pod);
      auto part_pre = fw->run_pre_filter(*part_state, *pod);
      REQUIRE(ref_pre.code == part_pre.code);
      if (!ref_pre.ok()) continue;
      Decision expected = reference.decide(*fw, *ref_state, *pod);
      Decision got = partitioned.decide(*fw, *part_state, *pod);
      REQUIRE(got.feasible == expected.feasible);
      REQUIRE(got.failures == expected.failures);
      REQUIRE(got.totals == expected.totals);
      REQUIRE(got.chosen == expected.chosen);
      if (expected.chosen.empty()) continue;
      reference.reserve(*fw, *ref_state, pod, expected.chosen);
      partitioned.reserve(*fw, *part_state, pod, got.chosen);
      ++placed;
    }
    // The clusters fill up: both placements and rejections were compared.
    CHECK(placed > 0);
  }
}
