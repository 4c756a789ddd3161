// ReservePodsAside: the reserve pods of the reservations a pod may use leave
// the cycle's ClusterPods for its PreFilter and PreScore, and come back as
// they were.
#include <catch2/catch.hpp>

#include "actors/reserve_pods_aside.hpp"
#include "model/label_selector.hpp"
#include "plugins/reservation/reservation_names.hpp"

using namespace troupe;
using namespace troupe::actors;
using namespace troupe::plugins;

namespace {

std::shared_ptr<const Reservation> available_on(const std::string& node, const std::string& name,
                                                const char* owners) {
  Reservation r;
  r.meta.name = name;
  r.meta.uid = "ruid-" + name;
  r.spec.pod_template = PodTemplate{};
  r.spec.pod_template->meta.labels["app"] = "web";
  ReservationOwner owner;
  owner.label_selector = *parse_label_selector(owners);
  r.spec.owners.push_back(owner);
  r.status.phase = reservation::kPhaseAvailable;
  r.status.node_name = node;
  return std::make_shared<const Reservation>(std::move(r));
}

Pod pod_labelled(const std::string& app) {
  Pod pod;
  pod.meta.name = "p";
  pod.meta.namespace_name = "default";
  pod.meta.labels["app"] = app;
  return pod;
}

size_t web_pods(const ClusterPods& cluster) {
  auto found = cluster.pods_by_label().candidates(*parse_label_selector("app=web"), "default");
  REQUIRE(found);
  size_t count = 0;
  for (const auto* pods : *found) count += pods->size();
  return count;
}

}  // namespace

TEST_CASE("ReservePodsAside: a pod's usable reservations leave ClusterPods while it counts", "[actors]") {
  ClusterPods cluster;
  Node node;
  node.meta.name = "n1";
  cluster.upsert_node(std::make_shared<const Node>(node));
  reservation::ClusterReservations held;
  for (const auto& r : {available_on("n1", "web-r", "app=web"), available_on("n1", "db-r", "app=db")}) {
    const auto* entry = held.upsert(r);
    REQUIRE(entry != nullptr);
    cluster.add_pod(entry->reserve_pod, entry->node);
  }
  REQUIRE(web_pods(cluster) == 2);  // both templates are labelled app=web

  struct Case {
    const char* what;
    std::string app;
    const char* selects;  // the pod's default spreading selector; nullptr: it counts no pod
    size_t aside;
  };
  const std::vector<Case> cases = {
      {"web-r's owner", "web", "", 1},
      {"db-r's owner", "db", "", 1},
      {"db-r's owner, whose rules select app=web", "db", "app=web", 1},
      {"db-r's owner, whose rules select none of them", "db", "app=cache", 0},
      {"a stranger", "cache", "", 0},
      {"an owner whose placement reads no pod", "web", nullptr, 0},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    {
      const Pod pod = pod_labelled(c.app);
      std::optional<OwnSelectors> selectors;
      if (c.selects != nullptr) selectors.emplace(pod, *parse_label_selector(c.selects));
      ReservePodsAside aside(cluster, held, pod, selectors ? &*selectors : nullptr);
      CHECK(aside.size() == c.aside);
      CHECK(web_pods(cluster) == 2 - c.aside);
      CHECK(cluster.pod_count() == 2 - c.aside);
    }
    CHECK(web_pods(cluster) == 2);
    CHECK(cluster.has_pod_on("ruid-web-r", "n1"));
    CHECK(cluster.has_pod_on("ruid-db-r", "n1"));
  }
}
