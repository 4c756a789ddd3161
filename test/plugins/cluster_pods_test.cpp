// ClusterPods: the cluster-wide index of placed pods by node that
// InterPodAffinity and PodTopologySpread count over.

#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "plugins/framework/cluster_pods.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;
using Op = LabelRequirement::Op;

namespace {

std::shared_ptr<const Node> node(const std::string& name) {
  return std::make_shared<const Node>(NodeBuilder(name).label("zone", "z-" + name).node());
}

PodAffinityTerm term(const std::string& app) {
  PodAffinityTerm t;
  t.label_selector = LabelSelector({requirement("app", Op::in, {app})});
  t.topology_key = "zone";
  return t;
}

enum class Terms { none, required_affinity, preferred_affinity, required_anti, preferred_anti, empty_sides };

Pod pod_with(const std::string& name, Terms terms) {
  Pod pod = PodBuilder(name).pod();
  if (terms == Terms::none) return pod;
  pod.spec.affinity = Affinity{};
  auto& affinity = *pod.spec.affinity;
  switch (terms) {
    case Terms::required_affinity: affinity.pod_affinity = PodAffinity{{term("db")}, {}}; break;
    case Terms::preferred_affinity: affinity.pod_affinity = PodAffinity{{}, {{10, term("db")}}}; break;
    case Terms::required_anti: affinity.pod_anti_affinity = PodAffinity{{term("web")}, {}}; break;
    case Terms::preferred_anti: affinity.pod_anti_affinity = PodAffinity{{}, {{10, term("web")}}}; break;
    case Terms::empty_sides:
      affinity.pod_affinity = PodAffinity{};
      affinity.pod_anti_affinity = PodAffinity{};
      affinity.node_affinity = ::troupe::NodeAffinity{NodeSelector{}, {}};
      break;
    case Terms::none: break;
  }
  return pod;
}

std::shared_ptr<const PodInfo> info(const std::string& name, Terms terms = Terms::none) {
  return PodInfo::make(pod_with(name, terms));
}

/// The names of the pods ClusterPods holds on `node` (empty when it has no entry).
std::vector<std::string> pods_on(const ClusterPods& cluster, const std::string& node) {
  std::vector<std::string> out;
  auto it = cluster.nodes().find(node);
  if (it == cluster.nodes().end()) return out;
  for (const auto& p : it->second.pods) out.push_back(p->meta().name);
  return out;
}

}  // namespace

TEST_CASE("ClusterPods: add, move and remove pods; every change bumps the generation", "[cluster_pods]") {
  ClusterPods cluster;
  CHECK(cluster.generation() == 0);
  CHECK(cluster.pod_count() == 0);
  CHECK(cluster.nodes().empty());

  uint64_t last = cluster.generation();
  auto bumped = [&] {
    const bool changed = cluster.generation() > last;
    last = cluster.generation();
    return changed;
  };

  cluster.upsert_node(node("n1"));
  CHECK(bumped());
  cluster.upsert_node(node("n2"));
  CHECK(bumped());
  cluster.add_pod(info("a"), "n1");
  CHECK(bumped());
  cluster.add_pod(info("b"), "n1");
  CHECK(bumped());
  cluster.add_pod(info("c"), "n2");
  CHECK(bumped());
  CHECK(cluster.pod_count() == 3);
  CHECK(pods_on(cluster, "n1") == std::vector<std::string>{"a", "b"});
  CHECK(pods_on(cluster, "n2") == std::vector<std::string>{"c"});

  // The same uid again on another node moves the pod (an assumed copy replaced by the bound one).
  cluster.add_pod(info("a"), "n2");
  CHECK(bumped());
  CHECK(cluster.pod_count() == 3);
  CHECK(pods_on(cluster, "n1") == std::vector<std::string>{"b"});
  CHECK(pods_on(cluster, "n2") == std::vector<std::string>{"c", "a"});
  // ... and on the same node it is replaced, not doubled.
  cluster.add_pod(info("a"), "n2");
  CHECK(cluster.pod_count() == 3);
  CHECK(pods_on(cluster, "n2") == std::vector<std::string>{"c", "a"});
  last = cluster.generation();

  CHECK(cluster.remove_pod(pod_identity(*info("b"))));
  CHECK(bumped());
  CHECK(pods_on(cluster, "n1").empty());
  CHECK(cluster.nodes().count("n1") == 1);  // the node stays, without pods
  CHECK(cluster.pod_count() == 2);

  CHECK_FALSE(cluster.remove_pod(pod_identity(*info("b"))));  // not accounted any more
  CHECK_FALSE(cluster.remove_pod("no-such-uid"));
  CHECK_FALSE(bumped());  // nothing changed
  CHECK(cluster.pod_count() == 2);

  cluster.upsert_node(node("n1"));  // a node update
  CHECK(bumped());
  CHECK(cluster.nodes().at("n1").node->meta.labels.at("zone") == "z-n1");
}

TEST_CASE("ClusterPods: pods_with_affinity_terms follows adds, moves and removals", "[cluster_pods]") {
  struct Case {
    const char* name;
    Terms terms;
    bool counted;
  };
  const std::vector<Case> cases = {
      {"no affinity", Terms::none, false},
      {"required pod affinity", Terms::required_affinity, true},
      {"preferred pod affinity", Terms::preferred_affinity, true},
      {"required pod anti-affinity", Terms::required_anti, true},
      {"preferred pod anti-affinity", Terms::preferred_anti, true},
      {"affinity sides without terms, node affinity only", Terms::empty_sides, false},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(has_pod_affinity_terms(pod_with("p", c.terms)) == c.counted);
    ClusterPods cluster;
    cluster.upsert_node(node("n1"));
    cluster.upsert_node(node("n2"));
    cluster.add_pod(info("plain"), "n1");
    cluster.add_pod(info("p", c.terms), "n1");
    const size_t with = c.counted ? 1 : 0;
    CHECK(cluster.pods_with_affinity_terms() == with);
    cluster.add_pod(info("p", c.terms), "n2");  // a move counts once
    CHECK(cluster.pods_with_affinity_terms() == with);
    cluster.remove_node("n2");  // pods stay while they name the node
    CHECK(cluster.pods_with_affinity_terms() == with);
    CHECK(cluster.remove_pod(pod_identity(*info("p"))));
    CHECK(cluster.pods_with_affinity_terms() == 0);
    CHECK(cluster.remove_pod(pod_identity(*info("plain"))));
    CHECK(cluster.pods_with_affinity_terms() == 0);
  }
  ClusterPods many;
  many.add_pod(info("a", Terms::required_affinity), "n1");
  many.add_pod(info("b", Terms::preferred_anti), "n1");
  many.add_pod(info("c"), "n2");
  CHECK(many.pods_with_affinity_terms() == 2);
  many.add_pod(info("a"), "n1");  // re-added without its terms (an update)
  CHECK(many.pods_with_affinity_terms() == 1);
}

TEST_CASE("ClusterPods: a removed node keeps its pods until they are deleted", "[cluster_pods]") {
  ClusterPods cluster;
  cluster.upsert_node(node("n1"));
  cluster.upsert_node(node("empty"));
  cluster.add_pod(info("a"), "n1");
  cluster.add_pod(info("b"), "n1");

  uint64_t before = cluster.generation();
  cluster.remove_node("empty");
  CHECK(cluster.generation() > before);
  CHECK(cluster.nodes().count("empty") == 0);  // no pods: forgotten at once

  cluster.remove_node("n1");
  REQUIRE(cluster.nodes().count("n1") == 1);
  CHECK(cluster.nodes().at("n1").node == nullptr);
  CHECK(pods_on(cluster, "n1") == std::vector<std::string>{"a", "b"});
  CHECK(cluster.pod_count() == 2);

  CHECK(cluster.remove_pod(pod_identity(*info("a"))));
  CHECK(cluster.nodes().count("n1") == 1);
  CHECK(cluster.remove_pod(pod_identity(*info("b"))));
  CHECK(cluster.nodes().count("n1") == 0);  // the last pod gone, the entry goes
  CHECK(cluster.pod_count() == 0);

  before = cluster.generation();
  cluster.remove_node("never-seen");
  CHECK(cluster.generation() == before);
  CHECK(cluster.nodes().empty());
}

TEST_CASE("ClusterPods: pods may arrive before their node, and a node may come back", "[cluster_pods]") {
  ClusterPods cluster;
  cluster.add_pod(info("early"), "n9");
  REQUIRE(cluster.nodes().count("n9") == 1);
  CHECK(cluster.nodes().at("n9").node == nullptr);
  cluster.upsert_node(node("n9"));
  REQUIRE(cluster.nodes().at("n9").node != nullptr);
  CHECK(pods_on(cluster, "n9") == std::vector<std::string>{"early"});

  cluster.remove_node("n9");
  cluster.upsert_node(node("n9"));  // back before its pods were deleted
  REQUIRE(cluster.nodes().at("n9").node != nullptr);
  CHECK(pods_on(cluster, "n9") == std::vector<std::string>{"early"});
}

TEST_CASE("placement_reads_other_pods", "[cluster_pods]") {
  Pod spread = PodBuilder("s").pod();
  TopologySpreadConstraint c;
  c.max_skew = 1;
  c.topology_key = "zone";
  spread.spec.topology_spread_constraints.push_back(c);
  Pod node_affinity_only =
      PodBuilder("n").required_terms({NodeSelectorTerm{{requirement("zone", Op::exists)}, {}}}).pod();

  ClusterPods without_terms;
  without_terms.add_pod(info("x"), "n1");
  ClusterPods with_terms;
  with_terms.add_pod(info("x"), "n1");
  with_terms.add_pod(info("y", Terms::required_anti), "n1");

  struct Case {
    const char* name;
    Pod pod;
    const ClusterPods* cluster;
    bool reads;
  };
  const std::vector<Case> cases = {
      {"a plain pod, no placed pod with terms", PodBuilder("p").pod(), &without_terms, false},
      {"a pod with only node affinity", node_affinity_only, &without_terms, false},
      {"a pod with spread constraints", spread, &without_terms, true},
      {"a pod with required pod affinity", pod_with("p", Terms::required_affinity), &without_terms, true},
      {"a pod with preferred pod anti-affinity", pod_with("p", Terms::preferred_anti), &without_terms, true},
      {"a plain pod while a placed pod has terms that may point at it", PodBuilder("p").pod(), &with_terms, true},
      {"an empty cluster", PodBuilder("p").pod(), nullptr, false},
  };
  ClusterPods empty;
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(placement_reads_other_pods(c.pod, c.cluster ? *c.cluster : empty) == c.reads);
  }
}

TEST_CASE("ClusterPods: assumed pods give way to bound ones and only they are forgotten", "[cluster_pods]") {
  struct Step {
    const char* what;
    std::function<void(ClusterPods&)> apply;
    std::vector<std::string> on_n1;
    std::vector<std::string> on_n2;
  };
  const auto uid = [](const char* name) { return std::string(pod_identity(*info(name))); };
  const std::vector<Step> steps = {
      {"the cycle assumes a on n1", [](ClusterPods& c) { c.assume_pod(info("a"), "n1"); }, {"a"}, {}},
      {"a failed binding forgets it", [&](ClusterPods& c) { c.forget_assumed(uid("a")); }, {}, {}},
      {"assumed again on n1", [](ClusterPods& c) { c.assume_pod(info("a"), "n1"); }, {"a"}, {}},
      {"the API server shows it bound on n2", [](ClusterPods& c) { c.add_pod(info("a"), "n2"); }, {}, {"a"}},
      {"a late failure does not forget a bound pod", [&](ClusterPods& c) { c.forget_assumed(uid("a")); }, {}, {"a"}},
      {"nor does assuming it elsewhere move it", [](ClusterPods& c) { c.assume_pod(info("a"), "n1"); }, {}, {"a"}},
      {"b bound by another scheduler", [](ClusterPods& c) { c.add_pod(info("b"), "n1"); }, {"b"}, {"a"}},
      {"forgetting a pod never assumed changes nothing", [&](ClusterPods& c) { c.forget_assumed(uid("b")); },
       {"b"}, {"a"}},
      {"a deletion removes a bound pod", [&](ClusterPods& c) { c.remove_pod(uid("a")); }, {"b"}, {}},
  };
  ClusterPods cluster;
  cluster.upsert_node(node("n1"));
  cluster.upsert_node(node("n2"));
  for (const auto& step : steps) {
    INFO(step.what);
    step.apply(cluster);
    CHECK(pods_on(cluster, "n1") == step.on_n1);
    CHECK(pods_on(cluster, "n2") == step.on_n2);
    CHECK(cluster.pod_count() == step.on_n1.size() + step.on_n2.size());
  }
}

TEST_CASE("ClusterPods: a nomination's placeholder is marked until it goes or its pod is known placed",
          "[cluster_pods]") {
  struct Step {
    const char* what;
    std::function<void(ClusterPods&)> apply;
    std::vector<std::string> on_n1;
    std::vector<std::string> nominated;  // of the pods on n1
  };
  const auto uid = [](const char* name) { return std::string(pod_identity(*info(name))); };
  const std::vector<Step> steps = {
      {"a nominated to n1", [](ClusterPods& c) { c.assume_nominated(info("a"), "n1"); }, {"a"}, {"a"}},
      {"b assumed there, not nominated", [](ClusterPods& c) { c.assume_pod(info("b"), "n1"); }, {"a", "b"}, {"a"}},
      {"the nomination released", [&](ClusterPods& c) { c.forget_assumed(uid("a")); }, {"b"}, {}},
      {"a nominated again", [](ClusterPods& c) { c.assume_nominated(info("a"), "n1"); }, {"b", "a"}, {"a"}},
      {"the cycle places a there: assumed, no longer a nomination",
       [](ClusterPods& c) { c.assume_pod(info("a"), "n1"); }, {"b", "a"}, {}},
      {"c nominated", [](ClusterPods& c) { c.assume_nominated(info("c"), "n1"); }, {"b", "a", "c"}, {"c"}},
      {"c seen bound", [](ClusterPods& c) { c.add_pod(info("c"), "n1"); }, {"b", "a", "c"}, {}},
      {"a pod known bound is not made a nomination", [](ClusterPods& c) { c.assume_nominated(info("c"), "n1"); },
       {"b", "a", "c"}, {}},
      {"d nominated, then deleted", [&](ClusterPods& c) {
         c.assume_nominated(info("d"), "n1");
         c.remove_pod(uid("d"));
       }, {"b", "a", "c"}, {}},
  };
  ClusterPods cluster;
  cluster.upsert_node(node("n1"));
  for (const auto& step : steps) {
    INFO(step.what);
    step.apply(cluster);
    CHECK(pods_on(cluster, "n1") == step.on_n1);
    std::vector<std::string> nominated;
    for (const auto& pod : cluster.nodes().at("n1").pods)
      if (cluster.is_nominated(*pod)) nominated.push_back(pod->meta().name);
    CHECK(nominated == step.nominated);
  }
}

TEST_CASE("ClusterPods: terms_generation moves only with pods that have terms, and with nodes", "[cluster_pods]") {
  struct Step {
    const char* what;
    std::function<void(ClusterPods&)> apply;
    bool terms_moved;
  };
  const auto uid = [](const char* name) { return std::string(pod_identity(*info(name))); };
  const std::vector<Step> steps = {
      {"a node", [](ClusterPods& c) { c.upsert_node(node("n1")); }, true},
      {"a plain pod", [](ClusterPods& c) { c.add_pod(info("plain"), "n1"); }, false},
      {"a plain pod assumed", [](ClusterPods& c) { c.assume_pod(info("plain-2"), "n1"); }, false},
      {"a pod with anti-affinity", [](ClusterPods& c) { c.add_pod(info("anti", Terms::required_anti), "n1"); }, true},
      {"the plain pod goes", [&](ClusterPods& c) { c.remove_pod(uid("plain")); }, false},
      {"the pod with terms goes", [&](ClusterPods& c) { c.remove_pod(uid("anti")); }, true},
      {"the node goes", [](ClusterPods& c) { c.remove_node("n1"); }, true},
  };
  ClusterPods cluster;
  for (const auto& step : steps) {
    INFO(step.what);
    const uint64_t generation = cluster.generation();
    const uint64_t terms = cluster.terms_generation();
    step.apply(cluster);
    CHECK(cluster.generation() > generation);
    CHECK((cluster.terms_generation() > terms) == step.terms_moved);
  }
}

TEST_CASE("version_seen_by: the whole generation for a pod with terms or constraints, else terms_generation",
          "[cluster_pods]") {
  ClusterPods cluster;
  cluster.upsert_node(node("n1"));
  for (int i = 0; i < 3; ++i) cluster.add_pod(info("plain-" + std::to_string(i)), "n1");
  REQUIRE(cluster.generation() != cluster.terms_generation());
  const Pod plain = pod_with("p", Terms::none);
  Pod spreads = pod_with("s", Terms::none);
  spreads.spec.topology_spread_constraints.push_back(TopologySpreadConstraint{});
  CHECK(version_seen_by(plain, cluster) == cluster.terms_generation() + 1);
  CHECK(version_seen_by(pod_with("a", Terms::preferred_affinity), cluster) == cluster.generation() + 1);
  CHECK(version_seen_by(spreads, cluster) == cluster.generation() + 1);
  ClusterPods empty;
  CHECK(version_seen_by(plain, empty) == 1);  // never 0: 0 means no input
}
