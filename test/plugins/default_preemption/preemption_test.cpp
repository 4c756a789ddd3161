// Preemption core against kube-scheduler's defaultpreemption and
// framework/preemption rules; expected victims and choices worked out by hand.

#include <catch2/catch.hpp>

#include "../builders.hpp"
#include "plugins/default_preemption/partition_search.hpp"
#include "plugins/default_preemption/preemption.hpp"
#include "plugins/reservation/reservation_names.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::preemption;
using troupe::plugins::testing::NodeBuilder;
using troupe::plugins::testing::PodBuilder;

namespace {

const Timestamp kNow = *parse_timestamp("2026-06-01T00:00:00Z");

std::shared_ptr<const PodInfo> pod(std::string name, int32_t priority, const char* cpu,
                                   std::map<std::string, std::string> labels = {}, const char* started = nullptr) {
  Pod p = PodBuilder(std::move(name)).priority(priority).container({{"cpu", cpu}}).pod();
  p.meta.labels = std::move(labels);
  if (started) p.status.start_time = *parse_timestamp(started);
  return PodInfo::make(p);
}

/// The only filter: cpu must fit.
PluginStatus cpu_fits_filter(const PodInfo& p, const NodeInfo& node) {
  if (node.requested().milli_cpu + p.requests.milli_cpu > node.allocatable().milli_cpu)
    return PluginStatus::unschedulable("Insufficient cpu");
  return {};
}
FilterOnlyDryRun cpu_fits{cpu_fits_filter};

NodeInfo node4(std::string name, std::vector<std::shared_ptr<const PodInfo>> pods) {
  return NodeBuilder(std::move(name)).allocatable({{"cpu", "4"}, {"pods", "10"}}).info(pods);
}

PodDisruptionBudget pdb(const char* selector, int32_t allowed, std::string ns = "default") {
  PodDisruptionBudget b;
  b.meta.name = "pdb";
  b.meta.namespace_name = std::move(ns);
  if (selector) b.spec.selector = *parse_label_selector(selector);
  b.status.disruptions_allowed = allowed;
  return b;
}

/// A Reservation's reserve pod (annotated as make_reserve_pod does).
std::shared_ptr<const PodInfo> reserve_pod(std::string name, int32_t priority, const char* cpu) {
  Pod p = PodBuilder(std::move(name)).priority(priority).container({{"cpu", cpu}}).pod();
  p.meta.annotations[reservation::kAnnotationReservePod] = "true";
  return PodInfo::make(p);
}

std::vector<std::string> names(const PodList& pods) {
  std::vector<std::string> out;
  for (const auto& p : pods) out.push_back(p->pod->meta.name);
  return out;
}

}  // namespace

TEST_CASE("PDB violation split", "[preemption]") {
  PodList pods = {pod("a", 1, "1", {{"app", "web"}}), pod("b", 1, "1", {{"app", "web"}}), pod("c", 1, "1")};
  struct Case {
    const char* what;
    std::vector<PodDisruptionBudget> pdbs;
    std::vector<std::string> violating;
  };
  PodDisruptionBudget disrupted = pdb("app=web", 0);
  disrupted.status.disrupted_pods["a"] = kNow;
  const std::vector<Case> cases = {
      {"no budgets", {}, {}},
      {"budget of 2", {pdb("app=web", 2)}, {}},
      {"budget of 1: the second violates", {pdb("app=web", 1)}, {"b"}},
      {"budget of 0: both violate", {pdb("app=web", 0)}, {"a", "b"}},
      {"nil selector matches nothing", {pdb(nullptr, 0)}, {}},
      {"empty selector matches nothing", {pdb("", 0)}, {}},
      {"other namespace", {pdb("app=web", 0, "prod")}, {}},
      {"already disrupted pods are not counted", {disrupted}, {"b"}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    PdbSplit split = filter_pods_with_pdb_violation(pods, c.pdbs);
    CHECK(names(split.violating) == c.violating);
    CHECK(split.violating.size() + split.non_violating.size() == 3);
  }
}

TEST_CASE("victims on a node: remove lower priority, reprieve the most important first", "[preemption]") {
  auto preemptor = pod("p", 10, "2");
  struct Case {
    const char* what;
    std::vector<std::shared_ptr<const PodInfo>> pods;
    std::vector<PodDisruptionBudget> pdbs;
    Code code;
    std::vector<std::string> victims;
    int64_t violations;
  };
  const std::vector<Case> cases = {
      {"the lower of two goes", {pod("a", 1, "2"), pod("b", 2, "2")}, {}, Code::success, {"a"}, 0},
      {"a PDB-protected pod is reprieved first", {pod("a", 1, "2", {{"app", "x"}}), pod("b", 2, "2")},
       {pdb("app=x", 0)}, Code::success, {"b"}, 0},
      {"a violating victim is counted", {pod("a", 1, "3", {{"app", "x"}}), pod("b", 2, "1", {{"app", "x"}})},
       {pdb("app=x", 0)}, Code::success, {"a"}, 1},
      {"violating and not: the victims sorted by priority again",
       {pod("v", 1, "3", {{"app", "x"}}), pod("w", 5, "3")}, {pdb("app=x", 0)}, Code::success, {"w", "v"}, 1},
      {"equal priority: the later started goes",
       {pod("old", 1, "2", {}, "2026-01-01T00:00:00Z"), pod("new", 1, "2", {}, "2026-05-01T00:00:00Z")}, {},
       Code::success, {"new"}, 0},
      {"non-preemptible pods stay", {pod("a", 1, "2", {{reservation::kLabelDisablePreemptible, "true"}}), pod("b", 2, "2")},
       {}, Code::success, {"b"}, 0},
      {"nothing lower", {pod("a", 10, "2"), pod("b", 20, "1")}, {}, Code::unschedulable_and_unresolvable, {}, 0},
      {"an Available reservation is not a victim", {reserve_pod("r", 1, "2"), pod("b", 2, "2")}, {}, Code::success,
       {"b"}, 0},
      {"only a reservation lower: no victims", {reserve_pod("r", 1, "2"), pod("b", 20, "2")}, {},
       Code::unschedulable_and_unresolvable, {}, 0},
      {"still too big", {pod("a", 1, "1"), pod("big", 50, "3")}, {}, Code::unschedulable, {}, 0},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    NodeInfo node = node4("n", c.pods);
    VictimSelection s = select_victims_on_node(*preemptor, node, cpu_fits, c.pdbs, VictimOptions{true, kNow});
    CHECK(s.status.code == c.code);
    CHECK(names(s.victims.pods) == c.victims);
    CHECK(s.victims.num_pdb_violations == c.violations);
  }
  NodeInfo none = node4("n", {pod("a", 20, "2")});
  CHECK(select_victims_on_node(*preemptor, none, cpu_fits, {}, {}).status.reasons ==
        std::vector<std::string>{"No preemption victims found for incoming pod"});
  NodeInfo ignoring = node4("n", {pod("a", 1, "2", {{reservation::kLabelDisablePreemptible, "true"}}), pod("b", 2, "2")});
  CHECK(names(select_victims_on_node(*preemptor, ignoring, cpu_fits, {}, VictimOptions{false, kNow}).victims.pods) ==
        std::vector<std::string>{"a"});
}

namespace {

/// A dry run whose filter also reads PreFilter-like data: pods labelled
/// "blocks" counted when the node starts (as anti-affinity counts pods), kept
/// up to date only through pod_removed / pod_added.
class CountingDryRun final : public DryRun {
 public:
  explicit CountingDryRun(int blocking_at_start, std::string failing = "")
      : at_start_(blocking_at_start), failing_(std::move(failing)) {}
  void start_node() override {
    ++starts;
    blocking_ = at_start_;
  }
  PluginStatus filter(const PodInfo& preemptor, const NodeInfo& node) const override {
    if (blocking_ > 0) return PluginStatus::unschedulable("blocked");
    return cpu_fits_filter(preemptor, node);
  }
  PluginStatus pod_removed(const PodInfo&, const PodInfo& pod, const NodeInfo&) override {
    if (pod.meta().name == failing_) return PluginStatus::internal_error("cannot remove " + failing_);
    if (pod.meta().labels.count("blocks") > 0) --blocking_;
    return {};
  }
  PluginStatus pod_added(const PodInfo&, const PodInfo& pod, const NodeInfo&) override {
    if (pod.meta().labels.count("blocks") > 0) ++blocking_;
    return {};
  }
  int starts = 0;

 private:
  int at_start_;
  int blocking_ = 0;
  std::string failing_;
};

}  // namespace

TEST_CASE("select_victims_on_node tells the dry run every removal and reprieve", "[preemption]") {
  auto preemptor = pod("high", 100, "1");
  const std::map<std::string, std::string> blocks = {{"blocks", ""}};
  struct Case {
    const char* what;
    std::vector<std::shared_ptr<const PodInfo>> pods;
    int blocking;
    std::string failing;
    Code code;
    std::vector<std::string> victims;
  };
  const std::vector<Case> cases = {
      {"only the blocking pod goes, though cpu would fit with both",
       {pod("blocker", 5, "1", blocks), pod("other", 1, "1")}, 1, "", Code::success, {"blocker"}},
      {"two blocking pods both go; the cheaper pod stays",
       {pod("b1", 5, "1", blocks), pod("b2", 5, "1", blocks), pod("other", 1, "1")}, 2, "", Code::success,
       {"b1", "b2"}},
      {"a blocking pod that may not be evicted keeps the node closed",
       {pod("blocker", 500, "1", blocks), pod("other", 1, "1")}, 1, "", Code::unschedulable, {}},
      {"a failing removal is the node's status", {pod("blocker", 5, "1", blocks)}, 1, "blocker", Code::error, {}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    NodeInfo node = node4("n", c.pods);
    CountingDryRun dry_run(c.blocking, c.failing);
    VictimSelection s = select_victims_on_node(*preemptor, node, dry_run, {}, VictimOptions{true, kNow});
    CHECK(dry_run.starts == 1);
    CHECK(to_string(s.status.code) == to_string(c.code));
    CHECK(names(s.victims.pods) == c.victims);
  }
}

TEST_CASE("candidate ordering: kube-scheduler's tie-breakers in turn", "[preemption]") {
  auto victims = [](std::vector<std::shared_ptr<const PodInfo>> pods, int64_t violations = 0) {
    return Victims{std::move(pods), violations};
  };
  struct Case {
    const char* what;
    std::vector<Candidate> candidates;
    std::string chosen;
  };
  const std::vector<Case> cases = {
      {"fewer PDB violations", {{"a", victims({pod("x", 1, "1")}, 1)}, {"b", victims({pod("y", 5, "1")}, 0)}}, "b"},
      {"lower highest priority", {{"a", victims({pod("x", 5, "1")})}, {"b", victims({pod("y", 3, "1"), pod("z", 3, "1")})}},
       "b"},
      {"smaller priority sum", {{"a", victims({pod("x", 3, "1"), pod("y", 2, "1")})}, {"b", victims({pod("z", 3, "1"), pod("w", 1, "1")})}},
       "b"},
      {"negative priorities still add up",
       {{"a", victims({pod("x", -5, "1"), pod("y", -5, "1")})}, {"b", victims({pod("z", -5, "1")})}}, "b"},
      {"fewer victims (same sum impossible otherwise)",
       {{"a", victims({pod("x", 0, "1"), pod("y", 0, "1")})}, {"b", victims({pod("z", 0, "1")})}}, "b"},
      {"latest start of highest-priority victims",
       {{"a", victims({pod("x", 2, "1", {}, "2026-05-01T00:00:00Z")})},
        {"b", victims({pod("y", 2, "1", {}, "2026-05-02T00:00:00Z")})}},
       "b"},
      {"full tie: the first", {{"a", victims({pod("x", 2, "1", {}, "2026-05-01T00:00:00Z")})},
                               {"b", victims({pod("y", 2, "1", {}, "2026-05-01T00:00:00Z")})}},
       "a"},
      {"single", {{"only", victims({pod("x", 9, "1")}, 3)}}, "only"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto chosen = pick_one_node_for_preemption(c.candidates, kNow);
    REQUIRE(chosen);
    CHECK(c.candidates[*chosen].node == c.chosen);
  }
  CHECK_FALSE(pick_one_node_for_preemption({}, kNow));
  Victims mixed = victims({pod("low", 1, "1", {}, "2026-01-01T00:00:00Z"), pod("hi", 3, "1", {}, "2026-03-01T00:00:00Z"),
                           pod("hi2", 3, "1", {}, "2026-02-01T00:00:00Z")});
  CHECK(*earliest_start_of_highest_priority(mixed, kNow) == *parse_timestamp("2026-02-01T00:00:00Z"));
  CHECK(*earliest_start_of_highest_priority(victims({pod("unstarted", 1, "1")}), kNow) == kNow);
}

TEST_CASE("preempt: eligibility, unhelpful nodes, choice and messages", "[preemption]") {
  auto preemptor = pod("p", 10, "2");
  std::vector<NodeInfo> nodes = {node4("n1", {pod("a", 1, "3")}), node4("n2", {pod("b", 5, "3")}),
                                 node4("n3", {pod("c", 20, "3")})};
  NodeStatuses statuses = {{"n1", PluginStatus::unschedulable("Insufficient cpu")},
                           {"n2", PluginStatus::unschedulable("Insufficient cpu")},
                           {"n3", PluginStatus::unschedulable("Insufficient cpu")}};
  PreemptionResult ok = preempt(*preemptor, nodes, statuses, cpu_fits, {}, PreemptionOptions{10, 100, 0, {true, kNow}});
  REQUIRE(ok.status.ok());
  REQUIRE(ok.chosen);
  CHECK(ok.chosen->node == "n1");
  CHECK(names(ok.chosen->victims.pods) == std::vector<std::string>{"a"});
  CHECK(ok.node_statuses.at("n3").reasons == std::vector<std::string>{kNoVictimsFound});

  Pod never = preemptor->pod ? *preemptor->pod : Pod{};
  never.spec.preemption_policy = PreemptionPolicy::never;
  PreemptionResult refused = preempt(*PodInfo::make(never), nodes, statuses, cpu_fits, {}, {});
  CHECK(refused.status.code == Code::unschedulable);
  CHECK(refused.message == "preemption: not eligible due to preemptionPolicy=Never.");

  NodeStatuses unresolvable = {{"n1", PluginStatus::unresolvable("node(s) didn't match Pod's node affinity/selector")},
                               {"n2", PluginStatus::unschedulable("Insufficient cpu")}};
  std::vector<NodeInfo> two = {node4("n1", {pod("a", 1, "3")}), node4("n2", {pod("b", 50, "3")})};
  PreemptionResult failed = preempt(*preemptor, two, unresolvable, cpu_fits, {}, {});
  CHECK(failed.status.code == Code::unschedulable);
  CHECK(failed.message ==
        "preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not "
        "helpful for scheduling.");

  // A lower-priority pod terminating by preemption on the nominated node: wait for it.
  Pod nominated = *preemptor->pod;
  nominated.status.nominated_node_name = "n1";
  Pod leaving = PodBuilder("leaving").priority(1).container({{"cpu", "1"}}).pod();
  leaving.meta.deletion_timestamp = kNow;
  Condition disruption;
  disruption.type = "DisruptionTarget";
  disruption.status = "True";
  disruption.reason = "PreemptionByScheduler";
  leaving.status.conditions.push_back(disruption);
  std::vector<NodeInfo> waiting = {node4("n1", {PodInfo::make(leaving)})};
  CHECK(ineligibility_reason(*PodInfo::make(nominated), waiting, statuses) ==
        std::optional<std::string>(kNotEligibleTerminating));
  NodeStatuses nominated_unresolvable = {{"n1", PluginStatus::unresolvable("x")}};
  CHECK_FALSE(ineligibility_reason(*PodInfo::make(nominated), waiting, nominated_unresolvable));
}

TEST_CASE("preempt: candidate count and round-robin offset", "[preemption]") {
  struct Case {
    int64_t nodes;
    int32_t percentage, absolute;
    int64_t expected;
  };
  for (const Case& c : {Case{1000, 10, 100, 100}, Case{5000, 10, 100, 500}, Case{50, 10, 100, 50}, Case{50, 0, 3, 3},
                        Case{50, 100, 0, 50}}) {
    PreemptionOptions options;
    options.min_candidate_nodes_percentage = c.percentage;
    options.min_candidate_nodes_absolute = c.absolute;
    CHECK(num_candidates(c.nodes, options) == c.expected);
  }
  // One candidate wanted: the search stops at the first non-violating node from the offset.
  auto preemptor = pod("p", 10, "2");
  std::vector<NodeInfo> nodes = {node4("n1", {pod("a", 1, "3")}), node4("n2", {pod("b", 0, "3")})};
  PreemptionOptions one{0, 1, 0, {true, kNow}};
  CHECK(preempt(*preemptor, nodes, {}, cpu_fits, {}, one).chosen->node == "n1");
  one.offset = 1;
  CHECK(preempt(*preemptor, nodes, {}, cpu_fits, {}, one).chosen->node == "n2");
  one.min_candidate_nodes_absolute = 2;
  CHECK(preempt(*preemptor, nodes, {}, cpu_fits, {}, one).chosen->node == "n2");  // lower priority victim
}

TEST_CASE("a reservation preempts only with ReservationArgs.enablePreemption", "[preemption]") {
  std::vector<NodeInfo> nodes = {node4("n1", {pod("low", 1, "3")}),
                                 node4("n2", {pod("pinned", 1, "3", {{reservation::kLabelDisablePreemptible, "true"}})})};
  NodeStatuses statuses = {{"n1", PluginStatus::unschedulable("Insufficient cpu")},
                           {"n2", PluginStatus::unschedulable("Insufficient cpu")}};
  Pod never = *reserve_pod("never", 10, "2")->pod;
  never.spec.preemption_policy = PreemptionPolicy::never;
  struct Case {
    const char* what;
    std::shared_ptr<const PodInfo> preemptor;
    bool reserve_pods_preempt;
    std::optional<std::string> ineligible;
    std::vector<std::string> victims;  // of the chosen node when eligible
  };
  const std::vector<Case> cases = {
      {"a reserve pod without enablePreemption", reserve_pod("r", 10, "2"), false, kNotEligibleReservation, {}},
      {"a reserve pod with enablePreemption evicts low, not pinned", reserve_pod("r", 10, "2"), true, std::nullopt,
       {"low"}},
      {"preemptionPolicy Never wins over enablePreemption", PodInfo::make(never), true, kNotEligiblePolicyNever, {}},
      {"a pod ignores the option", pod("p", 10, "2"), false, std::nullopt, {"low"}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(ineligibility_reason(*c.preemptor, nodes, statuses, c.reserve_pods_preempt) == c.ineligible);
    PreemptionOptions options{10, 100, 0, {true, kNow}};
    options.reserve_pods_preempt = c.reserve_pods_preempt;
    PreemptionResult result = preempt(*c.preemptor, nodes, statuses, cpu_fits, {}, options);
    if (c.ineligible) {
      CHECK(result.message == "preemption: " + *c.ineligible);
      CHECK_FALSE(result.chosen);
      continue;
    }
    REQUIRE(result.chosen);
    CHECK(result.chosen->node == "n1");
    CHECK(names(result.chosen->victims.pods) == c.victims);
  }
  // A reserve pod of lower priority than the preemptor only looks like a victim.
  CHECK_FALSE(may_be_victim(*reserve_pod("r", 1, "1"), *pod("p", 10, "1"), VictimOptions{true, kNow}));
  CHECK(may_be_victim(*pod("q", 1, "1"), *reserve_pod("r", 10, "1"), VictimOptions{true, kNow}));
  // ... so a node holding only a lower reservation is not copied for the search.
  CHECK_FALSE(may_have_victims(node4("n", {reserve_pod("r", 1, "4")}), *pod("p", 10, "2"), {}, VictimOptions{true, kNow}));
}
