// InterPodAffinity's two ways of counting (affinity_counting.hpp): the index
// must give exactly what the walk over every node gives, on random clusters
// that change (pods with and without terms come, move and go; nodes come,
// change labels and go), for Filter's counts and Score's weights. A few table
// cases pin down when the index applies.

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "plugins/framework/cluster_pods.hpp"
#include "plugins/inter_pod_affinity/affinity_counting.hpp"
#include "test/plugins/builders.hpp"
#include "test/plugins/random_cluster.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::affinity;
using namespace troupe::plugins::testing;
using Op = LabelRequirement::Op;

namespace {

const std::vector<std::string> kKeys = {"kubernetes.io/hostname", "zone"};
const NamespaceLabels kNamespaces = {{"default", {{"team", "a"}}}, {"other", {{"team", "b"}}}};

Node random_node(Random& rng, const std::string& name) {
  NodeBuilder node(name);
  if (rng.chance(0.9)) node.label("kubernetes.io/hostname", name);
  if (rng.chance(0.8)) node.label("zone", rng.pick<std::string>({"z1", "z2", "z3"}));
  return node.node();
}

LabelSelector random_selector(Random& rng) {
  switch (rng.below(7)) {
    case 0: return LabelSelector({requirement("app", Op::equals, {"a"})});
    case 1: return LabelSelector({requirement("app", Op::in, {"a", "b"})});
    case 2: return LabelSelector({requirement("app", Op::in, {"b", "b"})});
    case 3: return LabelSelector({requirement("tier", Op::not_in, {"y"}), requirement("app", Op::equals, {"c"})});
    case 4: return LabelSelector({requirement("app", Op::exists)});  // names no value
    case 5: return LabelSelector{};
    default: return LabelSelector({requirement("tier", Op::in, {"x"})});
  }
}

PodAffinityTerm random_term(Random& rng) {
  PodAffinityTerm term;
  term.label_selector = random_selector(rng);
  term.topology_key = rng.pick(kKeys);
  switch (rng.below(6)) {
    case 0: term.namespaces = {"other"}; break;
    case 1: term.namespaces = {"default", "other"}; break;
    case 2: term.namespace_selector = LabelSelector{}; break;  // every namespace
    case 3: term.namespace_selector = LabelSelector({requirement("team", Op::equals, {"b"})}); break;
    default: break;  // the pod's own namespace
  }
  return term;
}

/// Up to two terms of each of the four kinds, each kind present a third of the time.
void add_random_terms(Random& rng, Pod& pod) {
  auto side = [&](bool anti) -> PodAffinity& {
    if (!pod.spec.affinity) pod.spec.affinity = Affinity{};
    auto& s = anti ? pod.spec.affinity->pod_anti_affinity : pod.spec.affinity->pod_affinity;
    if (!s) s = PodAffinity{};
    return *s;
  };
  for (bool anti : {false, true}) {
    if (rng.chance(0.33))
      for (size_t i = 0, n = 1 + rng.below(2); i < n; ++i) side(anti).required.push_back(random_term(rng));
    if (rng.chance(0.33))
      for (size_t i = 0, n = 1 + rng.below(2); i < n; ++i)
        side(anti).preferred.push_back({static_cast<int32_t>(1 + rng.below(100)), random_term(rng)});
  }
}

Pod random_pod(Random& rng, const std::string& name, double terms_chance) {
  Pod pod = PodBuilder(name, rng.chance(0.75) ? "default" : "other").pod();
  if (rng.chance(0.85)) pod.meta.labels["app"] = rng.pick<std::string>({"a", "b", "c"});
  if (rng.chance(0.5)) pod.meta.labels["tier"] = rng.pick<std::string>({"x", "y"});
  if (rng.chance(terms_chance)) add_random_terms(rng, pod);
  return pod;
}

RandomCluster random_cluster(Random& rng) {
  RandomCluster out;
  build_random_cluster(rng, out, 10, 50, random_node,
                       [](Random& r, int serial) { return random_pod(r, "p" + std::to_string(serial), 0.5); });
  return out;
}

template <class Nested>
std::map<std::string, std::map<std::string, int64_t>> sorted(const Nested& nested) {
  std::map<std::string, std::map<std::string, int64_t>> out;
  for (const auto& [key, by_value] : nested)
    for (const auto& [value, count] : by_value) out[key][value] = count;
  return out;
}

void check_same(const AffinityFilterCounts& walked, const AffinityFilterCounts& indexed) {
  CHECK(sorted(walked.existing_anti_affinity) == sorted(indexed.existing_anti_affinity));
  CHECK(sorted(walked.affinity) == sorted(indexed.affinity));
  CHECK(sorted(walked.anti_affinity) == sorted(indexed.anti_affinity));
}

}  // namespace

TEST_CASE("affinity counting: the index counts what the walk counts on random changing clusters",
          "[inter_pod_affinity][affinity_counting]") {
  size_t filter_indexed = 0, score_indexed = 0, runs = 0;
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    Random rng(seed);
    RandomCluster random = random_cluster(rng);
    for (int attempt = 0; attempt < 4; ++attempt) {
      const Pod pod = random_pod(rng, "incoming-" + std::to_string(attempt), 0.8);
      const PodTerms terms = resolve_terms(pod, &kNamespaces);
      const Labels& ns_labels = labels_of_namespace(&kNamespaces, pod.meta.namespace_name);
      INFO("seed " << seed << " attempt " << attempt);
      ++runs;
      const auto walked = count_for_filter_by_walk(pod, terms, random.cluster, ns_labels);
      if (auto indexed = count_for_filter_by_index(pod, terms, random.cluster, ns_labels)) {
        ++filter_indexed;
        check_same(walked, *indexed);
      }
      check_same(walked, count_for_filter(pod, terms, random.cluster, ns_labels));
      for (int32_t hard_weight : {0, 1, 5}) {
        for (bool ignore_preferred : {false, true}) {
          const InterPodAffinityArgs args{hard_weight, ignore_preferred};
          INFO("hardPodAffinityWeight " << hard_weight << " ignorePreferred " << ignore_preferred);
          const auto walked_scores = score_topologies_by_walk(pod, terms, random.cluster, args, ns_labels);
          if (auto indexed = score_topologies_by_index(pod, terms, random.cluster, args, ns_labels)) {
            ++score_indexed;
            CHECK(sorted(walked_scores) == sorted(*indexed));
          }
          CHECK(sorted(walked_scores) == sorted(score_topologies(pod, terms, random.cluster, args, ns_labels)));
        }
      }
    }
  }
  // The comparison means something only if the index took a good part of the runs.
  CHECK(filter_indexed * 4 > runs);
  CHECK(score_indexed * 4 > runs * 6);
}

TEST_CASE("affinity counting: when the index applies", "[inter_pod_affinity][affinity_counting]") {
  ClusterPods cluster;
  cluster.upsert_node(std::make_shared<const Node>(NodeBuilder("n1").label("zone", "z1").node()));
  auto term = [](LabelSelector selector) {
    PodAffinityTerm t;
    t.label_selector = std::move(selector);
    t.topology_key = "zone";
    return t;
  };
  const LabelSelector app_a({requirement("app", Op::equals, {"a"})});
  const LabelSelector has_app({requirement("app", Op::exists)});
  auto with = [&](bool anti, bool required, PodAffinityTerm t) {
    Pod pod = PodBuilder("p").pod();
    pod.spec.affinity = Affinity{};
    auto& side = anti ? pod.spec.affinity->pod_anti_affinity : pod.spec.affinity->pod_affinity;
    side = PodAffinity{};
    if (required) side->required.push_back(std::move(t)); else side->preferred.push_back({10, std::move(t)});
    return pod;
  };
  PodAffinityTerm every_namespace = term(app_a);
  every_namespace.namespace_selector = LabelSelector{};
  struct Case {
    std::string name;
    Pod pod;
    bool filter_applies;
    bool score_applies;
  };
  const std::vector<Case> cases = {
      {"no terms: only placed pods' terms, always indexed", PodBuilder("p").pod(), true, true},
      {"required affinity by matchLabels", with(false, true, term(app_a)), true, true},
      {"required anti-affinity by Exists", with(true, true, term(has_app)), false, true},
      {"preferred affinity by Exists", with(false, false, term(has_app)), true, false},
      {"preferred anti-affinity by matchLabels", with(true, false, term(app_a)), true, true},
      {"a term over every namespace", with(true, true, every_namespace), false, true},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const PodTerms terms = resolve_terms(c.pod, &kNamespaces);
    CHECK(count_for_filter_by_index(c.pod, terms, cluster, {}).has_value() == c.filter_applies);
    CHECK(score_topologies_by_index(c.pod, terms, cluster, InterPodAffinityArgs{}, {}).has_value() == c.score_applies);
  }
}

TEST_CASE("affinity counting: a nomination's placeholder counts for Filter, not for Score",
          "[inter_pod_affinity][affinity_counting]") {
  // Every pod is app=web and keeps other web pods out of its zone, required and preferred (weight 10).
  auto web = [](const char* name) {
    Pod pod = PodBuilder(name).pod();
    pod.meta.labels["app"] = "web";
    PodAffinityTerm apart;
    apart.label_selector = LabelSelector({requirement("app", Op::equals, {"web"})});
    apart.topology_key = "zone";
    pod.spec.affinity = Affinity{};
    pod.spec.affinity->pod_anti_affinity = PodAffinity{{apart}, {{10, apart}}};
    return pod;
  };
  ClusterPods cluster;
  cluster.upsert_node(std::make_shared<const Node>(NodeBuilder("n1").label("zone", "z1").node()));
  cluster.upsert_node(std::make_shared<const Node>(NodeBuilder("n2").label("zone", "z2").node()));
  cluster.add_pod(PodInfo::make(web("bound")), "n1");
  cluster.assume_nominated(PodInfo::make(web("nominated")), "n2");
  const Pod pod = web("incoming");
  const PodTerms terms = resolve_terms(pod, &kNamespaces);
  const Labels& ns_labels = labels_of_namespace(&kNamespaces, pod.meta.namespace_name);
  const std::map<std::string, std::map<std::string, int64_t>> both_zones = {{"zone", {{"z1", 1}, {"z2", 1}}}};
  const std::map<std::string, std::map<std::string, int64_t>> bound_zone_only = {{"zone", {{"z1", -20}}}};

  const auto filter_walked = count_for_filter_by_walk(pod, terms, cluster, ns_labels);
  const auto filter_indexed = count_for_filter_by_index(pod, terms, cluster, ns_labels);
  REQUIRE(filter_indexed);
  for (const auto* counts : {&filter_walked, &*filter_indexed}) {
    CHECK(sorted(counts->anti_affinity) == both_zones);
    CHECK(sorted(counts->existing_anti_affinity) == both_zones);
  }
  const InterPodAffinityArgs args{1, false};
  const auto score_indexed = score_topologies_by_index(pod, terms, cluster, args, ns_labels);
  REQUIRE(score_indexed);
  CHECK(sorted(*score_indexed) == bound_zone_only);
  CHECK(sorted(score_topologies_by_walk(pod, terms, cluster, args, ns_labels)) == bound_zone_only);
}
