// PodTopologySpread's two ways of counting (domain_counting.hpp): the index
// must give exactly what the walk over every node gives, on random clusters
// that change (pods come, move and go; nodes come, change labels and go;
// keys are kept before and after the nodes arrive), for every kind of
// request. A few table cases pin down when the index applies.

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "plugins/framework/cluster_pods.hpp"
#include "plugins/pod_topology_spread/domain_counting.hpp"
#include "test/plugins/builders.hpp"
#include "test/plugins/random_cluster.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::spread;
using namespace troupe::plugins::testing;
using Op = LabelRequirement::Op;

namespace {

const std::string kHostname = "kubernetes.io/hostname";
const std::vector<std::string> kKeys = {kHostname, "zone", "rack"};

Node random_node(Random& rng, const std::string& name) {
  NodeBuilder node(name);
  if (rng.chance(0.9)) node.label(kHostname, name);
  if (rng.chance(0.8)) node.label("zone", rng.pick<std::string>({"z1", "z2", "z3"}));
  if (rng.chance(0.5)) node.label("rack", rng.pick<std::string>({"r1", "r2"}));
  if (rng.chance(0.5)) node.label("disk", rng.pick<std::string>({"ssd", "hdd"}));
  if (rng.chance(0.2)) node.taint("dedicated", "x", TaintEffect::no_schedule);
  return node.node();
}

Pod random_placed_pod(Random& rng, int serial) {
  Pod pod = PodBuilder("p" + std::to_string(serial), rng.chance(0.8) ? "default" : "other").pod();
  if (rng.chance(0.85)) pod.meta.labels["app"] = rng.pick<std::string>({"a", "b", "c"});
  if (rng.chance(0.5)) pod.meta.labels["tier"] = rng.pick<std::string>({"x", "y"});
  if (rng.chance(0.1)) pod.meta.deletion_timestamp = timestamp_now();
  return pod;
}

LabelSelector random_selector(Random& rng) {
  switch (rng.below(8)) {
    case 0: return LabelSelector({requirement("app", Op::equals, {"a"})});
    case 1: return LabelSelector({requirement("app", Op::in, {"a", "b"})});
    case 2: return LabelSelector({requirement("app", Op::in, {"b", "b"})});  // a repeated value counts once
    case 3: return LabelSelector({requirement("app", Op::equals, {"a"}), requirement("tier", Op::equals, {"x"})});
    case 4: return LabelSelector({requirement("tier", Op::in, {"y"}), requirement("app", Op::not_in, {"c"})});
    case 5: return LabelSelector({requirement("app", Op::exists)});  // names no value: walked
    case 6: return LabelSelector{};  // counts no pod
    default: return LabelSelector::nothing();
  }
}

Pod random_pod_to_place(Random& rng) {
  PodBuilder builder("incoming");
  if (rng.chance(0.2)) builder.node_selector({{"disk", "ssd"}});
  if (rng.chance(0.1)) builder.required_terms({NodeSelectorTerm{{requirement("zone", Op::in, {"z1", "z2"})}, {}}});
  if (rng.chance(0.3))
    builder.toleration(Toleration{"dedicated", TolerationOperator::exists, "", TaintEffect::all, std::nullopt});
  return builder.pod();
}

std::vector<SpreadConstraint> random_constraints(Random& rng) {
  std::vector<SpreadConstraint> out(1 + rng.below(2));
  for (auto& c : out) {
    c.topology_key = rng.pick(kKeys);
    c.selector = random_selector(rng);
    if (rng.chance(0.2)) c.node_affinity_policy = NodeInclusionPolicy::ignore;
    if (rng.chance(0.3)) c.node_taints_policy = NodeInclusionPolicy::honor;
  }
  return out;
}

RandomCluster random_cluster(Random& rng) {
  RandomCluster out;
  const bool keep_keys_first = rng.chance(0.5);
  if (keep_keys_first)
    for (const auto& key : kKeys) out.cluster.track_topology_key(key);
  build_random_cluster(rng, out, 12, 60, random_node, random_placed_pod);
  if (!keep_keys_first)
    for (const auto& key : kKeys) out.cluster.track_topology_key(key);
  return out;
}

void check_same(const DomainCounts& walked, const DomainCounts& indexed) {
  REQUIRE(walked.matching.size() == indexed.matching.size());
  for (size_t i = 0; i < walked.matching.size(); ++i) {
    const std::map<std::string, int64_t> want(walked.matching[i].begin(), walked.matching[i].end());
    const std::map<std::string, int64_t> got(indexed.matching[i].begin(), indexed.matching[i].end());
    CHECK(want == got);
  }
  CHECK(walked.admitted_domains == indexed.admitted_domains);
  CHECK(walked.domains == indexed.domains);
}

}  // namespace

TEST_CASE("domain counting: the index counts what the walk counts on random changing clusters",
          "[pod_topology_spread][domain_counting]") {
  size_t indexed_runs = 0, runs = 0;
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    Random rng(seed);
    RandomCluster random = random_cluster(rng);
    for (int attempt = 0; attempt < 4; ++attempt) {
      const Pod pod = random_pod_to_place(rng);
      const auto constraints = random_constraints(rng);
      for (bool all_keys : {true, false}) {
        for (EmptyDomains empty : {EmptyDomains::count, EmptyDomains::drop}) {
          for (int variant = 0; variant < 4; ++variant) {
            const bool admitted = variant % 2 == 0;
            const bool with_nominated = variant < 2;
            INFO("seed " << seed << " attempt " << attempt << " all_keys " << all_keys << " keep "
                         << (empty == EmptyDomains::count) << " admitted " << admitted << " nominated "
                         << with_nominated);
            const CountingRequest request{all_keys, empty, admitted, with_nominated};
            const DomainCounts walked = count_domains_by_walk(pod, constraints, random.cluster, request);
            ++runs;
            if (auto indexed = count_domains_by_index(pod, constraints, random.cluster, request)) {
              ++indexed_runs;
              check_same(walked, *indexed);
            }
            check_same(walked, count_domains(pod, constraints, random.cluster, request));
          }
        }
      }
    }
  }
  // The comparison means something only if the index took a good part of the runs.
  CHECK(indexed_runs * 3 > runs);
}

TEST_CASE("domain counting: when the index applies", "[pod_topology_spread][domain_counting]") {
  ClusterPods cluster;
  auto node = [](NodeBuilder builder) { return std::make_shared<const Node>(builder.node()); };
  cluster.upsert_node(node(NodeBuilder("n1").label("zone", "z1").label("disk", "ssd")));
  cluster.upsert_node(node(NodeBuilder("n2").label("zone", "z2")));
  cluster.add_pod(PodBuilder("a1").info(), "n1");
  auto constraint = [](std::string key, LabelSelector selector,
                       NodeInclusionPolicy taints = NodeInclusionPolicy::ignore) {
    SpreadConstraint c;
    c.topology_key = std::move(key);
    c.selector = std::move(selector);
    c.node_taints_policy = taints;
    return std::vector<SpreadConstraint>{c};
  };
  const LabelSelector app_a({requirement("app", Op::equals, {"a"})});
  const Pod plain = PodBuilder("p").pod();
  const CountingRequest filter{true, EmptyDomains::count, false};
  const CountingRequest score{true, EmptyDomains::drop, true};
  const CountingRequest score_counts_only{true, EmptyDomains::drop, false};

  CHECK_FALSE(count_domains_by_index(plain, constraint("zone", app_a), cluster, filter));  // zone not kept yet
  CHECK(count_domains_by_index(plain, constraint("zone", app_a), cluster, score_counts_only));  // lists no domain
  cluster.track_topology_key("zone");
  struct Case {
    std::string name;
    Pod pod;
    std::vector<SpreadConstraint> constraints;
    CountingRequest request;
    bool applies;
  };
  const std::vector<Case> cases = {
      {"matchLabels, no node selection", plain, constraint("zone", app_a), filter, true},
      {"In names values", plain, constraint("zone", LabelSelector({requirement("app", Op::in, {"a", "b"})})), score,
       true},
      {"Exists names none", plain, constraint("zone", LabelSelector({requirement("app", Op::exists)})), filter, false},
      {"but the empty selector counts no pod", plain, constraint("zone", LabelSelector{}), filter, true},
      {"a key not kept", plain, constraint("rack", app_a), filter, false},
      {"a node selector", PodBuilder("p").node_selector({{"disk", "ssd"}}).pod(), constraint("zone", app_a), score,
       false},
      {"required node affinity",
       PodBuilder("p").required_terms({NodeSelectorTerm{{requirement("zone", Op::exists)}, {}}}).pod(),
       constraint("zone", app_a), filter, false},
      {"... unless no domain is listed",
       PodBuilder("p").node_selector({{"disk", "ssd"}}).pod(), constraint("zone", app_a), score_counts_only, true},
      {"taints honoured when empty domains are listed", plain,
       constraint("zone", app_a, NodeInclusionPolicy::honor), filter, false},
      {"taints honoured at Score", plain, constraint("zone", app_a, NodeInclusionPolicy::honor), score, true},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(count_domains_by_index(c.pod, c.constraints, cluster, c.request).has_value() == c.applies);
  }

  SECTION("with every key required, only while every node has every key") {
    cluster.track_topology_key("disk");
    auto two = constraint("zone", app_a);
    two.push_back(constraint("disk", app_a)[0]);
    CHECK_FALSE(count_domains_by_index(plain, two, cluster, filter));  // n2 has no disk label
    CHECK(count_domains_by_index(plain, two, cluster, CountingRequest{false, EmptyDomains::drop, true}));
    cluster.upsert_node(node(NodeBuilder("n2").label("zone", "z2").label("disk", "hdd")));
    CHECK(count_domains_by_index(plain, two, cluster, filter));
  }
}

TEST_CASE("domain counting: a nomination's placeholder counts for Filter, not for Score",
          "[pod_topology_spread][domain_counting]") {
  const bool keep_keys = GENERATE(false, true);  // walked, then by index
  ClusterPods cluster;
  for (const char* name : {"n1", "n2"})
    cluster.upsert_node(std::make_shared<const Node>(NodeBuilder(name).label(kHostname, name).node()));
  if (keep_keys) cluster.track_topology_key(kHostname);
  auto web_pod = [](const char* name) {
    Pod pod = PodBuilder(name).pod();
    pod.meta.labels["app"] = "web";
    return pod;
  };
  auto web = [&](const char* name) { return PodInfo::make(web_pod(name)); };
  cluster.add_pod(web("bound"), "n1");
  cluster.assume_pod(web("reserved"), "n1");
  cluster.assume_nominated(web("nominated"), "n2");
  SpreadConstraint c;
  c.topology_key = kHostname;
  c.selector = LabelSelector({requirement("app", Op::equals, {"web"})});
  const Pod pod = web_pod("incoming");
  using Matching = std::unordered_map<std::string, int64_t>;
  const DomainCounts filter = count_domains(pod, {c}, cluster, CountingRequest{true, EmptyDomains::count, false, true});
  CHECK(filter.matching[0] == Matching{{"n1", 2}, {"n2", 1}});
  const DomainCounts score = count_domains(pod, {c}, cluster, CountingRequest{true, EmptyDomains::drop, true, false});
  CHECK(score.matching[0] == Matching{{"n1", 2}});
  CHECK(score.admitted_domains == std::vector<size_t>{2});
}
