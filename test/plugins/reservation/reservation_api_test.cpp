// Pod-side API, owner matching and the reserve-pod model, checked against
// Koordinator's apis/extension/reservation.go and pkg/util/reservation.

#include <catch2/catch.hpp>

#include <limits>

#include "model/pod_requests.hpp"
#include "plugins/reservation/owner_matcher.hpp"
#include "plugins/reservation/pod_annotations.hpp"
#include "plugins/reservation/reservation_affinity.hpp"
#include "plugins/reservation/reservation_status.hpp"
#include "plugins/reservation/reserve_pod.hpp"
#include "reservation_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins::reservation;
using namespace troupe::plugins::reservation::testing;

namespace {
Pod owned_pod() {
  Pod pod = PodBuilder("web-0", "prod").pod();
  pod.meta.labels = {{"app", "web"}};
  OwnerReference ref;
  ref.api_version = "apps/v1";
  ref.kind = "StatefulSet";
  ref.name = "web";
  ref.uid = "sts-uid";
  ref.controller = true;
  pod.meta.owner_references.push_back(ref);
  return pod;
}
}  // namespace

TEST_CASE("owner matching: object, controller and label selector", "[reservation]") {
  const Pod pod = owned_pod();
  struct Case {
    const char* what;
    ReservationOwner owner;
    bool matches;
  };
  auto object = [](std::string ns, std::string name, std::string uid, std::string api = "") {
    ReservationOwner o;
    o.object = ObjectReference{};
    o.object->namespace_name = std::move(ns);
    o.object->name = std::move(name);
    o.object->uid = std::move(uid);
    o.object->api_version = std::move(api);
    return o;
  };
  auto controller = [](std::string kind, std::string name, std::optional<bool> is_controller, std::string ns = "") {
    ReservationOwner o;
    o.controller = ReservationControllerReference{};
    o.controller->kind = std::move(kind);
    o.controller->name = std::move(name);
    o.controller->controller = is_controller;
    o.controller->namespace_name = std::move(ns);
    return o;
  };
  auto selector = [](std::string text) {
    ReservationOwner o;
    o.label_selector = *parse_label_selector(text);
    return o;
  };
  ReservationOwner both = controller("StatefulSet", "web", true);
  both.label_selector = *parse_label_selector("app=db");
  const std::vector<Case> cases = {
      {"empty owner matches all", ReservationOwner{}, true},
      {"object by name", object("", "web-0", ""), true},
      {"object by namespace and name", object("prod", "web-0", ""), true},
      {"object wrong namespace", object("dev", "web-0", ""), false},
      {"object by uid", object("", "", "uid-prod-web-0"), true},
      {"object wrong uid", object("", "", "other"), false},
      {"object apiVersion v1", object("", "web-0", "", "v1"), true},
      {"object other apiVersion", object("", "web-0", "", "apps/v1"), false},
      {"controller kind+name", controller("StatefulSet", "web", std::nullopt), true},
      {"controller flag true", controller("StatefulSet", "web", true), true},
      {"controller flag false", controller("StatefulSet", "web", false), false},
      {"controller wrong kind", controller("Deployment", "web", std::nullopt), false},
      {"controller namespace", controller("", "web", std::nullopt, "prod"), true},
      {"controller wrong namespace", controller("", "web", std::nullopt, "dev"), false},
      {"selector matches", selector("app=web"), true},
      {"selector does not", selector("app=db"), false},
      {"fields are ANDed", both, false},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(match_owner(pod, c.owner) == c.matches);
  }
  CHECK_FALSE(match_owners(pod, {}));  // no owners: nothing
  CHECK(match_owners(pod, {selector("app=db"), object("", "web-0", "")}));  // ORed
  Pod orphan = pod;
  orphan.meta.owner_references.clear();
  CHECK_FALSE(match_owner(orphan, controller("", "", std::nullopt)));
}

TEST_CASE("reservation-allocated codec: exact JSON and errors", "[reservation]") {
  CHECK(encode_reservation_allocated({"r1", "u1"}) == R"({"name":"r1","uid":"u1"})");
  CHECK(encode_reservation_allocated({"r1", ""}) == R"({"name":"r1"})");
  CHECK(encode_reservation_allocated({"", ""}) == "{}");
  CHECK(encode_reservation_allocated({"a\"b", "u"}) == R"({"name":"a\"b","uid":"u"})");
  auto round = decode_reservation_allocated(encode_reservation_allocated({"r1", "u1"}));
  REQUIRE(round);
  CHECK(*round == ReservationAllocated{"r1", "u1"});
  auto extra = decode_reservation_allocated(R"({"name":"r","uid":"u","other":3})");
  REQUIRE(extra);
  CHECK(extra->uid == "u");
  for (const char* bad : {"{", "[1]", R"({"name":1})", "\"x\""}) {
    INFO(bad);
    auto decoded = decode_reservation_allocated(bad);
    REQUIRE_FALSE(decoded);
    CHECK_THAT(decoded.message(), Catch::Contains("scheduling.koordinator.sh/reservation-allocated"));
  }
  ObjectMeta meta;
  auto absent = reservation_allocated_of(meta);
  REQUIRE(absent);
  CHECK_FALSE(absent->has_value());
}

TEST_CASE("exact-match-reservation: decode and match, with the early-true quirk", "[reservation]") {
  ObjectMeta meta;
  meta.annotations[kAnnotationExactMatchReservation] = R"({"resourceNames":["cpu","memory"]})";
  auto spec = exact_match_spec_of(meta);
  REQUIRE(spec);
  REQUIRE(spec->has_value());
  CHECK((*spec)->resource_names == std::vector<std::string>{"cpu", "memory"});
  meta.annotations[kAnnotationExactMatchReservation] = R"({"resourceNames":"cpu"})";
  auto bad = exact_match_spec_of(meta);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.message(), Catch::Contains("exact-match-reservation"));
  meta.annotations[kAnnotationExactMatchReservation] = "";
  REQUIRE(exact_match_spec_of(meta));
  CHECK_FALSE(exact_match_spec_of(meta)->has_value());

  struct Case {
    const char* what;
    Amounts pod, reservation;
    std::vector<std::string> names;
    bool matches;
  };
  const std::vector<Case> cases = {
      {"no names", {{"cpu", "1"}}, {{"cpu", "2"}}, {}, true},
      {"equal", {{"cpu", "2"}}, {{"cpu", "2000m"}}, {"cpu"}, true},
      {"differ", {{"cpu", "1"}}, {{"cpu", "2"}}, {"cpu"}, false},
      {"only pod has it", {{"cpu", "1"}}, {}, {"cpu"}, false},
      {"only reservation has it", {}, {{"cpu", "1"}}, {"cpu"}, false},
      {"absent on both ends the check", {{"cpu", "1"}}, {{"cpu", "2"}}, {"gpu", "cpu"}, true},
      {"second differs", {{"cpu", "1"}, {"memory", "1Gi"}}, {{"cpu", "1"}, {"memory", "2Gi"}}, {"cpu", "memory"}, false},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(exact_match(resources(c.pod), resources(c.reservation), ExactMatchSpec{c.names}) == c.matches);
  }
}

TEST_CASE("reservation-affinity: decoding and its errors", "[reservation]") {
  auto full = decode_reservation_affinity(
      R"({"name":"r1","reservationSelector":{"team":"a"},)"
      R"("requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["z1"]}]}]},)"
      R"("tolerations":[{"key":"k","operator":"Equal","value":"v","effect":"NoSchedule"}]})");
  REQUIRE(full);
  CHECK(full->name == "r1");
  CHECK(full->selector == std::map<std::string, std::string>{{"team", "a"}});
  REQUIRE(full->required);
  CHECK(full->required->terms.size() == 1);
  CHECK(full->tolerations.size() == 1);
  for (const char* text : {"", "{}", "null"}) {
    INFO(text);
    auto empty = decode_reservation_affinity(text);
    REQUIRE(empty);
    CHECK(empty->name.empty());
    CHECK_FALSE(empty->required);
  }
  struct Bad {
    const char* text;
    const char* mentions;
  };
  for (const Bad& bad : {Bad{"{", "reservation-affinity"}, Bad{"[]", "reservation-affinity"},
                         Bad{R"({"name":3})", "name"}, Bad{R"({"reservationSelector":{"a":1}})", "reservationSelector"},
                         Bad{R"({"tolerations":{}})", "tolerations"},
                         Bad{R"({"tolerations":[{"effect":"Sometimes"}]})", "effect"}}) {
    INFO(bad.text);
    auto decoded = decode_reservation_affinity(bad.text);
    REQUIRE_FALSE(decoded);
    CHECK_THAT(decoded.message(), Catch::Contains("scheduling.koordinator.sh/reservation-affinity"));
    CHECK_THAT(decoded.message(), Catch::Contains(bad.mentions));
  }
}

TEST_CASE("reservation-affinity: selector, terms on the fake node, taints", "[reservation]") {
  Node node = NodeBuilder("n").label("zone", "z1").label("team", "b").node();
  ObjectMeta r;
  r.name = "r1";
  r.labels = {{"team", "a"}};
  struct Case {
    const char* what;
    const char* affinity;
    bool matches;
  };
  const std::vector<Case> cases = {
      {"empty", "{}", true},
      {"reservation label wins over node label", R"({"reservationSelector":{"team":"a"}})", true},
      {"node label seen", R"({"reservationSelector":{"zone":"z1"}})", true},
      {"missing label", R"({"reservationSelector":{"gpu":"yes"}})", false},
      {"terms on node labels",
       R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["z1"]}]}]}})",
       true},
      {"terms fail",
       R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["z2"]}]}]}})",
       false},
      {"matchFields name is the reservation's",
       R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["r1"]}]}]}})",
       true},
      {"matchFields node name does not match",
       R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["n"]}]}]}})",
       false},
      {"no terms matches nothing", R"({"requiredDuringSchedulingIgnoredDuringExecution":{}})", false},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto affinity = decode_reservation_affinity(c.affinity);
    REQUIRE(affinity);
    CHECK(affinity->match_affinity(node, r) == c.matches);
  }
  auto tolerating = decode_reservation_affinity(R"({"tolerations":[{"key":"k","operator":"Exists"}]})");
  REQUIRE(tolerating);
  const std::vector<Taint> taints = {{"k", "v", TaintEffect::no_schedule, {}}, {"x", "y", TaintEffect::no_execute, {}},
                                     {"p", "q", TaintEffect::prefer_no_schedule, {}}};
  const Taint* untolerated = tolerating->first_untolerated_taint(taints);
  REQUIRE(untolerated != nullptr);
  CHECK(untolerated->key == "x");
  CHECK(tolerating->first_untolerated_taint({taints[0], taints[2]}) == nullptr);  // PreferNoSchedule ignored
}

TEST_CASE("reserve pod: Koordinator's NewReservePod", "[reservation]") {
  ReservationBuilder b("r1", {{"cpu", "2"}});
  Reservation& r = b.get();
  r.meta.labels = {{"a", "reservation"}, {"koordinator.sh/priority", "7"}};
  r.meta.annotations = {{"note", "r"}};
  r.spec.pod_template->meta.labels = {{"a", "template"}, {"b", "template"}};
  r.spec.pod_template->spec.node_name = "wanted";
  r.spec.allocate_policy = "Restricted";
  r.status.phase = kPhasePending;
  r.status.node_name.clear();

  Pod pod = make_reserve_pod(r);
  CHECK(pod.meta.name == "ruid-r1");
  CHECK(pod.meta.uid == "ruid-r1");
  CHECK(pod.meta.namespace_name == "default");
  CHECK(pod.meta.labels.at("a") == "reservation");
  CHECK(pod.meta.labels.at("b") == "template");
  CHECK(pod.meta.annotations.at("note") == "r");
  CHECK(is_reserve_pod(pod.meta));
  CHECK(reservation_name_of(pod.meta) == "r1");
  CHECK(reserve_pod_node(pod.meta) == "wanted");
  CHECK(reserve_pod_allocate_policy(pod.meta) == "Restricted");
  CHECK(pod.spec.node_name.empty());
  CHECK(pod.spec.priority == 7);
  CHECK(pod.spec.scheduler_name == "default-scheduler");

  r.meta.labels.erase("koordinator.sh/priority");
  CHECK(make_reserve_pod(r).spec.priority == std::numeric_limits<int32_t>::max());
  r.spec.pod_template->spec.priority = 3;
  CHECK(make_reserve_pod(r).spec.priority == 3);

  // Available: placed, and requests follow status.allocatable.
  r.status.phase = kPhaseAvailable;
  r.status.node_name = "n1";
  r.status.allocatable = resources({{"cpu", "3"}, {"memory", "1Gi"}});
  Pod available = make_reserve_pod(r);
  CHECK(available.spec.node_name == "n1");
  CHECK(pod_requests(available.spec).same_amounts(resources({{"cpu", "3"}, {"memory", "1Gi"}})));
  CHECK(available.spec.containers.back().name == kFakeContainerName);
  CHECK(make_reserve_pod_info(r)->requests.milli_cpu == 3000);

  r.status.phase = kPhaseSucceeded;
  CHECK(make_reserve_pod(r).status.phase == "Succeeded");
  r.status.phase = kPhaseFailed;
  CHECK(make_reserve_pod(r).status.phase == "Failed");
  CHECK(reservation_requests(r).same_amounts(resources({{"cpu", "2"}})));  // not available: the template
}

TEST_CASE("reservation phases, expiry and validation", "[reservation]") {
  const Timestamp created = *parse_timestamp("2026-01-01T00:00:00Z");
  struct Case {
    const char* what;
    std::optional<std::chrono::nanoseconds> ttl;
    std::optional<const char*> expires;
    const char* now;
    bool expired;
  };
  const std::vector<Case> cases = {
      {"within ttl", std::chrono::hours(1), std::nullopt, "2026-01-01T00:59:59Z", false},
      {"past ttl", std::chrono::hours(1), std::nullopt, "2026-01-01T01:00:01Z", true},
      {"exactly ttl is not past", std::chrono::hours(1), std::nullopt, "2026-01-01T01:00:00Z", false},
      {"ttl 0 never", std::chrono::nanoseconds(0), "2025-01-01T00:00:00Z", "2027-01-01T00:00:00Z", false},
      {"expires passed", std::nullopt, "2026-01-01T00:10:00Z", "2026-01-01T00:10:01Z", true},
      {"expires ahead, default ttl ahead", std::nullopt, "2026-01-02T00:10:00Z", "2026-01-01T23:00:00Z", false},
      {"absent ttl is 24h", std::nullopt, std::nullopt, "2026-01-02T00:00:01Z", true},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    Reservation r;
    r.meta.creation_timestamp = created;
    r.spec.ttl = c.ttl;
    if (c.expires) r.spec.expires = *parse_timestamp(*c.expires);
    CHECK(needs_expiration(r, *parse_timestamp(c.now)) == c.expired);
  }

  Reservation r = ReservationBuilder("r").get();
  CHECK(is_available(r));
  CHECK(is_active(r));
  r.status.phase = kPhaseWaiting;
  CHECK_FALSE(is_available(r));
  CHECK(is_active(r));
  r.status.phase = "";
  CHECK(reservation_phase(r) == "Pending");
  r.status.phase = kPhaseFailed;
  CHECK_FALSE(is_expired(r));
  Condition expired;
  expired.type = kConditionReady;
  expired.status = "False";
  expired.reason = kReasonExpired;
  r.status.conditions.push_back(expired);
  CHECK(is_expired(r));

  CHECK(validate_reservation(ReservationBuilder("ok").get()));
  Reservation bad = ReservationBuilder("bad").get();
  bad.spec.owners.clear();
  CHECK(validate_reservation(bad).message() == "the reservation misses the owner spec");
  bad.spec.pod_template.reset();
  CHECK(validate_reservation(bad).message() == "the reservation misses the template spec");
  Reservation no_expiry = ReservationBuilder("e").get();
  no_expiry.spec.ttl.reset();
  CHECK(validate_reservation(no_expiry).message() == "the reservation misses the expiration spec");
}

TEST_CASE("owner recomputation from reservation-allocated pods", "[reservation]") {
  Reservation r = ReservationBuilder("r1", {{"cpu", "4"}}).get();  // on node n
  const std::string mine = encode_reservation_allocated({"r1", "ruid-r1"});
  auto on_n = [](const char* name, const Amounts& requests) { return owner_pod(name, requests).node_name("n").pod(); };
  Pod a = with_annotation(on_n("b-pod", {{"cpu", "1"}, {"memory", "1Gi"}}), kAnnotationReservationAllocated, mine);
  Pod b = with_annotation(on_n("a-pod", {{"cpu", "500m"}}), kAnnotationReservationAllocated, mine);
  Pod other = with_annotation(on_n("c", {{"cpu", "1"}}), kAnnotationReservationAllocated,
                              encode_reservation_allocated({"r2", "ruid-r2"}));
  Pod done = with_annotation(on_n("d", {{"cpu", "1"}}), kAnnotationReservationAllocated, mine);
  done.status.phase = "Succeeded";
  Pod broken = with_annotation(on_n("e", {{"cpu", "1"}}), kAnnotationReservationAllocated, "{");
  // The annotation is written at PreBind: a pod whose Binding then failed, or that runs elsewhere, is no owner.
  Pod unbound = with_annotation(owner_pod("f", {{"cpu", "1"}}).pod(), kAnnotationReservationAllocated, mine);
  Pod elsewhere = with_annotation(owner_pod("g", {{"cpu", "1"}}).node_name("m").pod(), kAnnotationReservationAllocated,
                                  mine);
  CHECK_FALSE(recompute_owners(r, {&unbound, &elsewhere}).succeeded);
  OwnerStatus status = recompute_owners(r, {&a, &b, &other, &done, &broken, &unbound, &elsewhere});
  REQUIRE(status.current_owners.size() == 2);
  CHECK(status.current_owners[0].name == "a-pod");
  CHECK(status.current_owners[1].name == "b-pod");
  CHECK(status.allocated.same_amounts(resources({{"cpu", "1500m"}})));  // memory masked out
  CHECK(status.succeeded);
  r.spec.allocate_once = false;
  CHECK_FALSE(recompute_owners(r, {&a}).succeeded);
  CHECK_FALSE(recompute_owners(r, {}).succeeded);
}

TEST_CASE("reservation order and preemptible labels", "[reservation]") {
  ObjectMeta meta;
  CHECK_FALSE(reservation_order(meta));
  for (auto [text, value] : std::vector<std::pair<const char*, std::optional<int64_t>>>{
           {"5", 5}, {"0", 0}, {"-2", -2}, {"+3", 3}, {"x", std::nullopt}, {"1.5", std::nullopt}, {"", std::nullopt}}) {
    INFO(text);
    meta.labels[kLabelReservationOrder] = text;
    CHECK(reservation_order(meta) == value);
  }
  CHECK(is_preemptible(meta));
  meta.labels[kLabelDisablePreemptible] = "true";
  CHECK_FALSE(is_preemptible(meta));
  meta.labels[kLabelDisablePreemptible] = "false";
  CHECK(is_preemptible(meta));
  CHECK_FALSE(is_reservation_ignored(meta));
  meta.labels[kLabelReservationIgnored] = "true";
  CHECK(is_reservation_ignored(meta));
}
