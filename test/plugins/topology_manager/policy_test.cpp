#include <catch2/catch.hpp>

#include <random>

#include "../builders.hpp"
#include "plugins/topology_manager/hint_provider.hpp"
#include "plugins/topology_manager/policy.hpp"

using namespace troupe::plugins::topology;

namespace {

NumaHint hint(NumaMask mask, bool preferred, int64_t score = 0) { return NumaHint{mask, preferred, score, false}; }

struct MergeCase {
  const char* name;
  NumaPolicy policy;
  std::vector<NumaHints> providers;
  NumaExclusive exclusive;
  std::vector<NumaNodeStatus> statuses;
  NumaMask want_mask;
  bool want_preferred;
  bool want_admit;
  std::string want_reason;  // prefix of the first reason, "" = none
};

}  // namespace

TEST_CASE("NUMA hint merge picks the best permutation per policy", "[topology][merge]") {
  const std::vector<int> nodes = {0, 1};
  const auto none = NumaExclusive::none;
  const std::vector<MergeCase> cases = {
      {"none admits without affinity", NumaPolicy::none, {{{"cpu", {hint(0b01, true)}}}}, none, {}, 0, false, true, ""},
      {"best effort prefers the preferred narrow hint", NumaPolicy::best_effort,
       {{{"cpu", {hint(0b01, true), hint(0b11, false)}}}}, none, {}, 0b01, true, true, ""},
      {"two providers AND to the common node", NumaPolicy::best_effort,
       {{{"cpu", {hint(0b01, true), hint(0b10, true), hint(0b11, false)}}}, {{"gpu", {hint(0b10, true)}}}}, none, {},
       0b10, true, true, ""},
      {"equal width: the higher score wins", NumaPolicy::restricted,
       {{{"cpu", {hint(0b01, true, 10), hint(0b10, true, 50)}}}}, none, {}, 0b10, true, true, ""},
      {"equal width and score: the lower mask stays", NumaPolicy::restricted,
       {{{"cpu", {hint(0b01, true, 10), hint(0b10, true, 10)}}}}, none, {}, 0b01, true, true, ""},
      {"a provider with no preference does not narrow", NumaPolicy::restricted,
       {{}, {{"cpu", {hint(0b10, true)}}}}, none, {}, 0b10, true, true, ""},
      {"restricted rejects a non-preferred result", NumaPolicy::restricted, {{{"cpu", {hint(0b11, false)}}}}, none, {},
       0b11, false, false, "Unaligned NUMA Hint cause cpu prefer [] among [[0 1]]"},
      {"restricted: a resource with no hint at all", NumaPolicy::restricted, {{{"cpu", {}}}}, none, {}, 0b11, false,
       false, "Unsatisfied NUMA cpu"},
      {"best effort ignores unsatisfiable resources", NumaPolicy::best_effort,
       {{{"cpu", {}}, {"memory", {hint(0b01, true)}}}}, none, {}, 0b11, false, true, ""},
      {"single NUMA keeps only one-node preferred hints", NumaPolicy::single_numa_node,
       {{{"cpu", {hint(0b11, true), hint(0b10, true)}}}}, none, {}, 0b10, true, true, ""},
      {"single NUMA rejects when only wide hints exist", NumaPolicy::single_numa_node,
       {{{"cpu", {hint(0b11, true)}}}}, none, {}, 0, false, false, "Unaligned NUMA Hint cause cpu prefer [[0 1]]"},
      {"single NUMA: disjoint providers cannot align", NumaPolicy::single_numa_node,
       {{{"cpu", {hint(0b01, true)}}}, {{"gpu", {hint(0b10, true)}}}}, none, {}, 0, false, false, "Unaligned"},
      {"exclusive required avoids a shared node", NumaPolicy::single_numa_node,
       {{{"cpu", {hint(0b01, true), hint(0b10, true)}}}}, NumaExclusive::required,
       {NumaNodeStatus::shared, NumaNodeStatus::idle}, 0b10, true, true, ""},
      {"exclusive required: multi-NUMA over a single node is not preferred", NumaPolicy::restricted,
       {{{"cpu", {hint(0b11, true)}}}}, NumaExclusive::required, {NumaNodeStatus::single, NumaNodeStatus::idle}, 0b11,
       false, false, "Unaligned"},
      {"exclusive preferred ignores the statuses", NumaPolicy::single_numa_node,
       {{{"cpu", {hint(0b01, true), hint(0b10, true)}}}}, NumaExclusive::preferred,
       {NumaNodeStatus::shared, NumaNodeStatus::idle}, 0b01, true, true, ""},
  };
  for (const MergeCase& c : cases) {
    SECTION(c.name) {
      MergeResult r = merge_hints(c.policy, nodes, c.providers, c.exclusive, c.statuses);
      CHECK(r.hint.numa_nodes == c.want_mask);
      CHECK(r.hint.preferred == c.want_preferred);
      CHECK(r.admit == c.want_admit);
      if (c.want_reason.empty()) {
        CHECK(r.reasons.empty());
      } else {
        REQUIRE_FALSE(r.reasons.empty());
        CHECK(r.reasons[0].rfind(c.want_reason, 0) == 0);
      }
    }
  }
}

TEST_CASE("NUMA policies parse and merge", "[topology][policy]") {
  CHECK(*parse_numa_policy("") == NumaPolicy::none);
  CHECK(*parse_numa_policy("SingleNUMANode") == NumaPolicy::single_numa_node);
  CHECK(parse_numa_policy("single").message().find("unsupported NUMA topology policy \"single\"") == 0);
  CHECK(numa_policy_from_nrt("SingleNUMANodePodLevel") == NumaPolicy::single_numa_node);
  CHECK(numa_policy_from_nrt("SingleNUMANodeContainerLevel") == NumaPolicy::none);
  CHECK(numa_policy_from_nrt("Restricted") == NumaPolicy::restricted);
  CHECK(*merge_numa_policies(NumaPolicy::none, NumaPolicy::restricted) == NumaPolicy::restricted);
  CHECK(*merge_numa_policies(NumaPolicy::best_effort, NumaPolicy::none) == NumaPolicy::best_effort);
  CHECK(*merge_numa_policies(NumaPolicy::restricted, NumaPolicy::restricted) == NumaPolicy::restricted);
  CHECK_FALSE(merge_numa_policies(NumaPolicy::restricted, NumaPolicy::single_numa_node));
  CHECK(parse_numa_exclusive("Maybe").message().find("singleNUMANodeExclusive") != std::string::npos);
  CHECK(numa_subsets({0, 1, 2}) == std::vector<NumaMask>{0b001, 0b010, 0b100, 0b011, 0b101, 0b110, 0b111});
  CHECK(is_narrower(0b01, 0b11));
  CHECK(is_narrower(0b01, 0b10));
  CHECK_FALSE(is_narrower(0b110, 0b011));
}

TEST_CASE("the merge finds the preferred answer without crossing every permutation", "[topology][merge]") {
  // Random hint lists on 2-4 NUMA nodes: best_permutation (which crosses only the permutations that can
  // merge preferred, and all of them only when none does) against crossing every one.
  std::mt19937 rng(20261129);
  auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  const NumaExclusive exclusives[] = {NumaExclusive::none, NumaExclusive::preferred, NumaExclusive::required};
  int preferred_answers = 0;
  for (int round = 0; round < 3000; ++round) {
    const int nodes = 2 + pick(3);
    const NumaMask all = (NumaMask{1} << nodes) - 1;
    std::vector<std::vector<NumaHint>> lists(1 + pick(4));
    for (auto& list : lists) {
      const int hints = pick(6);
      for (int h = 0; h < hints; ++h) {
        NumaHint hint;
        hint.numa_nodes = pick(8) == 0 ? 0 : static_cast<NumaMask>(1 + pick(static_cast<int>(all)));
        hint.preferred = pick(3) != 0;
        hint.score = pick(3);
        hint.unsatisfied = pick(10) == 0;
        list.push_back(hint);
      }
    }
    std::vector<NumaNodeStatus> statuses;
    for (int n = 0; n < nodes; ++n) statuses.push_back(static_cast<NumaNodeStatus>(pick(3)));
    const NumaExclusive exclusive = exclusives[pick(3)];
    INFO("round " << round);
    const NumaHint reference = best_of_every_permutation(all, lists, exclusive, statuses);
    CHECK(best_permutation(all, lists, exclusive, statuses) == reference);
    if (reference.preferred) ++preferred_answers;
  }
  CHECK(preferred_answers > 500);  // the fast path was taken often
}

TEST_CASE("the merge of many NUMA nodes' hints stays cheap", "[topology][merge]") {
  // 8 NUMA nodes, 4 resources, every non-empty affinity a hint: 255^4 permutations if crossed.
  std::vector<std::vector<NumaHint>> lists(4);
  for (auto& list : lists)
    for (NumaMask m = 1; m < 256; ++m) list.push_back(NumaHint{m, mask_count(m) == 1, 0, false});
  const NumaHint preferred = best_permutation(255, lists, NumaExclusive::none, {});
  CHECK(preferred == NumaHint{1, true, 0, false});  // one NUMA node, the lowest
  // No single-node hint for the last resource: nothing merges preferred; too many to cross.
  lists[3].clear();
  for (NumaMask m = 1; m < 256; ++m)
    if (mask_count(m) > 1) lists[3].push_back(NumaHint{m, false, 0, false});
  CHECK(best_permutation(255, lists, NumaExclusive::none, {}) == NumaHint{255, false, 0, true});
  const MergeResult best_effort = merge_hints(NumaPolicy::best_effort, {0, 1, 2, 3, 4, 5, 6, 7},
                                              {NumaHints{{"a", lists[0]}, {"b", lists[1]}, {"c", lists[2]},
                                                         {"d", lists[3]}}},
                                              NumaExclusive::none, {});
  CHECK(best_effort.admit);
  CHECK(best_effort.hint == NumaHint{255, false, 0, false});
}

TEST_CASE("a node with more NUMA nodes than troupe aligns rejects a pod that needs alignment", "[topology][merge]") {
  std::vector<int> many(kMaxAlignedNumaNodes + 1);
  for (size_t i = 0; i < many.size(); ++i) many[i] = static_cast<int>(i);
  troupe::plugins::CycleState state(1);
  const auto pod = troupe::plugins::PodInfo::make(troupe::Pod{});
  const troupe::plugins::NodeInfo node = troupe::plugins::testing::NodeBuilder("n").info();
  NumaHint best;
  const auto status = admit({}, state, *pod, node, NumaPolicy::restricted, many, NumaExclusive::none, {}, best);
  CHECK(status.code == troupe::plugins::Code::unschedulable_and_unresolvable);
  CHECK(status.message() == kErrTooManyNumaNodes);
  // Without a policy there is nothing to align.
  CHECK(admit({}, state, *pod, node, NumaPolicy::none, many, NumaExclusive::none, {}, best).ok());
  many.pop_back();
  CHECK(admit({}, state, *pod, node, NumaPolicy::restricted, many, NumaExclusive::none, {}, best).ok());
}
