// The preemption search split over partitions: shares of the candidate
// budget, nominated-pod accounting, the merge of partition answers (must
// equal the single-partition choice), the plugin's PostFilter verdicts and
// DefaultPreemptionArgs with their errors.

#include <catch2/catch.hpp>

#include "../builders.hpp"
#include "plugins/default_preemption/default_preemption_plugin.hpp"
#include "plugins/default_preemption/nomination_book.hpp"
#include "plugins/default_preemption/partition_search.hpp"
#include "plugins/reservation/reservation_names.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::preemption;
using troupe::plugins::testing::NodeBuilder;
using troupe::plugins::testing::PodBuilder;

namespace {

const Timestamp kNow = *parse_timestamp("2026-06-01T00:00:00Z");

std::shared_ptr<const PodInfo> pod(std::string name, int32_t priority, const char* cpu,
                                   std::map<std::string, std::string> labels = {}) {
  Pod p = PodBuilder(name).priority(priority).container({{"cpu", cpu}}).pod();
  p.meta.uid = "uid-" + name;
  p.meta.labels = std::move(labels);
  return PodInfo::make(p);
}

PluginStatus cpu_fits_filter(const PodInfo& p, const NodeInfo& node) {
  if (node.requested().milli_cpu + p.requests.milli_cpu > node.allocatable().milli_cpu)
    return PluginStatus::unschedulable("Insufficient cpu");
  return {};
}
FilterOnlyDryRun cpu_fits{cpu_fits_filter};

NodeInfo node4(std::string name, std::vector<std::shared_ptr<const PodInfo>> pods) {
  return NodeBuilder(std::move(name)).allocatable({{"cpu", "4"}, {"pods", "10"}}).info(pods);
}

NodeStatuses insufficient(const std::vector<NodeInfo>& nodes) {
  NodeStatuses out;
  for (const auto& n : nodes) out.emplace_back(n.name(), PluginStatus::unschedulable("Insufficient cpu"));
  return out;
}

PartitionSearch search_of(int64_t total) {
  PartitionSearch s;
  s.options.victims.now = kNow;
  s.total_nodes = total;
  return s;
}

std::vector<std::string> names(const PodList& pods) {
  std::vector<std::string> out;
  for (const auto& p : pods) out.push_back(p->pod->meta.name);
  return out;
}

std::vector<NodeInfo> cluster() {
  return {node4("a", {pod("a1", 5, "4")}), node4("b", {pod("b1", 1, "2"), pod("b2", 3, "2")}),
          node4("c", {pod("c1", 2, "4")}), node4("d", {pod("d1", 1, "1"), pod("d2", 2, "3")})};
}

}  // namespace

TEST_CASE("a partition's share of minCandidateNodesAbsolute", "[preemption]") {
  struct Case {
    int32_t absolute;
    int64_t partition, total;
    int32_t share;
  };
  const std::vector<Case> cases = {
      {100, 50, 100, 50}, {100, 33, 100, 33}, {100, 1, 3, 34}, {100, 10, 10, 100}, {100, 10, 0, 100},
      {0, 5, 10, 0},      {1, 1, 1000, 1},    {7, 2, 4, 4},
  };
  for (const auto& c : cases) {
    INFO(c.absolute << " of " << c.partition << "/" << c.total);
    CHECK(absolute_share(c.absolute, c.partition, c.total) == c.share);
  }
}

TEST_CASE("a partition searches for its share of the cluster's candidates, not of its copies", "[preemption]") {
  // 200 full nodes, 20 of them with victims: n00..n09 a priority-500 pod,
  // n10..n19 a priority-10 one. Upstream wants max(10% of 200, 100) = 100
  // candidates: it searches all 20 and evicts a priority-10 pod.
  auto preemptor = pod("p", 1000, "2");
  std::vector<NodeInfo> copies;
  for (int i = 0; i < 20; ++i) {
    const std::string name = (i < 10 ? "n0" : "n1") + std::to_string(i % 10);
    copies.push_back(node4(name, {pod("v-" + name, i < 10 ? 500 : 10, "4")}));
  }
  PartitionSearch search = search_of(200);
  struct Case {
    const char* what;
    PartitionSize size;
    int32_t victim_priority;
  };
  const std::vector<Case> cases = {
      {"the whole cluster in one partition", {200, 200}, 10},
      {"half the cluster: 50 candidates wanted", {100, 100}, 10},
      {"a tenth: 10 wanted, found in n00..n09", {20, 20}, 500},
      {"sizes unknown: the copies' share (10)", {}, 500},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto answer = search_partition(*preemptor, copies, insufficient(copies), cpu_fits, {}, search, c.size);
    REQUIRE(answer.best);
    CHECK(answer.best->victims.pods.front()->priority == c.victim_priority);
  }
  // minCandidateNodesPercentage counts the potential nodes, victims or not:
  // a partition of 2000 of the cluster's 20000 nodes, 10% of which is 200,
  // above the absolute 100 shared out as 10.
  search = search_of(20000);
  auto wide = search_partition(*preemptor, copies, insufficient(copies), cpu_fits, {}, search, {2000, 2000});
  REQUIRE(wide.best);
  CHECK(wide.best->victims.pods.front()->priority == 10);
}

TEST_CASE("merging partition answers picks what one partition would pick", "[preemption]") {
  auto preemptor = pod("p", 10, "2");
  const auto all = cluster();
  // One partition holding every node.
  auto whole = search_partition(*preemptor, all, insufficient(all), cpu_fits, {}, search_of(4));
  REQUIRE(whole.best);
  struct Split {
    const char* what;
    std::vector<std::vector<size_t>> parts;
  };
  const std::vector<Split> splits = {
      {"one node each", {{0}, {1}, {2}, {3}}}, {"two and two", {{0, 1}, {2, 3}}}, {"reversed", {{3, 2}, {1, 0}}},
      {"uneven", {{2}, {0, 1, 3}}},           {"an empty partition", {{}, {0, 1, 2, 3}}},
  };
  for (const auto& split : splits) {
    INFO(split.what);
    std::vector<PartitionPreemption> answers;
    for (const auto& indices : split.parts) {
      std::vector<NodeInfo> nodes;
      for (size_t i : indices) nodes.push_back(all[i]);
      answers.push_back(search_partition(*preemptor, nodes, insufficient(nodes), cpu_fits, {}, search_of(4)));
    }
    MergedPreemption merged = merge_partition_preemptions(answers, 4, kNow);
    REQUIRE(merged.chosen);
    CHECK(merged.chosen->node == whole.best->node);
    CHECK(names(merged.chosen->victims.pods) == names(whole.best->victims.pods));
    CHECK(merged.message.empty());
  }
  // No ties (a tie goes to the first candidate, which depends on the split):
  // a and c lose a priority-5/2 pod, d its priority-2 d2 (d1 is reprieved),
  // b only b1 (priority 1): b wins on the highest victim priority.
  CHECK(whole.best->node == "b");
  CHECK(names(whole.best->victims.pods) == std::vector<std::string>{"b1"});
}

TEST_CASE("merge verdicts: violations last, ineligibility, failures counted over all partitions", "[preemption]") {
  auto victims = [](const char* name, int32_t priority, int64_t violations) {
    return Candidate{name, Victims{{pod(std::string("v-") + name, priority, "1")}, violations}};
  };
  PartitionPreemption violating{victims("x", 1, 1), {}, std::nullopt, {}, {}};
  PartitionPreemption clean{victims("y", 8, 0), {}, std::nullopt, {}, {}};
  PartitionPreemption none{std::nullopt, {{"z", PluginStatus::unresolvable(kNoVictimsFound)}}, std::nullopt, {}, {}};
  PartitionPreemption ineligible{std::nullopt, {}, std::string(kNotEligibleTerminating), {}, {}};
  struct Case {
    const char* what;
    std::vector<PartitionPreemption> parts;
    std::string chosen;
    bool keep_nomination;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"non-violating wins though later", {violating, clean}, "y", false, ""},
      {"violating when nothing else", {none, violating}, "x", false, ""},
      {"no candidate", {none, none}, "", false,
       "preemption: 0/3 nodes are available: 2 No preemption victims found for incoming pod."},
      {"ineligible anywhere stops it", {clean, ineligible}, "", true,
       "preemption: not eligible due to a terminating pod on the nominated node."},
      {"no partitions", {}, "", false, "preemption: 0/3 nodes are available:"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto merged = merge_partition_preemptions(c.parts, 3, kNow);
    CHECK((merged.chosen ? merged.chosen->node : std::string()) == c.chosen);
    CHECK(merged.keep_nomination == c.keep_nomination);
    if (!c.message.empty() || c.chosen.empty()) CHECK(merged.message == c.message);
  }
}

TEST_CASE("extenders: every candidate kept in upstream order, the choice made among what they leave",
          "[preemption]") {
  auto victims = [](const char* name, int32_t priority, int64_t violations) {
    return Candidate{name, Victims{{pod(std::string("v-") + name, priority, "1")}, violations}};
  };
  SECTION("keep_candidates: the search returns every candidate, non-violating first") {
    // a holds a priority-5 pod, b a priority-1 pod, c a priority-3 pod: all three are candidates.
    const std::vector<NodeInfo> all = {node4("a", {pod("a1", 5, "4")}), node4("b", {pod("b1", 1, "4")}),
                                       node4("c", {pod("c1", 3, "4")})};
    auto search = search_of(3);
    auto plain = search_partition(*pod("p", 10, "2"), all, insufficient(all), cpu_fits, {}, search);
    CHECK(plain.candidates.empty());
    search.options.keep_candidates = true;
    auto kept = search_partition(*pod("p", 10, "2"), all, insufficient(all), cpu_fits, {}, search);
    REQUIRE(kept.best);
    CHECK(kept.best->node == plain.best->node);
    std::vector<std::string> nodes;
    for (const auto& c : kept.candidates) nodes.push_back(c.node);
    CHECK(nodes == std::vector<std::string>{"a", "b", "c"});
  }
  SECTION("gather: non-violating candidates of every partition, then the violating ones") {
    PartitionPreemption first{victims("x", 1, 1), {}, std::nullopt, {}, {victims("w", 2, 0), victims("x", 1, 1)}};
    PartitionPreemption second{victims("y", 8, 0), {}, std::nullopt, {}, {victims("y", 8, 0), victims("z", 1, 2)}};
    std::vector<std::string> nodes;
    for (const auto& c : gather_candidates({first, second})) nodes.push_back(c.node);
    CHECK(nodes == std::vector<std::string>{"w", "y", "x", "z"});
  }
  SECTION("merge after extenders") {
    PartitionPreemption found{victims("y", 8, 0), {}, std::nullopt, {}, {victims("y", 8, 0), victims("x", 1, 0)}};
    PartitionPreemption none{std::nullopt, {{"z", PluginStatus::unresolvable(kNoVictimsFound)}}, std::nullopt, {}, {}};
    PartitionPreemption ineligible{std::nullopt, {}, std::string(kNotEligibleTerminating), {}, {}};
    struct Case {
      const char* what;
      std::vector<PartitionPreemption> parts;
      std::optional<std::vector<Candidate>> after;
      std::string chosen;
      bool keep_nomination;
      std::string message;
    };
    const std::vector<Case> cases = {
        {"the extender's subset decides", {found}, std::vector<Candidate>{victims("y", 8, 0)}, "y", false, ""},
        {"its victims count, not the search's", {found},
         std::vector<Candidate>{victims("y", 0, 0), victims("x", 4, 0)}, "y", false, ""},
        {"nothing left: no candidate, the nomination stays", {found}, std::vector<Candidate>{}, "", true,
         kNoCandidateAfterExtenders},
        {"no candidate before the extenders: the fit error, the nomination cleared", {none},
         std::vector<Candidate>{}, "", false,
         "preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod."},
        {"not eligible wins", {found, ineligible}, std::vector<Candidate>{victims("y", 8, 0)}, "", true,
         "preemption: not eligible due to a terminating pod on the nominated node."},
        {"no extender ran: the partitions' best", {found}, std::nullopt, "y", false, ""},
    };
    for (const auto& c : cases) {
      INFO(c.what);
      auto merged = merge_partition_preemptions(c.parts, 3, kNow, c.after);
      CHECK((merged.chosen ? merged.chosen->node : std::string()) == c.chosen);
      CHECK(merged.keep_nomination == c.keep_nomination);
      CHECK(merged.message == c.message);
    }
  }
}

TEST_CASE("nominated pods: lower-priority placeholders are ignored, others hold their room", "[preemption]") {
  auto preemptor = pod("p", 10, "2");
  auto low_nominee = pod("ln", 5, "2");
  auto high_nominee = pod("hn", 20, "2");
  const std::map<std::string, int32_t> nominated = {{"uid-ln", 5}, {"uid-hn", 20}};
  struct Case {
    const char* what;
    std::vector<std::shared_ptr<const PodInfo>> pods;
    bool may_have_victims;
    size_t dropped;
    std::vector<std::string> victims;  // empty: no candidate
  };
  const std::vector<Case> cases = {
      {"a lower nominee is neither room nor victim", {low_nominee, pod("v", 1, "2")}, true, 1, {}},
      {"a lower nominee alone: no victims", {low_nominee, pod("peer", 10, "2")}, false, 1, {}},
      {"a higher nominee keeps its room", {high_nominee, pod("v", 1, "2")}, true, 0, {"v"}},
      {"plain victims", {pod("v1", 1, "2"), pod("v2", 2, "2")}, true, 0, {"v1"}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    NodeInfo node = node4("n", c.pods);
    CHECK(may_have_victims(node, *preemptor, nominated, VictimOptions{true, kNow}) == c.may_have_victims);
    NodeInfo copy = node;
    CHECK(drop_lower_priority_nominations(copy, preemptor->priority, nominated) == c.dropped);
    PartitionSearch search = search_of(1);
    search.nominated = nominated;
    auto answer = search_partition(*preemptor, {node}, insufficient({node}), cpu_fits, {}, search);
    CHECK((answer.best ? names(answer.best->victims.pods) : std::vector<std::string>{}) == c.victims);
  }
  // The first case: with the nominee dropped, 2 cpu are free; nothing needs evicting.
  NodeInfo with_low = node4("n", {low_nominee, pod("v", 1, "2")});
  PartitionSearch search = search_of(1);
  search.nominated = nominated;
  auto answer = search_partition(*preemptor, {with_low}, insufficient({with_low}), cpu_fits, {}, search);
  CHECK_FALSE(answer.best);
  CHECK(answer.node_statuses.at("n").code == Code::error);
}

TEST_CASE("a preemptor whose victims are still on its nominated node waits", "[preemption]") {
  auto preemptor = pod("p", 10, "4");
  NodeInfo node = node4("n", {pod("v", 1, "4"), pod("w", 1, "0")});
  struct Case {
    const char* what;
    std::string nominated_node;
    std::set<std::string> pending;
    bool ineligible;
  };
  const std::vector<Case> cases = {
      {"victim still there", "n", {"uid-v"}, true},
      {"victims gone", "n", {"uid-gone"}, false},
      {"nominated elsewhere", "m", {"uid-v"}, false},
      {"no nomination", "", {}, false},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    PartitionSearch search = search_of(1);
    search.nominated_node = c.nominated_node;
    search.pending_victims = c.pending;
    CHECK(victims_remain(node, c.pending) == (c.pending.count("uid-v") > 0));
    auto answer = search_partition(*preemptor, {node}, insufficient({node}), cpu_fits, {}, search);
    CHECK(answer.ineligible.has_value() == c.ineligible);
  }
}

TEST_CASE("NominationBook: nominate, take, restore, set lower priorities aside", "[preemption]") {
  NominationBook book;
  auto a = pod("a", 5, "1");
  auto b = pod("b", 7, "1");
  auto c = pod("c", 9, "1");
  auto placeholder = book.nominate(*a, "n1", {"uid-x"});
  CHECK(placeholder->spec().node_name == "n1");
  CHECK(placeholder->requests.milli_cpu == a->requests.milli_cpu);
  CHECK(pod_identity(*placeholder) == "uid-a");
  CHECK(a->spec().node_name.empty());  // the queued pod itself is untouched
  book.nominate(*b, "n1", {});
  book.nominate(*c, "n2", {});
  CHECK(book.priorities() == std::map<std::string, int32_t>{{"uid-a", 5}, {"uid-b", 7}, {"uid-c", 9}});

  auto taken = book.take("uid-a");
  REQUIRE(taken);
  CHECK(taken->node == "n1");
  CHECK(taken->victims == std::set<std::string>{"uid-x"});
  CHECK_FALSE(book.take("uid-a"));
  book.restore("uid-a", *taken);
  CHECK(book.size() == 3);

  // A pod of priority 7 does not see a's nomination; b's (equal) and c's stay.
  auto lower = book.take_lower_priority(7);
  REQUIRE(lower.size() == 1);
  CHECK(pod_identity(*lower[0].placeholder) == "uid-a");
  CHECK(lower[0].node == "n1");
  CHECK(book.take_lower_priority(7).empty());  // taken once
  CHECK(book.take_lower_priority(5).empty());  // nothing below 5 is left
  auto both = book.take_lower_priority(10);  // on every node
  REQUIRE(both.size() == 2);
  CHECK(pod_identity(*both[0].placeholder) == "uid-b");
  CHECK(both[1].node == "n2");
  CHECK(book.empty());
  CHECK(book.find("uid-c") == nullptr);
}

TEST_CASE("DefaultPreemption PostFilter turns the merged search into a nomination", "[preemption]") {
  auto plugin = DefaultPreemption::make(YAML::Node());
  REQUIRE(plugin);
  const auto& dp = dynamic_cast<const DefaultPreemption&>(**plugin);
  auto preemptor = pod("p", 10, "2");
  CycleState state(1);
  SECTION("no search ran") {
    auto r = dp.post_filter(state, *preemptor, {});
    CHECK(r.status.code == Code::unschedulable);
    CHECK(r.message == DefaultPreemption::kSearchMissing);
  }
  SECTION("a candidate: nominated, victims readable") {
    const auto all = cluster();
    PreemptionSearchState search;
    search.partitions.push_back(search_partition(*preemptor, all, insufficient(all), cpu_fits, {}, search_of(4)));
    search.total_nodes = 4;
    search.now = kNow;
    dp.write_search(state, std::move(search));
    auto r = dp.post_filter(state, *preemptor, {});
    CHECK(r.status.ok());
    CHECK(r.nominated_node == std::optional<std::string>("b"));
    const Candidate* chosen = dp.chosen(state);
    REQUIRE(chosen != nullptr);
    CHECK(names(chosen->victims.pods) == std::vector<std::string>{"b1"});
  }
  SECTION("another plugin of the profile searched: nothing to add") {
    PreemptionSearchState elsewhere;
    elsewhere.searched_by = "Reservation";
    dp.write_search(state, elsewhere);
    auto r = dp.post_filter(state, *preemptor, {});
    CHECK(r.status.code == Code::unschedulable);
    CHECK(r.status.reasons.empty());
    CHECK_FALSE(r.nominated_node);
    CHECK(r.message.empty());
  }
  SECTION("no candidate clears, ineligible keeps") {
    PreemptionSearchState none;
    none.partitions.push_back({std::nullopt, {{"n", PluginStatus::unresolvable(kNoVictimsFound)}}, std::nullopt, {}, {}});
    none.total_nodes = 1;
    dp.write_search(state, none);
    auto r = dp.post_filter(state, *preemptor, {});
    CHECK(r.status.code == Code::unschedulable);
    CHECK(r.nominated_node == std::optional<std::string>(""));
    CHECK(r.message == "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.");
    PreemptionSearchState never;
    never.partitions.push_back({std::nullopt, {}, std::string(kNotEligiblePolicyNever), {}, {}});
    dp.write_search(state, never);
    auto kept = dp.post_filter(state, *preemptor, {});
    CHECK_FALSE(kept.nominated_node);
    CHECK(kept.message == "preemption: not eligible due to preemptionPolicy=Never.");
  }
  SECTION("extenders: nothing left keeps the nomination; a failure is an Error that keeps it") {
    const auto all = cluster();
    PreemptionSearchState search;
    auto options = search_of(4);
    options.options.keep_candidates = true;
    search.partitions.push_back(search_partition(*preemptor, all, insufficient(all), cpu_fits, {}, options));
    search.total_nodes = 4;
    search.now = kNow;
    REQUIRE(search.partitions[0].candidates.size() > 1);
    PreemptionSearchState narrowed = search;
    narrowed.after_extenders = std::vector<Candidate>{search.partitions[0].candidates.back()};
    dp.write_search(state, narrowed);
    auto chosen = dp.post_filter(state, *preemptor, {});
    CHECK(chosen.status.ok());
    CHECK(chosen.nominated_node == std::optional<std::string>(search.partitions[0].candidates.back().node));
    PreemptionSearchState emptied = search;
    emptied.after_extenders = std::vector<Candidate>{};
    dp.write_search(state, emptied);
    auto none = dp.post_filter(state, *preemptor, {});
    CHECK(none.status.code == Code::unschedulable);
    CHECK_FALSE(none.nominated_node);
    CHECK(none.message == kNoCandidateAfterExtenders);
    PreemptionSearchState failed = search;
    failed.extender_error = "failed preempt with extender at URL http://x/preempt, code 500";
    dp.write_search(state, failed);
    auto error = dp.post_filter(state, *preemptor, {});
    CHECK(error.status.code == Code::error);
    CHECK_FALSE(error.nominated_node);
    CHECK(error.message == "preemption: failed preempt with extender at URL http://x/preempt, code 500");
  }
}

TEST_CASE("DefaultPreemptionArgs: defaults, values and field-naming errors", "[preemption]") {
  struct Case {
    const char* yaml;
    int32_t percentage, absolute;
    const char* error;  // substring; nullptr = valid
  };
  const std::vector<Case> cases = {
      {"{}", 10, 100, nullptr},
      {"{minCandidateNodesPercentage: 50}", 50, 100, nullptr},
      {"{minCandidateNodesAbsolute: 0}", 10, 0, nullptr},
      {"{minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 3}", 0, 3, nullptr},
      {"{minCandidateNodesPercentage: 101}", 0, 0, "minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]"},
      {"{minCandidateNodesPercentage: -1}", 0, 0, "minCandidateNodesPercentage: Invalid value: -1"},
      {"{minCandidateNodesAbsolute: -5}", 0, 0, "minCandidateNodesAbsolute: Invalid value: -5: not in valid range [0, inf)"},
      {"{minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0}", 0, 0, "cannot be zero at the same time"},
      {"{minCandidateNodesPercentage: ten}", 0, 0, "minCandidateNodesPercentage"},
      {"{minCandidates: 3}", 0, 0, "minCandidates"},
  };
  for (const auto& c : cases) {
    INFO(c.yaml);
    auto plugin = DefaultPreemption::make(YAML::Load(c.yaml));
    if (c.error) {
      REQUIRE_FALSE(plugin);
      CHECK_THAT(plugin.message(), Catch::Contains(c.error));
      continue;
    }
    REQUIRE(plugin);
    const auto& args = dynamic_cast<const DefaultPreemption&>(**plugin).args();
    CHECK(args.min_candidate_nodes_percentage == c.percentage);
    CHECK(args.min_candidate_nodes_absolute == c.absolute);
  }
}

TEST_CASE("only victims already terminating hold their nominated preemptor back", "[preemption]") {
  ClusterPods cluster;
  cluster.upsert_node(std::make_shared<const Node>(NodeBuilder("n").node()));
  Pod deleted = PodBuilder("deleted").priority(1).container({{"cpu", "1"}}).pod();
  deleted.meta.deletion_timestamp = kNow;
  auto terminating = PodInfo::make(deleted);
  auto refused = pod("refused", 1, "1");  // its DELETE failed: still running
  cluster.add_pod(terminating, "n");
  cluster.add_pod(refused, "n");
  const std::string a(pod_identity(*terminating)), b(pod_identity(*refused));
  const std::set<std::string> victims = {a, b, "already-gone"};
  struct Case {
    const char* what;
    std::string node;
    std::set<std::string> victims;
    std::set<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"the terminating one only", "n", victims, {a}},
      {"a victim that failed to go alone: none", "n", {b}, {}},
      {"another node: none", "m", victims, {}},
      {"no victims", "n", {}, {}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(terminating_victims(cluster, c.node, c.victims) == c.expected);
  }
}
