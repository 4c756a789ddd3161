// The Reservation plugin's PostFilter: with ReservationArgs.enablePreemption
// it preempts with its own candidate counts; when nothing is nominated it
// adds the "N Reservation(s) ..." reasons the cycle's diagnosis gives.

#include <catch2/catch.hpp>

#include "../builders.hpp"
#include "plugins/reservation/reservation_diagnosis.hpp"
#include "plugins/reservation/reservation_plugin.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::reservation;
using troupe::plugins::testing::PodBuilder;

namespace {

ReservationPlugin plugin_with(bool enable_preemption, int32_t percentage = 10, int32_t absolute = 100) {
  ReservationArgs args;
  args.enable_preemption = enable_preemption;
  args.min_candidate_nodes_percentage = percentage;
  args.min_candidate_nodes_absolute = absolute;
  return ReservationPlugin(args);
}

/// Two owned reservations: one outside the pod's affinity.
void share_diagnosis(CycleState& state) {
  auto diagnosis = std::make_shared<ReservationDiagnosis>();
  diagnosis->nodes["n1"].owner_matched = 2;
  diagnosis->nodes["n1"].affinity_unmatched = 1;
  diagnosis->has_affinity = true;
  state.share_input(std::shared_ptr<const ReservationDiagnosis>(std::move(diagnosis)), 1, false);
}

preemption::PreemptionSearchState no_victims_on_one_node() {
  preemption::PreemptionSearchState search;
  search.partitions.push_back(
      {std::nullopt, {{"n1", PluginStatus::unresolvable(preemption::kNoVictimsFound)}}, std::nullopt, {}, {}});
  search.total_nodes = 1;
  return search;
}

}  // namespace

TEST_CASE("ReservationArgs give the preemption's candidate counts", "[reservation][preemption]") {
  CHECK_FALSE(plugin_with(false).preempts());
  const ReservationPlugin plugin = plugin_with(true, 30, 7);
  CHECK(plugin.preempts());
  const Timestamp now = *parse_timestamp("2026-06-01T00:00:00Z");
  const auto options = plugin.options(now);
  CHECK(options.min_candidate_nodes_percentage == 30);
  CHECK(options.min_candidate_nodes_absolute == 7);
  CHECK(options.victims.now == now);
  CHECK(options.victims.respect_disable_preemptible);
  CHECK(preemption::num_candidates(1000, options) == 300);
  CHECK(preemption::num_candidates(10, options) == 7);
}

TEST_CASE("Reservation PostFilter: preemption first, then the reservations' reasons", "[reservation][preemption]") {
  auto pod = PodInfo::make(PodBuilder("p").container({{"cpu", "1"}}).pod());

  struct Case {
    const char* what;
    bool enable_preemption;
    bool diagnosed;
    std::optional<preemption::PreemptionSearchState> search;
    Code code;
    std::vector<std::string> reasons;
    std::optional<std::string> nominated;
  };
  preemption::PreemptionSearchState elsewhere;
  elsewhere.searched_by = "DefaultPreemption";
  preemption::PreemptionSearchState failed_extender = no_victims_on_one_node();
  failed_extender.extender_error = "extender x: connection refused";
  const std::string no_victims = "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.";
  const std::vector<std::string> diagnosis = {"1 Reservation(s) didn't match affinity rules",
                                              "2 Reservation(s) matched owner total"};
  const std::vector<Case> cases = {
      {"no preemption, no diagnosis: nothing to say", false, false, std::nullopt, Code::unschedulable, {}, std::nullopt},
      {"no preemption: the diagnosis", false, true, std::nullopt, Code::unschedulable, diagnosis, std::nullopt},
      {"no preemption: a search in the slot is not read", false, true, no_victims_on_one_node(), Code::unschedulable,
       diagnosis, std::nullopt},
      {"preemption found no candidate: its reason, then the diagnosis; the nomination cleared", true, true,
       no_victims_on_one_node(), Code::unschedulable, {no_victims, diagnosis[0], diagnosis[1]}, std::string()},
      {"another plugin searched: only the diagnosis", true, true, elsewhere, Code::unschedulable, diagnosis,
       std::nullopt},
      {"an extender failed: the error alone", true, true, failed_extender, Code::error,
       {"preemption: extender x: connection refused"}, std::nullopt},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CycleState cycle(1);
    const ReservationPlugin plugin = plugin_with(c.enable_preemption);
    if (c.diagnosed) share_diagnosis(cycle);
    if (c.search) plugin.write_search(cycle, *c.search);
    PostFilterResult r = plugin.post_filter(cycle, *pod, {});
    CHECK(r.status.code == c.code);
    CHECK(r.status.reasons == c.reasons);
    CHECK(r.nominated_node == c.nominated);
    CHECK(r.message == r.status.message());
  }
}

TEST_CASE("Reservation PostFilter nominates the node preemption chose", "[reservation][preemption]") {
  auto pod = PodInfo::make(PodBuilder("p").container({{"cpu", "1"}}).pod());
  auto victim = PodInfo::make(PodBuilder("v").container({{"cpu", "1"}}).pod());
  const ReservationPlugin plugin = plugin_with(true);
  CycleState state(1);
  share_diagnosis(state);
  preemption::PreemptionSearchState search;
  preemption::PartitionPreemption partition;
  partition.best = preemption::Candidate{"n1", {{victim}, 0}};
  search.partitions.push_back(partition);
  search.total_nodes = 1;
  plugin.write_search(state, search);
  PostFilterResult r = plugin.post_filter(state, *pod, {});
  CHECK(r.status.ok());
  CHECK(r.nominated_node == std::optional<std::string>("n1"));
  REQUIRE(plugin.chosen(state) != nullptr);
  CHECK(plugin.chosen(state)->victims.pods.size() == 1);
}

TEST_CASE("Reservation PostFilter reasons, table-driven", "[reservation]") {
  struct Case {
    const char* what;
    MatchDiagnosis counts;
    bool has_affinity;
    std::vector<std::string> reasons;
  };
  auto counts = [](int owner, int name_matched, int name_unmatched, int affinity, int unschedulable, int not_exact,
                   std::map<std::string, int> taints) {
    MatchDiagnosis d;
    d.owner_matched = owner;
    d.name_matched = name_matched;
    d.name_unmatched = name_unmatched;
    d.affinity_unmatched = affinity;
    d.unschedulable = unschedulable;
    d.not_exact_matched = not_exact;
    for (const auto& [taint, n] : taints) d.taints_unmatched += n;
    d.taint_reasons = std::move(taints);
    return d;
  };
  const std::vector<Case> cases = {
      {"nothing owned, no affinity: silent", counts(0, 0, 0, 0, 0, 0, {}), false, {}},
      {"ignored ones do not count", [] { MatchDiagnosis d; d.ignored = 3; return d; }(), false, {}},
      {"nothing owned, with affinity: the total", counts(0, 0, 0, 0, 0, 0, {}), true,
       {"0 Reservation(s) matched owner total"}},
      {"owned and usable: the total", counts(2, 0, 0, 0, 0, 0, {}), false, {"2 Reservation(s) matched owner total"}},
      {"every reason, in upstream's order; taints sorted", counts(12, 1, 2, 3, 1, 2, {{"{b: 2}", 1}, {"{a: 1}", 2}}),
       true,
       {"1 Reservation(s) exactly matches the requested reservation name",
        "2 Reservation(s) didn't match the requested reservation name", "3 Reservation(s) didn't match affinity rules",
        "1 Reservation(s) is unschedulable", "2 Reservation(s) is not exact matched",
        "2 Reservation(s) had untolerated taint {a: 1}", "1 Reservation(s) had untolerated taint {b: 2}",
        "12 Reservation(s) matched owner total"}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    ReservationDiagnosis diagnosis;
    diagnosis.nodes["n1"] = c.counts;
    diagnosis.has_affinity = c.has_affinity;
    CHECK(post_filter_reasons(diagnosis) == c.reasons);
  }
}

TEST_CASE("Reservation PostFilter reasons: the nodes' own rejections, table-driven", "[reservation]") {
  auto owned = [](int owner, int ruled_out = 0) {
    MatchDiagnosis d;
    d.owner_matched = owner;
    d.affinity_unmatched = ruled_out;
    return d;
  };
  struct Case {
    const char* what;
    std::map<std::string, MatchDiagnosis> nodes;
    std::map<std::string, std::vector<std::string>> node_reasons;
    std::vector<std::string> reasons;
  };
  const std::vector<Case> cases = {
      {"a node that was not rejected says nothing", {{"n1", owned(2)}}, {}, {"2 Reservation(s) matched owner total"}},
      {"each usable reservation counts each reason of its node",
       {{"n1", owned(2)}},
       {{"n1", {"Insufficient cpu", "Insufficient memory"}}},
       {"2 Reservation(s) for node reason that Insufficient cpu",
        "2 Reservation(s) for node reason that Insufficient memory", "2 Reservation(s) matched owner total"}},
      {"the ruled-out ones do not count", {{"n1", owned(3, 2)}}, {{"n1", {"Insufficient cpu"}}},
       {"2 Reservation(s) didn't match affinity rules", "1 Reservation(s) for node reason that Insufficient cpu",
        "3 Reservation(s) matched owner total"}},
      {"nothing usable left: no node reason", {{"n1", owned(1, 1)}}, {{"n1", {"Insufficient cpu"}}},
       {"1 Reservation(s) didn't match affinity rules", "1 Reservation(s) matched owner total"}},
      {"a reservation-level reason takes one off; the others keep the node reasons",
       {{"n1", owned(2)}},
       {{"n1", {"Insufficient cpu by node", "Reservation(s) Insufficient cpu"}}},
       {"1 Reservation(s) for node reason that Insufficient cpu by node", "2 Reservation(s) matched owner total"}},
      {"reservation-level reasons for all: nothing else",
       {{"n1", owned(1)}},
       {{"n1", {"Insufficient cpu by node", "Reservation(s) Insufficient cpu"}}},
       {"1 Reservation(s) matched owner total"}},
      {"summed over nodes, sorted by reason",
       {{"n1", owned(1)}, {"n2", owned(2)}, {"n3", owned(1)}},
       {{"n1", {"node(s) had untolerated taint {x: y}"}}, {"n2", {"Insufficient cpu"}}, {"n3", {"Insufficient cpu"}}},
       {"3 Reservation(s) for node reason that Insufficient cpu",
        "1 Reservation(s) for node reason that node(s) had untolerated taint {x: y}",
        "4 Reservation(s) matched owner total"}},
      {"reasons of a node without owned reservations are ignored", {{"n1", owned(0)}}, {{"n1", {"Insufficient cpu"}}},
       {}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    ReservationDiagnosis diagnosis;
    diagnosis.nodes = c.nodes;
    diagnosis.node_reasons = c.node_reasons;
    CHECK(post_filter_reasons(diagnosis) == c.reasons);
  }
}
