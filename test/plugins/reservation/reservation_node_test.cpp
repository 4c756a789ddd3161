// NodeReservations bookkeeping, matching, the transformer, fit, score and
// the plugin's flow. Expected amounts are worked out by hand from
// Koordinator's transformer.go / plugin.go / scoring.go formulas.

#include <catch2/catch.hpp>

#include "plugins/reservation/cluster_reservations.hpp"
#include "plugins/reservation/pod_annotations.hpp"
#include "plugins/reservation/reservation_fit.hpp"
#include "plugins/reservation/reservation_plugin.hpp"
#include "plugins/reservation/reservation_score.hpp"
#include "plugins/reservation/reserve_pod.hpp"
#include "reservation_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::reservation;
using namespace troupe::plugins::reservation::testing;

namespace {

std::string allocated_to(const std::string& name) {
  return encode_reservation_allocated({name, "ruid-" + name});
}

std::shared_ptr<const PodInfo> owner_of(const std::string& reservation, std::string name, const Amounts& requests) {
  return PodInfo::make(with_annotation(owner_pod(std::move(name), requests).pod(), kAnnotationReservationAllocated,
                                       allocated_to(reservation)));
}

/// Node n (10 cpu, 20Gi, 10 pods) with the reservations' reserve pods and `pods` accounted.
NodeInfo node_with(const std::vector<ReservationBuilder>& reservations,
                   const std::vector<std::shared_ptr<const PodInfo>>& pods) {
  NodeInfo node = NodeBuilder("n").allocatable({{"cpu", "10"}, {"memory", "20Gi"}, {"pods", "10"}}).info();
  node.set_extension(NodeExtensionSlot::kReservations, std::make_unique<NodeReservations>());
  for (const auto& r : reservations) {
    REQUIRE(node.add_pod(make_reserve_pod_info(*r.ptr())));
    node.mutable_extension<NodeReservations>(NodeExtensionSlot::kReservations)->apply_reservation(r.ptr());
  }
  for (const auto& p : pods) REQUIRE(node.add_pod(p));
  return node;
}

const NodeReservations& held(const NodeInfo& node) {
  return *node.extension<NodeReservations>(NodeExtensionSlot::kReservations);
}

PodReservationRequest request_of(const Pod& pod) {
  auto request = read_pod_reservation_request(pod);
  REQUIRE(request);
  return *request;
}

ReservationOwner web_owner() {
  ReservationOwner o;
  o.label_selector = *parse_label_selector("app=web");
  return o;
}

}  // namespace

TEST_CASE("NodeReservations: rebuild from annotations in any order, exact removal, clone", "[reservation]") {
  NodeReservations held;
  auto o1 = owner_of("r1", "o1", {{"cpu", "1"}, {"memory", "1Gi"}, {"vendor.com/x", "3"}});
  held.on_pod_added(*o1);  // the owner arrives before its reservation
  CHECK(held.empty());
  CHECK(held.reservation_of("uid-default-o1") == "ruid-r1");
  REQUIRE(held.apply_reservation(ReservationBuilder("r1").ptr()));
  const ReservationEntry* r1 = held.find("ruid-r1");
  REQUIRE(r1 != nullptr);
  CHECK(r1->allocated_pods() == 1);
  CHECK(r1->allocated.same_amounts(resources({{"cpu", "1"}, {"memory", "1Gi"}})));  // masked to cpu, memory

  NodeReservations copy = held;
  auto o2 = owner_of("r1", "o2", {{"cpu", "2"}});
  held.on_pod_added(*o2);
  CHECK(held.find("ruid-r1")->allocated.same_amounts(resources({{"cpu", "3"}, {"memory", "1Gi"}})));
  CHECK(copy.find("ruid-r1")->allocated_pods() == 1);  // the copy is independent

  held.on_pod_removed(*o1);
  CHECK(held.find("ruid-r1")->allocated.same_amounts(resources({{"cpu", "2"}, {"memory", "0"}})));
  held.on_pod_removed(*o1);  // twice: no change
  CHECK(held.find("ruid-r1")->allocated_pods() == 1);

  CHECK(held.assume_pod("ruid-r1", "p", resources({{"cpu", "1"}})));
  CHECK_FALSE(held.assume_pod("ruid-r1", "p", resources({{"cpu", "1"}})));
  CHECK(held.forget_pod("p"));
  CHECK_FALSE(held.forget_pod("p"));

  // An update to Succeeded drops it; the owners stay remembered for a re-add.
  CHECK_FALSE(held.apply_reservation(ReservationBuilder("r1").phase(kPhaseSucceeded).ptr()));
  CHECK(held.empty());
  REQUIRE(held.apply_reservation(ReservationBuilder("r1").ptr()));
  CHECK(held.find("ruid-r1")->allocated_pods() == 1);
  CHECK(held.remove_reservation("ruid-r1"));
  CHECK_FALSE(held.remove_reservation("ruid-r1"));

  Pod broken = with_annotation(owner_pod("b", {}).pod(), kAnnotationReservationAllocated, "{oops");
  held.on_pod_added(*PodInfo::make(broken));
  Pod no_uid = with_annotation(owner_pod("c", {}).pod(), kAnnotationReservationAllocated, R"({"name":"r1"})");
  held.on_pod_added(*PodInfo::make(no_uid));
  CHECK(held.malformed_annotations() == 2);
  held.on_pod_added(*make_reserve_pod_info(*ReservationBuilder("r9").ptr()));  // reserve pods are not owners
  CHECK(held.reservation_of("ruid-r9").empty());
}

TEST_CASE("NodeInfo drives NodeReservations: copies are deep", "[reservation]") {
  NodeInfo node = node_with({ReservationBuilder("r1")}, {owner_of("r1", "o1", {{"cpu", "1"}})});
  CHECK(held(node).find("ruid-r1")->allocated_pods() == 1);
  NodeInfo copy = node;
  REQUIRE(copy.remove_pod("uid-default-o1"));
  CHECK(held(copy).find("ruid-r1")->allocated_pods() == 0);
  CHECK(held(node).find("ruid-r1")->allocated_pods() == 1);
}

TEST_CASE("matching: upstream's order of checks and the diagnosis", "[reservation]") {
  Node node = NodeBuilder("n").label("zone", "z1").node();
  Pod web = PodBuilder("web").container({{"cpu", "1"}}).pod();
  web.meta.labels = {{"app", "web"}};
  auto entry_for = [](ReservationBuilder b) {
    ReservationEntry e;
    e.reservation = b.ptr();
    e.allocatable = b.get().status.allocatable;
    e.resource_names = {"cpu", "memory"};
    return e;
  };
  struct Case {
    const char* what;
    ReservationBuilder reservation;
    std::map<std::string, std::string> annotations;
    std::map<std::string, std::string> labels;
    MatchOutcome outcome;
  };
  const std::string taint_tolerated = R"({"tolerations":[{"key":"k","operator":"Exists"}]})";
  const std::vector<Case> cases = {
      {"plain", ReservationBuilder("r1"), {}, {}, MatchOutcome::matched},
      {"ignored wins over owners", ReservationBuilder("r1").owners({ReservationOwner{web_owner()}}),
       {}, {{kLabelReservationIgnored, "true"}}, MatchOutcome::ignored},
      {"not an owner", ReservationBuilder("r1").owners({web_owner()}), {}, {{"app", "db"}}, MatchOutcome::owner_unmatched},
      {"owner by label", ReservationBuilder("r1").owners({web_owner()}), {}, {{"app", "web"}}, MatchOutcome::matched},
      {"name matches", ReservationBuilder("r1"), {{kAnnotationReservationAffinity, R"({"name":"r1"})"}}, {},
       MatchOutcome::matched},
      {"name differs", ReservationBuilder("r2"), {{kAnnotationReservationAffinity, R"({"name":"r1"})"}}, {},
       MatchOutcome::name_unmatched},
      {"name skips unschedulable", ReservationBuilder("r1").unschedulable(),
       {{kAnnotationReservationAffinity, R"({"name":"r1"})"}}, {}, MatchOutcome::matched},
      {"unschedulable", ReservationBuilder("r1").unschedulable(), {}, {}, MatchOutcome::unschedulable},
      {"unschedulable, tolerated by the affinity", ReservationBuilder("r1").unschedulable(),
       {{kAnnotationReservationAffinity,
         R"({"tolerations":[{"key":"node.kubernetes.io/unschedulable","operator":"Exists","effect":"NoSchedule"}]})"}},
       {}, MatchOutcome::matched},
      {"unschedulable, another taint tolerated", ReservationBuilder("r1").unschedulable(),
       {{kAnnotationReservationAffinity, taint_tolerated}}, {}, MatchOutcome::unschedulable},
      {"taint untolerated", ReservationBuilder("r1").taint("k", "v", TaintEffect::no_schedule),
       {{kAnnotationReservationAffinity, "{}"}}, {}, MatchOutcome::taint_untolerated},
      {"taint tolerated", ReservationBuilder("r1").taint("k", "v", TaintEffect::no_schedule),
       {{kAnnotationReservationAffinity, taint_tolerated}}, {}, MatchOutcome::matched},
      {"taint without affinity is not checked", ReservationBuilder("r1").taint("k", "v", TaintEffect::no_execute), {},
       {}, MatchOutcome::matched},
      {"affinity unmatched", ReservationBuilder("r1"),
       {{kAnnotationReservationAffinity, R"({"reservationSelector":{"zone":"z2"}})"}}, {},
       MatchOutcome::affinity_unmatched},
      {"not exact", ReservationBuilder("r1"), {{kAnnotationExactMatchReservation, R"({"resourceNames":["cpu"]})"}}, {},
       MatchOutcome::not_exact_matched},
      {"exact", ReservationBuilder("r1", {{"cpu", "1"}}),
       {{kAnnotationExactMatchReservation, R"({"resourceNames":["cpu"]})"}}, {}, MatchOutcome::matched},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    Pod pod = web;
    for (const auto& [k, v] : c.annotations) pod.meta.annotations[k] = v;
    for (const auto& [k, v] : c.labels) pod.meta.labels[k] = v;
    const ReservationEntry entry = entry_for(c.reservation);
    CHECK(match_reservation(request_of(pod), pod, node, entry).outcome == c.outcome);
    // The matching-only request decides the same, reading the requests only for exact-match.
    auto light = read_pod_match_request(pod);
    REQUIRE(light);
    CHECK(match_reservation(*light, pod, node, entry).outcome == c.outcome);
    CHECK(light->requests.empty() == !light->exact_match);
  }
  Pod reserve = make_reserve_pod(ReservationBuilder("other").get());
  CHECK(match_reservation(request_of(reserve), reserve, node, entry_for(ReservationBuilder("r1"))).outcome ==
        MatchOutcome::reserve_pod);

  // Per node: used-up allocateOnce reservations are skipped; unmatched ones with owners kept.
  NodeInfo info = node_with({ReservationBuilder("r1").owners({web_owner()}), ReservationBuilder("r2"),
                             ReservationBuilder("r3").owners({web_owner()}).allocate_once(false)},
                            {owner_of("r2", "o2", {{"cpu", "1"}}), owner_of("r3", "o3", {{"cpu", "1"}})});
  Pod db = PodBuilder("db").pod();
  db.meta.labels = {{"app", "db"}};
  NodeMatch match = match_node(request_of(db), db, *info.node(), held(info));
  CHECK(match.matched.empty());
  REQUIRE(match.unmatched.size() == 1);
  CHECK(match.unmatched[0]->name() == "r3");
  CHECK(match.diagnosis.owner_matched == 0);
  match = match_node(request_of(web), web, *info.node(), held(info));
  CHECK(match.matched.size() == 2);
  CHECK(match.diagnosis.owner_matched == 2);
}

TEST_CASE("transformer: matched holds released, unmatched trimmed to their remaining", "[reservation]") {
  // r1 holds 4 cpu / 8Gi; o1 uses 1 cpu / 1Gi of it; x uses 3 cpu outside.
  // NodeInfo requested = 4 + 1 + 3 = 8 cpu, 9Gi; 3 pods.
  auto x = PodBuilder("x").container({{"cpu", "3"}}).info();
  // allocateOnce off: a reservation with an owner is otherwise used up.
  NodeInfo node = node_with({ReservationBuilder("r1").owners({web_owner()}).allocate_once(false)},
                            {owner_of("r1", "o1", {{"cpu", "1"}, {"memory", "1Gi"}}), x});
  REQUIRE(node.requested().milli_cpu == 8000);

  Pod web = PodBuilder("web").container({{"cpu", "3"}}).pod();
  web.meta.labels = {{"app", "web"}};
  NodeMatch matched = match_node(request_of(web), web, *node.node(), held(node));
  REQUIRE(matched.matched.size() == 1);
  RestoredNode restored = restore_node(matched, node);
  CHECK(restored.released.milli_cpu == 4000);
  CHECK(restored.released.memory == 8LL << 30);
  CHECK(restored.released_pods == 1);
  CHECK(restored.matched_allocated.milli_cpu == 1000);
  // Used by others with r1 = 8 − (4 − 1) − 1 = 4 cpu: 6 of 10 free.
  CHECK(fits_node(PodInfo::make(web)->requests, node, restored, matched.matched[0]).empty());
  auto big = PodBuilder("big").container({{"cpu", "7"}, {"memory", "30Gi"}}).info();
  CHECK(fits_node(big->requests, node, restored, matched.matched[0]) == std::vector<std::string>{"cpu", "memory"});

  Pod db = PodBuilder("db").container({{"cpu", "3"}}).pod();
  NodeMatch unmatched = match_node(request_of(db), db, *node.node(), held(node));
  RestoredNode trimmed = restore_node(unmatched, node);
  // The hold keeps 3 cpu / 7Gi; the 1 cpu / 1Gi its owner uses is not counted twice.
  CHECK(trimmed.released.milli_cpu == 1000);
  CHECK(trimmed.released.memory == 1LL << 30);
  CHECK(trimmed.released_pods == 0);
  CHECK(trimmed.trimmed_requested.milli_cpu == 7000);
  CHECK(fits_node(PodInfo::make(db)->requests, node, trimmed, nullptr).empty());  // 3 of 3 free
  auto four = PodBuilder("four").container({{"cpu", "4"}}).info();
  CHECK(fits_node(four->requests, node, trimmed, nullptr) == std::vector<std::string>{"cpu"});

  // A reservation without owners is neither matched nor trimmed for a non-owner.
  NodeInfo idle = node_with({ReservationBuilder("r1").owners({web_owner()})}, {});
  CHECK(restore_node(match_node(request_of(db), db, *idle.node(), held(idle)), idle).released.is_zero());
}

TEST_CASE("fit: Aligned and Restricted policies and their reasons", "[reservation]") {
  ReservationEntry entry;
  entry.reservation = ReservationBuilder("r1", {{"cpu", "2"}, {"pods", "1"}}).policy("Restricted").ptr();
  entry.allocatable = resources({{"cpu", "2"}, {"pods", "1"}});
  entry.resource_names = {"cpu", "pods"};
  struct Case {
    const char* what;
    Amounts requests;
    int owners;
    bool detailed;
    std::vector<std::string> reasons;
  };
  const std::vector<Case> cases = {
      {"fits", {{"cpu", "2"}}, 0, false, {}},
      {"memory is not reserved", {{"cpu", "1"}, {"memory", "1Ti"}}, 0, false, {}},
      {"cpu over", {{"cpu", "3"}}, 0, false, {"Reservation(s) Insufficient cpu"}},
      {"cpu over, detailed", {{"cpu", "2500m"}}, 0, true,
       {"Reservation(s) Insufficient cpu, requested: 2500, used: 0, capacity: 2000"}},
      {"pods used up", {{"cpu", "1"}}, 1, false, {"Reservation(s) Too many pods"}},
      {"pods and cpu, detailed", {{"cpu", "2"}}, 1, true,
       {"Reservation(s) Too many pods, requested: 1, used: 1, capacity: 1",
        "Reservation(s) Insufficient cpu, requested: 2000, used: 1000, capacity: 2000"}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    ReservationEntry e = entry;
    for (int i = 0; i < c.owners; ++i) {
      e.owners["o" + std::to_string(i)] = resources({{"cpu", "1"}});
      e.allocated += resources({{"cpu", "1"}});
    }
    CHECK(fits_reservation(resources(c.requests), e, c.detailed) == c.reasons);
  }

  // filter_with_reservations on a node: 10 cpu, r1 Restricted (2 cpu), r2 Aligned (4 cpu), 3 cpu elsewhere.
  auto x = PodBuilder("x").container({{"cpu", "3"}}).info();
  NodeInfo node = node_with({ReservationBuilder("r1", {{"cpu", "2"}}).policy("Restricted"),
                             ReservationBuilder("r2", {{"cpu", "4"}}).policy("Aligned")},
                            {x});
  auto run = [&](const char* affinity, const Amounts& requests) {
    Pod pod = PodBuilder("p").container(requests).pod();
    pod.meta.annotations[kAnnotationReservationAffinity] = affinity;
    const PodReservationRequest request = request_of(pod);
    NodeMatch match = match_node(request, pod, *node.node(), held(node));
    return filter_with_reservations(request, PodInfo::make(pod)->requests, node, restore_node(match, node),
                                    match.matched, true);
  };
  CHECK(run(R"({"name":"r1"})", {{"cpu", "2"}}).ok());
  PluginStatus restricted = run(R"({"name":"r1"})", {{"cpu", "3"}});
  CHECK(restricted.code == Code::unschedulable);
  CHECK(restricted.reasons == std::vector<std::string>{"Reservation(s) Insufficient cpu, requested: 3000, used: 0, capacity: 2000"});
  // Aligned r2: free for the pod = 10 − 3 − 2 (r1's hold) = 5.
  CHECK(run(R"({"name":"r2"})", {{"cpu", "5"}}).ok());
  PluginStatus aligned = run(R"({"name":"r2"})", {{"cpu", "6"}});
  CHECK(aligned.reasons == std::vector<std::string>{"Insufficient cpu by node"});
  // No name: any fitting reservation will do; r2 takes 5, r1 only 2 by itself.
  CHECK(run("{}", {{"cpu", "4"}}).ok());
  PluginStatus none = run("{}", {{"cpu", "8"}});
  CHECK(none.reasons == std::vector<std::string>{"Insufficient cpu by node", "Reservation(s) Insufficient cpu"});
  CHECK(filter_with_reservations(PodReservationRequest{}, {}, node, {}, {}, false).ok());
  CHECK(filter_with_reservations(PodReservationRequest{}, {}, node, {}, {}, true).reasons ==
        std::vector<std::string>{kErrReasonNoReservationsMeetRequirements});
}

TEST_CASE("score: MostAllocated over the reservation, order preference, normalisation", "[reservation]") {
  ReservationEntry entry;
  entry.allocatable = resources({{"cpu", "4"}, {"memory", "8Gi"}, {"gpu.example/x", "0"}});
  entry.allocated = resources({{"cpu", "1"}, {"memory", "1Gi"}});
  struct Case {
    Amounts pod;
    int64_t score;
  };
  // cpu (1+1)/4 = 50, memory (2+1)/8 = 37 -> 87 / 2 = 43; a zero capacity is not a resource.
  for (const Case& c : {Case{{{"cpu", "1"}, {"memory", "2Gi"}}, 43}, Case{{}, (25 + 12) / 2},
                        Case{{{"cpu", "4"}, {"memory", "7Gi"}}, (0 + 100) / 2}, Case{{{"cpu", "3"}}, (100 + 12) / 2}}) {
    CHECK(score_reservation(resources(c.pod), entry) == c.score);
  }
  ReservationEntry empty;
  CHECK(score_reservation(resources({{"cpu", "1"}}), empty) == 0);

  std::vector<int64_t> scores = {encode_node_score(0, 43), encode_node_score(5, 10), encode_node_score(3, 20),
                                 encode_node_score(3, 0), 0};
  normalize_node_scores(scores);
  CHECK(scores == std::vector<int64_t>{4, 1, 100, 0, 0});
  std::vector<int64_t> plain = {encode_node_score(0, 40), encode_node_score(0, 80), 0};
  normalize_node_scores(plain);
  CHECK(plain == std::vector<int64_t>{50, 100, 0});
  std::vector<int64_t> zeros = {0, 0};
  normalize_node_scores(zeros);
  CHECK(zeros == std::vector<int64_t>{0, 0});

  // Nomination on a node: r2 has an order, so it wins over the better-scoring r1.
  NodeInfo node = node_with({ReservationBuilder("r1", {{"cpu", "2"}}), ReservationBuilder("r2").label(kLabelReservationOrder, "4")}, {});
  Pod pod = PodBuilder("p").container({{"cpu", "1"}}).pod();
  const PodReservationRequest request = request_of(pod);
  NodeMatch match = match_node(request, pod, *node.node(), held(node));
  CHECK(most_preferred(match.matched).order == 4);
  const ReservationEntry* chosen = nominate(request, PodInfo::make(pod)->requests, node, match, restore_node(match, node));
  REQUIRE(chosen != nullptr);
  CHECK(chosen->name() == "r2");
  NodeInfo unordered = node_with({ReservationBuilder("r1", {{"cpu", "2"}}), ReservationBuilder("r2")}, {});
  match = match_node(request, pod, *unordered.node(), held(unordered));
  chosen = nominate(request, PodInfo::make(pod)->requests, unordered, match, restore_node(match, unordered));
  REQUIRE(chosen != nullptr);
  CHECK(chosen->name() == "r1");  // 1 of 2 cpu = 50 beats 1 of 4 cpu
}

TEST_CASE("plugin: PreFilter errors, Filter, Reserve, PreBind, Unreserve", "[reservation]") {
  ReservationPlugin plugin;
  CycleState state;
  PreFilterResult result;

  Pod malformed = PodBuilder("bad").pod();
  malformed.meta.annotations[kAnnotationReservationAffinity] = "{";
  PluginStatus rejected = plugin.pre_filter(state, *PodInfo::make(malformed), result);
  CHECK(rejected.code == Code::unschedulable_and_unresolvable);
  CHECK_THAT(rejected.message(), Catch::Contains("scheduling.koordinator.sh/reservation-affinity"));

  auto x = PodBuilder("x").container({{"cpu", "3"}}).info();
  NodeInfo node = node_with({ReservationBuilder("r1", {{"cpu", "4"}})}, {x});
  NodeInfo bare = NodeBuilder("m").allocatable({{"cpu", "10"}, {"pods", "10"}}).info();

  Pod wants = PodBuilder("w").container({{"cpu", "2"}}).pod();
  wants.meta.annotations[kAnnotationReservationAffinity] = R"({"name":"r1"})";
  auto info = PodInfo::make(wants);
  REQUIRE(plugin.pre_filter(state, *info, result).ok());
  CHECK(plugin.filter(state, *info, node).ok());
  CHECK(plugin.filter(state, *info, bare).reasons == std::vector<std::string>{kErrReasonReservationAffinity});
  CHECK(plugin.restored_node(state, *info, node).released.milli_cpu == 4000);
  CHECK(plugin.score(state, *info, node).score == encode_node_score(0, 50));
  CHECK(plugin.score(state, *info, bare).score == 0);

  REQUIRE(plugin.reserve(state, *info, node).ok());
  CHECK(held(node).find("ruid-r1")->allocated.same_amounts(resources({{"cpu", "2"}})));
  BindingChanges changes;
  REQUIRE(plugin.pre_bind(state, *info, "n", changes).ok());
  CHECK(changes.annotations.at(kAnnotationReservationAllocated) == R"({"name":"r1","uid":"ruid-r1"})");
  plugin.unreserve(state, *info, node);
  CHECK(held(node).find("ruid-r1")->allocated_pods() == 0);
  BindingChanges after;
  CHECK(plugin.pre_bind(state, *info, "n", after).code == Code::unschedulable);

  // Without an affinity: Filter leaves the fit to NodeResourcesFit; Reserve still nominates.
  CycleState plain_state;
  auto plain = PodBuilder("q").container({{"cpu", "1"}}).info();
  REQUIRE(plugin.pre_filter(plain_state, *plain, result).ok());
  CHECK(plugin.filter(plain_state, *plain, bare).ok());
  REQUIRE(plugin.reserve(plain_state, *plain, bare).ok());
  BindingChanges none;
  REQUIRE(plugin.pre_bind(plain_state, *plain, "m", none).ok());
  CHECK(none.annotations.empty());

  // Reserve pods: the reservation-node and the allocate-policy conflict.
  ReservationBuilder pinned("r9");
  pinned.get().spec.pod_template->spec.node_name = "elsewhere";
  pinned.phase(kPhasePending);
  auto reserve_pod = make_reserve_pod_info(pinned.get());
  CycleState reserve_state;
  REQUIRE(plugin.pre_filter(reserve_state, *reserve_pod, result).ok());
  CHECK(plugin.filter(reserve_state, *reserve_pod, node).reasons ==
        std::vector<std::string>{kErrReasonNodeNotMatchReservation});
  auto aligned_pod = make_reserve_pod_info(ReservationBuilder("r8").policy("Aligned").phase(kPhasePending).get());
  REQUIRE(plugin.pre_filter(reserve_state, *aligned_pod, result).ok());
  CHECK(plugin.filter(reserve_state, *aligned_pod, node).reasons ==
        std::vector<std::string>{kErrReasonAllocatePolicyConflict});
  CHECK(plugin.filter(reserve_state, *aligned_pod, bare).ok());
}

TEST_CASE("plugin: Reserve records the owner's whole requests, ignored resources too, as the bound pod is read back",
          "[reservation]") {
  ReservationArgs args;
  args.ignored_resources = {"vendor.com/x"};
  ReservationPlugin plugin(args);
  CycleState state;
  PreFilterResult result;
  NodeInfo node = node_with({ReservationBuilder("r1", {{"cpu", "4"}, {"vendor.com/x", "2"}})}, {});
  Pod wants = PodBuilder("w").container({{"cpu", "2"}, {"vendor.com/x", "1"}}).pod();
  wants.meta.annotations[kAnnotationReservationAffinity] = R"({"name":"r1"})";
  auto info = PodInfo::make(wants);
  REQUIRE(plugin.pre_filter(state, *info, result).ok());
  REQUIRE(plugin.reserve(state, *info, node).ok());
  const ResourceList assumed = held(node).find("ruid-r1")->allocated;
  CHECK(assumed.same_amounts(resources({{"cpu", "2"}, {"vendor.com/x", "1"}})));
  // What the node records once the bound pod (with its reservation-allocated annotation) is read back.
  NodeInfo after = node_with({ReservationBuilder("r1", {{"cpu", "4"}, {"vendor.com/x", "2"}})},
                             {owner_of("r1", "w", {{"cpu", "2"}, {"vendor.com/x", "1"}})});
  CHECK(held(after).find("ruid-r1")->allocated.same_amounts(assumed));
}

TEST_CASE("ReservationArgs: defaults and field-naming errors", "[reservation]") {
  auto made = ReservationPlugin::make(YAML::Load("{}"));
  REQUIRE(made);
  auto args = ReservationArgs::from_yaml(YAML::Load(
      "enablePreemption: true\nminCandidateNodesAbsolute: 5\nignoredResourceGroups: [vendor.com]\n"
      "preAllocationConfig: {enableClusterMode: true}\nreservationSelectorIndex: {enabled: true, keys: [a]}"));
  CHECK(args.enable_preemption);
  CHECK(args.min_candidate_nodes_percentage == 10);
  CHECK(args.min_candidate_nodes_absolute == 5);
  CHECK(args.gc_duration_seconds == 86400);
  CHECK(args.pre_allocation.enable_cluster_mode);
  CHECK(args.pre_allocation.cluster_label_key == "pod.koordinator.sh/is-pre-allocatable");
  CHECK(args.selector_index.keys == std::vector<std::string>{"a"});
  CHECK(args.ignores("vendor.com/gpu"));
  CHECK_FALSE(args.ignores("other.com/gpu"));
  struct Bad {
    const char* yaml;
    const char* field;
  };
  for (const Bad& bad : {Bad{"unknown: 1", "unknown"}, Bad{"minCandidateNodesPercentage: 101", "minCandidateNodesPercentage"},
                         Bad{"minCandidateNodesAbsolute: -1", "minCandidateNodesAbsolute"},
                         Bad{"minCandidateNodesPercentage: 0\nminCandidateNodesAbsolute: 0", "minCandidateNodesPercentage"},
                         Bad{"controllerWorkers: 0", "controllerWorkers"}, Bad{"gcIntervalSeconds: 0", "gcIntervalSeconds"},
                         Bad{"ignoredResources: [cpu]", "ignoredResources[0]"},
                         Bad{"ignoredResourceGroups: [a/b]", "ignoredResourceGroups[0]"},
                         Bad{"ignoredResourceGroups: [kubernetes.io]", "ignoredResourceGroups[0]"},
                         Bad{"enablePreemption: maybe", "enablePreemption"},
                         Bad{"preAllocationConfig: {x: 1}", "preAllocationConfig"}}) {
    INFO(bad.yaml);
    auto result = ReservationPlugin::make(YAML::Load(bad.yaml));
    REQUIRE_FALSE(result);
    CHECK_THAT(result.message(), Catch::Contains(bad.field));
  }
}

TEST_CASE("plugin: PreFilter keeps a pod with a reservation-affinity to the nodes the cycle found", "[reservation]") {
  ReservationPlugin plugin;
  Pod wants = PodBuilder("w").container({{"cpu", "2"}}).pod();
  wants.meta.annotations[kAnnotationReservationAffinity] = R"({"name":"r1"})";
  Pod plain = PodBuilder("q").container({{"cpu", "1"}}).pod();
  Pod reserve = make_reserve_pod(ReservationBuilder("r9").phase(kPhasePending).get());
  reserve.meta.annotations[kAnnotationReservationAffinity] = R"({"name":"r1"})";

  struct Case {
    const char* what;
    const Pod* pod;
    std::optional<std::set<std::string>> shared;  // the cycle's ReservationAffinityNodes; nullopt: not shared
    Code code;
    std::optional<std::set<std::string>> candidates;
  };
  const std::vector<Case> cases = {
      {"reservations on two nodes", &wants, std::set<std::string>{"a", "b"}, Code::success,
       std::set<std::string>{"a", "b"}},
      {"none anywhere: rejected once", &wants, std::set<std::string>{}, Code::unschedulable_and_unresolvable,
       std::nullopt},
      {"not shared (no cycle view): every node, Filter decides", &wants, std::nullopt, Code::success, std::nullopt},
      {"no affinity: every node", &plain, std::set<std::string>{"a"}, Code::success, std::nullopt},
      {"a reserve pod: its Filter decides", &reserve, std::set<std::string>{}, Code::success, std::nullopt},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CycleState state;
    if (c.shared) {
      auto nodes = std::make_shared<const ReservationAffinityNodes>(ReservationAffinityNodes{*c.shared});
      state.share_input(nodes, 1, false);
    }
    PreFilterResult result;
    const PluginStatus status = plugin.pre_filter(state, *PodInfo::make(*c.pod), result);
    CHECK(status.code == c.code);
    CHECK(result.node_names == c.candidates);
    if (c.code == Code::unschedulable_and_unresolvable)
      CHECK(status.reasons == std::vector<std::string>{kErrReasonReservationAffinity});
  }
}
