// ClusterReservations: which Available reservations the scheduling cycle
// holds as reserve pods, and which of them a pod sets aside (Koordinator
// takes the reservations a pod may use out of its NodeInfo before PreFilter).

#include <catch2/catch.hpp>

#include "plugins/reservation/cluster_reservations.hpp"
#include "plugins/reservation/reservation_status.hpp"
#include "plugins/reservation/reserve_pod.hpp"
#include "reservation_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::reservation;
using namespace troupe::plugins::reservation::testing;

namespace {

ReservationOwner owner_labelled(const char* selector) {
  ReservationOwner o;
  o.label_selector = *parse_label_selector(selector);
  return o;
}

/// Reservation `name` on node `node`, for pods labelled app=<owner>, its template labelled app=<owner> too.
ReservationBuilder reservation_on(const std::string& node, const std::string& name, const char* owner_selector) {
  ReservationBuilder b(name, {{"cpu", "1"}});
  b.owners({owner_labelled(owner_selector)});
  b.get().status.node_name = node;
  b.get().spec.pod_template->meta.labels["app"] = "web";
  return b;
}

Pod pod_labelled(std::map<std::string, std::string> labels,
                 std::map<std::string, std::string> annotations = {}) {
  Pod pod = PodBuilder("p").container({{"cpu", "1"}}).pod();
  pod.meta.labels = std::move(labels);
  pod.meta.annotations = std::move(annotations);
  return pod;
}

std::vector<std::string> names(const std::vector<const ClusterReservation*>& held) {
  std::vector<std::string> out;
  for (const auto* r : held) out.push_back(r->entry.name());
  return out;
}

}  // namespace

TEST_CASE("ClusterReservations: only Available reservations with a node are held", "[reservation]") {
  ClusterReservations held;
  const ClusterReservation* r = held.upsert(reservation_on("n1", "r1", "app=web").ptr());
  REQUIRE(r != nullptr);
  CHECK(r->node == "n1");
  // The reserve pod as Koordinator's NodeInfo holds it: template labels, the reservation's uid, its node.
  CHECK(r->reserve_pod->meta().labels.at("app") == "web");
  CHECK(r->reserve_pod->meta().uid == "ruid-r1");
  CHECK(r->reserve_pod->meta().namespace_name == "default");
  CHECK(r->reserve_pod->pod->spec.node_name == "n1");
  CHECK(held.size() == 1);

  struct Case {
    const char* what;
    ReservationBuilder next;
  };
  const std::vector<Case> dropped = {
      {"Succeeded", reservation_on("n1", "r1", "app=web").phase(kPhaseSucceeded)},
      {"Failed", reservation_on("n1", "r1", "app=web").phase(kPhaseFailed)},
      {"Pending", reservation_on("n1", "r1", "app=web").phase(kPhasePending)},
      {"Available without a node", reservation_on("", "r1", "app=web")},
  };
  for (const auto& c : dropped) {
    INFO(c.what);
    REQUIRE(held.upsert(reservation_on("n1", "r1", "app=web").ptr()) != nullptr);
    CHECK(held.upsert(c.next.ptr()) == nullptr);
    CHECK(held.find("ruid-r1") == nullptr);
  }
  // Moved to another node: held there.
  REQUIRE(held.upsert(reservation_on("n1", "r1", "app=web").ptr()) != nullptr);
  CHECK(held.upsert(reservation_on("n2", "r1", "app=web").ptr())->node == "n2");
  CHECK(held.size() == 1);
  CHECK(held.remove("ruid-r1"));
  CHECK_FALSE(held.remove("ruid-r1"));
  CHECK(held.empty());
  CHECK(held.upsert(nullptr) == nullptr);
}

TEST_CASE("ClusterReservations: the reservations a pod may use, on nodes the cycle knows", "[reservation]") {
  ClusterPods cluster;
  cluster.upsert_node(std::make_shared<const Node>(NodeBuilder("n1").label("zone", "z1").node()));
  cluster.upsert_node(std::make_shared<const Node>(NodeBuilder("n2").label("zone", "z2").node()));
  ClusterReservations held;
  held.upsert(reservation_on("n1", "web-r", "app=web").ptr());
  held.upsert(reservation_on("n2", "web-r2", "app=web").ptr());
  held.upsert(reservation_on("n1", "db-r", "app=db").ptr());
  // Only the cycle's ClusterPods says which nodes exist: this one's node is not known.
  held.upsert(reservation_on("gone", "lost-r", "app=web").ptr());
  ReservationBuilder used = reservation_on("n2", "once-r", "app=web");
  used.get().status.current_owners.push_back(ObjectReference{"Pod", "default", "first", "uid-first"});
  held.upsert(used.ptr());
  ReservationBuilder reusable = reservation_on("n2", "many-r", "app=web").allocate_once(false);
  reusable.get().status.current_owners.push_back(ObjectReference{"Pod", "default", "first", "uid-first"});
  held.upsert(reusable.ptr());

  struct Case {
    const char* what;
    Pod pod;
    std::vector<std::string> usable;  // by name, in uid order
  };
  const std::vector<Case> cases = {
      {"owner of three; allocateOnce already owned is used up", pod_labelled({{"app", "web"}}),
       {"many-r", "web-r", "web-r2"}},
      {"owner of one", pod_labelled({{"app", "db"}}), {"db-r"}},
      {"a stranger", pod_labelled({{"app", "cache"}}), {}},
      {"reservation-ignored: every one on a known node", pod_labelled({{kLabelReservationIgnored, "true"}}),
       {"db-r", "many-r", "web-r", "web-r2"}},
      {"affinity by name", pod_labelled({{"app", "web"}}, {{kAnnotationReservationAffinity, R"({"name":"web-r2"})"}}),
       {"web-r2"}},
      {"affinity read over the node's labels",
       pod_labelled({{"app", "web"}}, {{kAnnotationReservationAffinity, R"({"reservationSelector":{"zone":"z1"}})"}}),
       {"web-r"}},
      {"malformed affinity: rejected by the plugin, sets nothing aside",
       pod_labelled({{"app", "web"}}, {{kAnnotationReservationAffinity, "{"}}), {}},
      {"a reserve pod uses no reservation", make_reserve_pod(reservation_on("n1", "x", "app=web").get()), {}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(names(held.usable_by(c.pod, cluster)) == c.usable);
  }
  CHECK(ClusterReservations().usable_by(pod_labelled({{"app", "web"}}), cluster).empty());
}

TEST_CASE("ClusterReservations: only reserve pods the pod's selectors may count are set aside", "[reservation]") {
  ClusterPods cluster;
  cluster.upsert_node(std::make_shared<const Node>(NodeBuilder("n1").node()));
  ClusterReservations held;
  auto labelled = [](const char* name, const char* app) {
    ReservationBuilder b = reservation_on("n1", name, "owner=me");  // every reservation is the pod's
    b.get().spec.pod_template->meta.labels["app"] = app;
    return b;
  };
  held.upsert(labelled("web-1", "web").ptr());
  held.upsert(labelled("web-2", "web").ptr());
  held.upsert(labelled("db-1", "db").ptr());
  ReservationBuilder guarded = labelled("guard", "other");  // a reserve pod with terms counts for every pod
  PodAffinityTerm term;
  term.label_selector = *parse_label_selector("app=web");
  term.topology_key = "kubernetes.io/hostname";
  guarded.get().spec.pod_template->spec.affinity.emplace().pod_anti_affinity.emplace().required.push_back(term);
  held.upsert(guarded.ptr());
  // Relabelled: it leaves its old label group.
  held.upsert(labelled("db-1", "cache").ptr());

  const Pod owner = pod_labelled({{"owner", "me"}});
  struct Case {
    const char* what;
    std::optional<LabelSelector> selects;  // nullopt: no relevance filter
    std::vector<std::string> aside;
  };
  const std::vector<Case> cases = {
      {"no filter", std::nullopt, {"db-1", "guard", "web-1", "web-2"}},
      {"selects app=web", *parse_label_selector("app=web"), {"guard", "web-1", "web-2"}},
      {"selects app=cache (db-1's new label)", *parse_label_selector("app=cache"), {"db-1", "guard"}},
      {"selects app=db (db-1's old label)", *parse_label_selector("app=db"), {"guard"}},
      {"selects every pod", LabelSelector{}, {"db-1", "guard", "web-1", "web-2"}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    if (!c.selects) {
      CHECK(names(held.usable_by(owner, cluster)) == c.aside);
      continue;
    }
    const OwnSelectors selectors(owner, *c.selects);
    CHECK(names(held.usable_by(owner, cluster, &selectors)) == c.aside);
  }
  REQUIRE(held.remove("ruid-guard"));
  const OwnSelectors web(owner, *parse_label_selector("app=web"));
  CHECK(names(held.usable_by(owner, cluster, &web)) == std::vector<std::string>{"web-1", "web-2"});
}

TEST_CASE("ClusterReservations: why the reservations a pod owns were not usable", "[reservation]") {
  ClusterPods cluster;
  cluster.upsert_node(std::make_shared<const Node>(NodeBuilder("n1").label("zone", "z1").node()));
  cluster.upsert_node(std::make_shared<const Node>(NodeBuilder("n2").label("zone", "z2").node()));
  ClusterReservations held;
  held.upsert(reservation_on("n1", "ok", "app=web").ptr());
  ReservationBuilder closed = reservation_on("n1", "closed", "app=web");
  closed.get().spec.unschedulable = true;
  held.upsert(closed.ptr());
  ReservationBuilder tainted = reservation_on("n1", "tainted", "app=web");
  tainted.get().spec.taints.push_back(Taint{"dedicated", "gpu", TaintEffect::no_schedule, std::nullopt});
  held.upsert(tainted.ptr());
  held.upsert(reservation_on("n2", "far", "app=web").ptr());
  held.upsert(reservation_on("n1", "theirs", "app=db").ptr());
  held.upsert(reservation_on("gone", "lost", "app=web").ptr());  // on a node the cycle does not know
  ReservationBuilder used = reservation_on("n1", "used", "app=web");
  used.get().status.current_owners.push_back(ObjectReference{"Pod", "default", "first", "uid-first"});
  held.upsert(used.ptr());  // allocateOnce, owned: used up, not counted

  const char* in_z1 = R"({"reservationSelector":{"zone":"z1"}})";
  struct Case {
    const char* what;
    Pod pod;
    std::optional<std::vector<std::string>> reasons;  // nullopt: no diagnosis
  };
  const std::vector<Case> cases = {
      {"owner without affinity: unschedulable ones counted, taints and affinity not read",
       pod_labelled({{"app", "web"}}),
       std::vector<std::string>{"1 Reservation(s) is unschedulable", "4 Reservation(s) matched owner total"}},
      {"owner with an affinity: each reason once, in upstream's order",
       pod_labelled({{"app", "web"}}, {{kAnnotationReservationAffinity, in_z1}}),
       std::vector<std::string>{"1 Reservation(s) didn't match affinity rules", "1 Reservation(s) is unschedulable",
                                "1 Reservation(s) had untolerated taint {dedicated: gpu}",
                                "4 Reservation(s) matched owner total"}},
      {"affinity by name: the name is checked first",
       pod_labelled({{"app", "web"}}, {{kAnnotationReservationAffinity, R"({"name":"far"})"}}),
       std::vector<std::string>{"1 Reservation(s) exactly matches the requested reservation name",
                                "3 Reservation(s) didn't match the requested reservation name",
                                "4 Reservation(s) matched owner total"}},
      {"a stranger: nothing to say", pod_labelled({{"app", "cache"}}), std::vector<std::string>{}},
      {"a stranger with an affinity: the owner total all the same",
       pod_labelled({{"app", "cache"}}, {{kAnnotationReservationAffinity, in_z1}}),
       std::vector<std::string>{"0 Reservation(s) matched owner total"}},
      {"reservation-ignored: no owner counted", pod_labelled({{kLabelReservationIgnored, "true"}}),
       std::vector<std::string>{}},
      {"malformed affinity: the plugin's PreFilter reports it", pod_labelled({{"app", "web"}}, {{kAnnotationReservationAffinity, "{"}}),
       std::nullopt},
      {"a reserve pod", make_reserve_pod(reservation_on("n1", "x", "app=web").get()), std::nullopt},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto diagnosis = held.diagnose(c.pod, cluster);
    REQUIRE(diagnosis.has_value() == c.reasons.has_value());
    if (diagnosis) CHECK(post_filter_reasons(*diagnosis) == *c.reasons);
  }
}
