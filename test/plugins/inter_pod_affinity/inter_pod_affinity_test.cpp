// InterPodAffinity, table-driven. Most cases are ported from upstream
// kube-scheduler (pkg/scheduler/framework/plugins/interpodaffinity:
// filtering_test.go TestRequiredAffinitySingleNode / TestRequiredAffinityMultipleNodes,
// scoring_test.go TestPreferredAffinity / TestPreferredAffinityWithHardPodAffinitySymmetricWeight).
// A namespaceSelector reads the namespaces' labels: kNamespaces below.

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "plugins/framework/cluster_pods.hpp"
#include "plugins/framework/affinity_term.hpp"
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::affinity;
using namespace troupe::plugins::testing;
using Op = LabelRequirement::Op;

namespace {

const std::string kExisting = "node(s) didn't satisfy existing pods anti-affinity rules";
const std::string kAffinity = "node(s) didn't match pod affinity rules";
const std::string kAnti = "node(s) didn't match pod anti-affinity rules";

std::string code(Code c) { return std::string(to_string(c)); }

LabelSelector selector(std::vector<LabelRequirement> requirements) { return LabelSelector(std::move(requirements)); }
LabelSelector in(const std::string& key, std::vector<std::string> values) {
  return selector({requirement(key, Op::in, std::move(values))});
}
LabelSelector not_in(const std::string& key, std::vector<std::string> values) {
  return selector({requirement(key, Op::not_in, std::move(values))});
}
LabelSelector exists(const std::string& key) { return selector({requirement(key, Op::exists)}); }

struct Term {
  PodAffinityTerm t;
  Term(std::optional<LabelSelector> labels, std::string key) {
    t.label_selector = std::move(labels);
    t.topology_key = std::move(key);
  }
  Term& namespaces(std::vector<std::string> ns) { t.namespaces = std::move(ns); return *this; }
  Term& namespace_selector(LabelSelector s) { t.namespace_selector = std::move(s); return *this; }
  Term& match_label_keys(std::vector<std::string> keys) { t.match_label_keys = std::move(keys); return *this; }
  Term& mismatch_label_keys(std::vector<std::string> keys) { t.mismatch_label_keys = std::move(keys); return *this; }
  operator PodAffinityTerm() const { return t; }  // NOLINT: reads as a term in tables
};

/// A pod with labels and pod (anti-)affinity terms.
class APod {
 public:
  explicit APod(std::string name = "p", std::string ns = "default")
      : pod_(PodBuilder(std::move(name), std::move(ns)).pod()) {}
  APod& labels(Labels l) { pod_.meta.labels = std::move(l); return *this; }
  APod& affinity(PodAffinityTerm t) { side(false).required.push_back(std::move(t)); return *this; }
  APod& anti_affinity(PodAffinityTerm t) { side(true).required.push_back(std::move(t)); return *this; }
  APod& preferred_affinity(int32_t w, PodAffinityTerm t) {
    side(false).preferred.push_back({w, std::move(t)});
    return *this;
  }
  APod& preferred_anti_affinity(int32_t w, PodAffinityTerm t) {
    side(true).preferred.push_back({w, std::move(t)});
    return *this;
  }
  Pod pod() const { return pod_; }
  operator Pod() const { return pod_; }  // NOLINT

 private:
  PodAffinity& side(bool anti) {
    if (!pod_.spec.affinity) pod_.spec.affinity = Affinity{};
    auto& s = anti ? pod_.spec.affinity->pod_anti_affinity : pod_.spec.affinity->pod_affinity;
    if (!s) s = PodAffinity{};
    return *s;
  }
  Pod pod_;
};

Node node(const std::string& name, Labels labels) {
  Node n = NodeBuilder(name).node();
  n.meta.labels = std::move(labels);
  return n;
}

struct Placed {
  Pod pod;
  std::string node;
};
/// Names the placed pods uniquely (their uids come from the names).
std::vector<Placed> placed(std::vector<Placed> pods) {
  static int serial = 0;
  for (auto& p : pods) {
    p.pod.meta.name = "existing-" + std::to_string(serial++);
    p.pod.meta.uid = "uid-" + p.pod.meta.name;
  }
  return pods;
}

std::shared_ptr<const ClusterPods> cluster_of(const std::vector<Node>& nodes, const std::vector<Placed>& pods) {
  auto cluster = std::make_shared<ClusterPods>();
  for (const auto& n : nodes) cluster->upsert_node(std::make_shared<const Node>(n));
  for (const auto& p : pods) cluster->add_pod(PodInfo::make(p.pod), p.node);
  return cluster;
}

/// The cluster's namespaces and their labels, as the tests' namespaceSelectors see them.
const NamespaceLabels kNamespaces = {{"default", {}},
                                     {"team-a", {{"team", "a"}}},
                                     {"team-b", {{"team", "b"}}},
                                     {"t1-x", {{"team", "t1"}}},
                                     {"t1-y", {{"team", "t1"}}},
                                     {"subteam1.team1", {{"team", "team1"}}},
                                     {"subteam2.team1", {{"team", "team1"}}},
                                     {"elsewhere", {}}};

/// The terms of the pod being scheduled, resolved against kNamespaces.
PodTerms must_resolve(const Pod& pod) { return resolve_terms(pod, &kNamespaces); }
const Labels& namespace_of(const Pod& pod) { return labels_of_namespace(&kNamespaces, pod.meta.namespace_name); }

std::shared_ptr<const InterPodAffinity> make_plugin(const std::string& yaml = "") {
  auto plugin = InterPodAffinity::make(yaml.empty() ? YAML::Node() : YAML::Load(yaml));
  if (!plugin) FAIL(plugin.message());
  return std::dynamic_pointer_cast<const InterPodAffinity>(*plugin);
}

struct Want {
  Code code;
  std::string reason;
};
const Want kOk{Code::success, ""};
const Want kNoAffinity{Code::unschedulable_and_unresolvable, kAffinity};
const Want kNoAnti{Code::unschedulable, kAnti};
const Want kNoExisting{Code::unschedulable, kExisting};

struct FilterCase {
  const char* name;
  Pod pod;
  std::vector<Node> nodes;
  std::vector<Placed> existing;
  std::vector<Want> want;  // per node
  bool nothing_to_check = false;
};

void run_filter_cases(const std::vector<FilterCase>& cases) {
  for (const auto& c : cases) {
    INFO(c.name);
    REQUIRE(c.want.size() == c.nodes.size());
    auto cluster = cluster_of(c.nodes, c.existing);
    auto counts = count_for_filter(c.pod, must_resolve(c.pod), *cluster, namespace_of(c.pod));
    CHECK(nothing_to_filter(counts) == c.nothing_to_check);
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      INFO(c.nodes[i].meta.name);
      PluginStatus status = filter_node(counts, c.pod, c.nodes[i].meta.labels);
      CHECK(code(status.code) == code(c.want[i].code));
      if (c.want[i].reason.empty()) {
        CHECK(status.reasons.empty());
      } else {
        CHECK(status.reasons == std::vector<std::string>{c.want[i].reason});
      }
    }
  }
}

}  // namespace

TEST_CASE("resolve_term: namespaces, namespaceSelector and label keys", "[inter_pod_affinity]") {
  struct Probe {
    std::string ns;
    Labels labels;
    bool matches;
  };
  struct Case {
    const char* name;
    PodAffinityTerm term;
    Labels owner_labels;
    bool placed;  // a placed pod's term (its selector kept), else the pod being scheduled's (resolved)
    std::set<std::string> namespaces;
    bool all_namespaces;
    std::vector<Probe> probes;
  };
  const Labels web = {{"app", "web"}};
  const std::vector<Case> cases = {
      {"no namespaces and no namespaceSelector: the owner's own namespace", Term(in("app", {"web"}), "zone"), {}, false,
       {"team-a"}, false,
       {{"team-a", web, true}, {"team-b", web, false}, {"team-a", {{"app", "db"}}, false}}},
      {"a namespaces list replaces the owner's namespace", Term(in("app", {"web"}), "zone").namespaces({"x", "y"}), {},
       false, {"x", "y"}, false, {{"x", web, true}, {"y", web, true}, {"team-a", web, false}}},
      {"namespaceSelector {} selects every namespace", Term(in("app", {"web"}), "zone").namespace_selector({}), {},
       false, {}, true, {{"team-a", web, true}, {"anything", web, true}, {"anything", {{"app", "db"}}, false}}},
      {"namespaceSelector {} with a namespaces list: still every namespace",
       Term(in("app", {"web"}), "zone").namespaces({"x"}).namespace_selector({}), {}, false, {"x"}, true,
       {{"team-a", web, true}, {"x", web, true}}},
      {"a null namespaceSelector is an absent one",
       Term(in("app", {"web"}), "zone").namespace_selector(LabelSelector::nothing()), {}, false, {"team-a"}, false,
       {{"team-a", web, true}, {"team-b", web, false}}},
      {"the pod's namespaceSelector resolves to the namespaces whose labels it matches",
       Term(in("app", {"web"}), "zone").namespace_selector(in("team", {"t1"})), {}, false, {"t1-x", "t1-y"}, false,
       {{"t1-x", web, true}, {"t1-y", web, true}, {"team-a", web, false}, {"unknown", web, false}}},
      {"... added to its namespaces list, without the owner's own namespace",
       Term(in("app", {"web"}), "zone").namespaces({"x"}).namespace_selector(in("team", {"b"})), {}, false,
       {"team-b", "x"}, false, {{"team-b", web, true}, {"x", web, true}, {"team-a", web, false}}},
      {"a namespaceSelector no namespace matches selects no pod",
       Term(in("app", {"web"}), "zone").namespace_selector(in("team", {"nobody"})), {}, false, {}, false,
       {{"team-a", web, false}, {"t1-x", web, false}}},
      {"a placed pod's namespaceSelector matches a pod by the labels of the pod's namespace",
       Term(in("app", {"web"}), "zone").namespace_selector(in("team", {"t1"})), {}, true, {}, false,
       {{"t1-x", web, true}, {"team-a", web, false}, {"unknown", web, false}, {"t1-y", {{"app", "db"}}, false}}},
      {"matchLabelKeys adds `key In (owner's value)`",
       Term(exists("app"), "zone").match_label_keys({"version", "absent"}), {{"version", "v2"}}, false, {"team-a"},
       false,
       {{"team-a", {{"app", "x"}, {"version", "v2"}}, true},
        {"team-a", {{"app", "x"}, {"version", "v1"}}, false},
        {"team-a", {{"app", "x"}}, false}}},
      {"mismatchLabelKeys adds `key NotIn (owner's value)`",
       Term(exists("app"), "zone").mismatch_label_keys({"tenant"}), {{"tenant", "a"}}, false, {"team-a"}, false,
       {{"team-a", {{"app", "x"}, {"tenant", "b"}}, true},
        {"team-a", {{"app", "x"}, {"tenant", "a"}}, false},
        {"team-a", {{"app", "x"}}, true}}},
      {"an empty labelSelector with matchLabelKeys selects the owner's value",
       Term(LabelSelector{}, "zone").match_label_keys({"version"}), {{"version", "v2"}}, false, {"team-a"}, false,
       {{"team-a", {{"version", "v2"}}, true}, {"team-a", {{"version", "v1"}}, false}, {"team-a", {}, false}}},
      {"an empty labelSelector selects every pod of the namespaces", Term(LabelSelector{}, "zone"), {}, false,
       {"team-a"}, false, {{"team-a", {}, true}, {"team-a", web, true}, {"team-b", web, false}}},
      {"a nil labelSelector selects nothing, matchLabelKeys or not",
       Term(std::nullopt, "zone").match_label_keys({"version"}), {{"version", "v2"}}, false, {"team-a"}, false,
       {{"team-a", {{"version", "v2"}}, false}, {"team-a", {}, false}}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    Pod owner = APod("owner", "team-a").labels(c.owner_labels);
    ResolvedTerm resolved = resolve_term(c.term, owner, 7, c.placed ? nullptr : &kNamespaces);
    CHECK(resolved.topology_key == "zone");
    CHECK(resolved.weight == 7);
    CHECK(resolved.namespaces == c.namespaces);
    CHECK(resolved.all_namespaces == c.all_namespaces);
    CHECK(resolved.namespace_selector.has_value() == c.placed);  // the one placed case has a selector
    for (const auto& probe : c.probes) {
      INFO("probe in " << probe.ns);
      Pod target = APod("target", probe.ns).labels(probe.labels);
      CHECK(resolved.matches(target, labels_of_namespace(&kNamespaces, probe.ns)) == probe.matches);
    }
  }
}

TEST_CASE("selects_namespaces_by_labels: a namespaceSelector with requirements in any term", "[inter_pod_affinity]") {
  const PodAffinityTerm by_labels = Term(in("app", {"web"}), "zone").namespace_selector(in("team", {"t1"}));
  const PodAffinityTerm every = Term(in("app", {"web"}), "zone").namespace_selector({});
  const PodAffinityTerm nil = Term(in("app", {"web"}), "zone").namespace_selector(LabelSelector::nothing());
  const PodAffinityTerm listed = Term(in("app", {"web"}), "zone").namespaces({"x"});
  struct Case {
    const char* name;
    Pod pod;
    bool want;
  };
  const std::vector<Case> cases = {
      {"required affinity", APod().affinity(by_labels), true},
      {"required anti-affinity", APod().anti_affinity(listed).anti_affinity(by_labels), true},
      {"preferred affinity", APod().preferred_affinity(3, by_labels), true},
      {"preferred anti-affinity", APod().preferred_anti_affinity(3, by_labels), true},
      {"namespaceSelector {}", APod().affinity(every), false},
      {"a nil namespaceSelector", APod().anti_affinity(nil), false},
      {"a namespaces list", APod().affinity(listed), false},
      {"no terms", APod(), false},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(selects_namespaces_by_labels(c.pod) == c.want);
  }
}

TEST_CASE("resolve_terms sorts the four lists; matches_all needs every term", "[inter_pod_affinity]") {
  Pod pod = APod()
                .affinity(Term(exists("a"), "zone"))
                .affinity(Term(exists("b"), "zone"))
                .anti_affinity(Term(exists("c"), "zone"))
                .preferred_affinity(5, Term(exists("d"), "zone"))
                .preferred_anti_affinity(9, Term(exists("e"), "region"));
  PodTerms terms = must_resolve(pod);
  REQUIRE(terms.required_affinity.size() == 2);
  REQUIRE(terms.required_anti_affinity.size() == 1);
  REQUIRE(terms.preferred_affinity.size() == 1);
  REQUIRE(terms.preferred_anti_affinity.size() == 1);
  CHECK(terms.required_affinity[0].weight == 0);
  CHECK(terms.preferred_affinity[0].weight == 5);
  CHECK(terms.preferred_anti_affinity[0].weight == 9);
  CHECK(terms.preferred_anti_affinity[0].topology_key == "region");

  struct Case {
    const char* name;
    Labels labels;
    bool all;
  };
  const std::vector<Case> cases = {
      {"both terms", {{"a", ""}, {"b", ""}}, true},
      {"one term only", {{"a", ""}}, false},
      {"none", {}, false},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(matches_all(terms.required_affinity, APod("t").labels(c.labels)) == c.all);
  }
  CHECK_FALSE(matches_all({}, APod("t").labels({{"a", ""}})));  // upstream: no terms match nothing
  CHECK(must_resolve(APod()).required_affinity.empty());
}

TEST_CASE("count_for_filter + filter_node: one node (upstream TestRequiredAffinitySingleNode)",
          "[inter_pod_affinity]") {
  const Labels scan = {{"service", "securityscan"}};
  const Labels s1 = {{"security", "S1"}};
  const std::vector<Node> node1 = {node("node1", {{"region", "r1"}, {"zone", "z11"}})};
  const std::vector<Placed> scan_on_node1 = placed({{APod().labels(scan), "node1"}});
  const std::vector<FilterCase> cases = {
      {"a pod without required terms, no existing pods", APod(), node1, {}, {kOk}, true},
      {"affinity In matches the existing pod",
       APod().labels(s1).affinity(Term(in("service", {"securityscan", "value2"}), "region")), node1, scan_on_node1,
       {kOk}},
      {"affinity NotIn matches the existing pod",
       APod().labels(s1).affinity(Term(not_in("service", {"securityscan3", "value3"}), "region")), node1,
       scan_on_node1, {kOk}},
      {"affinity does not match a pod of another namespace",
       APod().labels(s1).affinity(
           Term(in("service", {"securityscan", "value2"}), "region").namespaces({"DiffNameSpace"})),
       node1, placed({{APod("x", "ns").labels(scan), "node1"}}), {kNoAffinity}},
      {"affinity with an unmatching labelSelector",
       APod().labels(scan).affinity(Term(in("service", {"antivirusscan", "value2"}), "region")), node1,
       scan_on_node1, {kNoAffinity}},
      {"two affinity terms with different operators, both satisfied",
       APod()
           .labels(s1)
           .affinity(Term(selector({requirement("service", Op::exists), requirement("wrongkey", Op::does_not_exist)}),
                          "region"))
           .affinity(Term(selector({requirement("service", Op::in, {"securityscan"}),
                                    requirement("service", Op::not_in, {"WrongValue"})}),
                          "region")),
       node1, scan_on_node1, {kOk}},
      {"the requirements of a selector are ANDed: one does not match",
       APod()
           .labels(s1)
           .affinity(Term(selector({requirement("service", Op::exists), requirement("wrongkey", Op::does_not_exist)}),
                          "region"))
           .affinity(Term(selector({requirement("service", Op::in, {"securityscan2"}),
                                    requirement("service", Op::not_in, {"WrongValue"})}),
                          "region")),
       node1, scan_on_node1, {kNoAffinity}},
      {"affinity and anti-affinity both satisfied",
       APod()
           .labels(s1)
           .affinity(Term(in("service", {"securityscan", "value2"}), "region"))
           .anti_affinity(Term(in("service", {"antivirusscan", "value2"}), "node")),
       node1, scan_on_node1, {kOk}},
      {"affinity, anti-affinity and the existing pod's anti-affinity satisfied",
       APod()
           .labels(s1)
           .affinity(Term(in("service", {"securityscan", "value2"}), "region"))
           .anti_affinity(Term(in("service", {"antivirusscan", "value2"}), "node")),
       node1,
       placed({{APod().labels(scan).anti_affinity(Term(in("service", {"antivirusscan", "value2"}), "node")), "node1"}}),
       {kOk}},
      {"affinity satisfied, anti-affinity not",
       APod()
           .labels(s1)
           .affinity(Term(in("service", {"securityscan", "value2"}), "region"))
           .anti_affinity(Term(in("service", {"securityscan", "value2"}), "zone")),
       node1, scan_on_node1, {kNoAnti}},
      {"affinity and anti-affinity satisfied, the existing pod's anti-affinity not (symmetry)",
       APod()
           .labels(scan)
           .affinity(Term(in("service", {"securityscan", "value2"}), "region"))
           .anti_affinity(Term(in("service", {"antivirusscan", "value2"}), "node")),
       node1,
       placed({{APod().labels(scan).anti_affinity(Term(in("service", {"securityscan", "value2"}), "zone")), "node1"}}),
       {kNoExisting}},
      {"the only matching pod is on a node not known yet; the pod does not match its own NotIn term",
       APod().labels(scan).affinity(Term(not_in("service", {"securityscan", "value2"}), "region")), node1,
       placed({{APod().labels(scan), "node2"}}), {kNoAffinity}},
      {"the existing pod's anti-affinity holds though the pod has no terms", APod().labels(scan), node1,
       placed({{APod().labels(scan).anti_affinity(Term(in("service", {"securityscan", "value2"}), "zone")), "node1"}}),
       {kNoExisting}},
      {"the existing pod's anti-affinity does not match the pod: nothing to check", APod().labels(scan), node1,
       placed({{APod().labels(scan).anti_affinity(Term(not_in("service", {"securityscan", "value2"}), "zone")),
                "node1"}}),
       {kOk}, true},
      {"the existing pod's anti-affinity is satisfied, the pod's own is not",
       APod()
           .labels(scan)
           .anti_affinity(Term(exists("service"), "region"))
           .anti_affinity(Term(exists("security"), "region")),
       node1, placed({{APod().labels(s1).anti_affinity(Term(exists("security"), "zone")), "node1"}}), {kNoAnti}},
      {"anti-affinity symmetry a1: they partially match each other",
       APod()
           .labels(scan)
           .anti_affinity(Term(exists("service"), "zone"))
           .anti_affinity(Term(exists("security"), "zone")),
       node1, placed({{APod().labels(s1).anti_affinity(Term(exists("security"), "zone")), "node1"}}), {kNoAnti}},
      {"anti-affinity symmetry a2: they partially match each other",
       APod().labels(s1).anti_affinity(Term(exists("security"), "zone")), node1,
       placed({{APod()
                    .labels(scan)
                    .anti_affinity(Term(exists("service"), "zone"))
                    .anti_affinity(Term(exists("security"), "zone")),
                "node1"}}),
       {kNoExisting}},
      {"anti-affinity with namespaceSelector {} matches a pod of any namespace",
       APod("p", "subteam1.team1")
           .labels(s1)
           .anti_affinity(Term(in("service", {"securityscan", "value2"}), "zone").namespace_selector({})),
       node1, placed({{APod("x", "subteam2.team1").labels(scan), "node1"}}), {kNoAnti}},
      {"anti-affinity looks in the pod's own namespace by default",
       APod("p", "subteam1.team1").labels(s1).anti_affinity(Term(in("service", {"securityscan", "value2"}), "zone")),
       node1, placed({{APod("x", "subteam2.team1").labels(scan), "node1"}}), {kOk}},
      {"a placed pod's namespaceSelector matches a pod of a namespace with those labels",
       APod("p", "team-a").labels(scan), node1,
       placed({{APod("x", "elsewhere")
                    .anti_affinity(Term(exists("service"), "zone").namespace_selector(in("team", {"a"}))),
                "node1"}}),
       {kNoExisting}},
      {"a placed pod's namespaceSelector does not match a pod of another namespace",
       APod("p", "elsewhere").labels(scan), node1,
       placed({{APod("x", "team-a")
                    .anti_affinity(Term(exists("service"), "zone").namespace_selector(in("team", {"a"}))),
                "node1"}}),
       {kOk}, true},
      {"anti-affinity with a namespaceSelector matching the placed pod's namespace (upstream)",
       APod("p", "subteam1.team1")
           .labels(s1)
           .anti_affinity(Term(in("service", {"securityscan", "value2"}), "zone")
                              .namespace_selector(in("team", {"team1"}))),
       node1, placed({{APod("x", "subteam2.team1").labels(scan), "node1"}}), {kNoAnti}},
      {"anti-affinity with a namespaceSelector not matching the placed pod's namespace (upstream)",
       APod("p", "subteam1.team1")
           .labels(s1)
           .anti_affinity(Term(in("service", {"securityscan", "value2"}), "zone")
                              .namespace_selector(in("team", {"team2"}))),
       node1, placed({{APod("x", "subteam2.team1").labels(scan), "node1"}}), {kOk}},
      {"the node lacks the affinity term's key", APod().labels(scan).affinity(Term(exists("service"), "rack")), node1,
       scan_on_node1, {kNoAffinity}},
  };
  run_filter_cases(cases);
}

TEST_CASE("count_for_filter + filter_node: several nodes (upstream TestRequiredAffinityMultipleNodes)",
          "[inter_pod_affinity]") {
  const Labels china = {{"region", "China"}};
  const Labels china_az1 = {{"region", "China"}, {"az", "az1"}};
  const Labels india = {{"region", "India"}};
  const std::vector<Node> regions = {node("node1", china), node("node2", china_az1), node("node3", india)};
  const std::vector<Node> zones = {node("nodeA", {{"zone", "az1"}, {"hostname", "h1"}}),
                                   node("nodeB", {{"zone", "az2"}, {"hostname", "h2"}})};
  const std::vector<Node> one_region = {node("nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}),
                                        node("nodeB", {{"region", "r1"}, {"zone", "z2"}, {"hostname", "nodeB"}})};
  const std::vector<Node> abc = {node("nodeA", china), node("nodeB", china_az1), node("nodeC", india)};
  const Labels foo_bar = {{"foo", "bar"}};
  const Labels group = {{"foo", "bar"}, {"service", "securityscan"}};

  const std::vector<FilterCase> cases = {
      {"all nodes sharing the region of a matching pod fit", APod().affinity(Term(in("foo", {"bar"}), "region")),
       regions, placed({{APod().labels(foo_bar), "node1"}}), {kOk, kOk, kNoAffinity}},
      {"the first pod of a group goes anywhere with the keys when nothing matches its terms yet",
       APod()
           .labels(group)
           .affinity(Term(in("foo", {"bar"}), "zone"))
           .affinity(Term(in("service", {"securityscan"}), "zone")),
       zones, placed({{APod().labels(foo_bar), "nodeA"}}), {kOk, kOk}},
      {"the first pod of a group still needs the topology keys",
       APod()
           .labels(group)
           .affinity(Term(in("foo", {"bar"}), "zone"))
           .affinity(Term(in("service", {"securityscan"}), "zone")),
       {node("nodeA", {{"zoneLabel", "az1"}}), node("nodeB", {{"zoneLabel", "az2"}})},
       placed({{APod().labels(foo_bar), "nodeA"}}), {kNoAffinity, kNoAffinity}},
      {"once the group has a pod, the others must join its zone",
       APod().labels(foo_bar).affinity(Term(in("foo", {"bar"}), "zone")), zones,
       placed({{APod().labels(foo_bar), "nodeA"}}), {kOk, kNoAffinity}},
      {"a pod not matching its own terms is not the first of a group",
       APod().labels({{"foo", "other"}}).affinity(Term(in("foo", {"bar"}), "zone")), zones, {},
       {kNoAffinity, kNoAffinity}},
      {"anti-affinity: nodes sharing the region of a matching pod are rejected",
       APod().anti_affinity(Term(in("foo", {"abc"}), "region")), one_region,
       placed({{APod().labels({{"foo", "abc"}}), "nodeA"}}), {kNoAnti, kNoAnti}},
      {"anti-affinity matches a pod when any of its terms does",
       APod()
           .anti_affinity(Term(in("foo", {"abc"}), "region"))
           .anti_affinity(Term(in("service", {"securityscan"}), "zone")),
       one_region, placed({{APod().labels({{"foo", "abc"}, {"service", "securityscan"}}), "nodeA"}}),
       {kNoAnti, kNoAnti}},
      {"anti-affinity: another region fits", APod().anti_affinity(Term(in("foo", {"abc"}), "region")), abc,
       placed({{APod().labels({{"foo", "abc"}}), "nodeA"}}), {kNoAnti, kNoAnti, kOk}},
      {"anti-affinity: the existing pod whose anti-affinity looks in its own namespace does not count",
       APod("p", "NS1").labels({{"foo", "123"}}).anti_affinity(Term(in("foo", {"bar"}), "region")), abc,
       placed({{APod("x", "NS1").labels(foo_bar), "nodeA"},
               {APod("y", "NS2").anti_affinity(Term(in("foo", {"123"}), "region")), "nodeC"}}),
       {kNoAnti, kNoAnti, kOk}},
      {"an existing pod's anti-affinity on a key no node has: nothing to check", APod().labels({{"foo", ""}}),
       one_region, placed({{APod().anti_affinity(Term(exists("foo"), "invalid-node-label")), "nodeA"}}), {kOk, kOk},
       true},
      {"the pod's anti-affinity on a key no node has", APod().anti_affinity(Term(exists("foo"), "invalid-node-label")),
       one_region, placed({{APod().labels({{"foo", ""}}), "nodeA"}}), {kOk, kOk}},
      {"existing pods' anti-affinity: each term blocks its own domain", APod().labels({{"foo", ""}, {"bar", ""}}),
       one_region,
       placed({{APod().anti_affinity(Term(exists("foo"), "zone")), "nodeA"},
               {APod().anti_affinity(Term(exists("bar"), "region")), "nodeA"}}),
       {kNoExisting, kNoExisting}},
      {"existing pods' anti-affinity: a zone term blocks only its zone", APod().labels({{"foo", ""}}), one_region,
       placed({{APod().anti_affinity(Term(exists("foo"), "zone")), "nodeA"}}), {kNoExisting, kOk}},
      {"affinity: all terms must match the same placed pod",
       APod().affinity(Term(exists("foo"), "region")).affinity(Term(exists("bar"), "zone")), one_region,
       placed({{APod().labels({{"foo", ""}}), "nodeA"}, {APod().labels({{"bar", ""}}), "nodeB"}}),
       {kNoAffinity, kNoAffinity}},
      {"affinity: one placed pod matching all terms; the node needs both domains",
       APod().affinity(Term(exists("foo"), "region")).affinity(Term(exists("bar"), "zone")), one_region,
       placed({{APod().labels({{"foo", ""}, {"bar", ""}}), "nodeA"}}), {kOk, kNoAffinity}},
      {"terminating pods still count for affinity (upstream counts every pod on the node)",
       APod().affinity(Term(in("foo", {"bar"}), "zone")), zones,
       placed({{[&] {
                  Pod p = APod().labels(foo_bar);
                  p.meta.deletion_timestamp = timestamp_now();
                  return p;
                }(),
                "nodeA"}}),
       {kOk, kNoAffinity}},
      {"one pod per host (hostname anti-affinity)",
       APod().labels({{"app", "web"}}).anti_affinity(Term(in("app", {"web"}), "hostname")), zones,
       placed({{APod().labels({{"app", "web"}}), "nodeA"}}), {kNoAnti, kOk}},
  };
  run_filter_cases(cases);
}

TEST_CASE("filter_node reports the first failing check in upstream's order: affinity, anti-affinity, existing pods",
          "[inter_pod_affinity]") {
  // upstream Filter: satisfyPodAffinity → satisfyPodAntiAffinity → satisfyExistingPodsAntiAffinity.
  const std::vector<Node> node1 = {node("node1", {{"region", "r1"}, {"zone", "z11"}})};
  const std::vector<Node> zones = {node("nodeA", {{"zone", "z1"}}), node("nodeB", {{"zone", "z2"}})};
  const std::vector<FilterCase> cases = {
      {"anti-affinity symmetry b1: both the pod's and the existing pod's anti-affinity fail",
       APod()
           .labels({{"abc", ""}, {"xyz", ""}})
           .anti_affinity(Term(exists("abc"), "zone"))
           .anti_affinity(Term(exists("def"), "zone")),
       node1,
       placed({{APod()
                    .labels({{"def", ""}, {"xyz", ""}})
                    .anti_affinity(Term(exists("abc"), "zone"))
                    .anti_affinity(Term(exists("def"), "zone")),
                "node1"}}),
       {kNoAnti}},
      {"anti-affinity symmetry b2: both the pod's and the existing pod's anti-affinity fail",
       APod()
           .labels({{"def", ""}, {"xyz", ""}})
           .anti_affinity(Term(exists("abc"), "zone"))
           .anti_affinity(Term(exists("def"), "zone")),
       node1,
       placed({{APod()
                    .labels({{"abc", ""}, {"xyz", ""}})
                    .anti_affinity(Term(exists("abc"), "zone"))
                    .anti_affinity(Term(exists("def"), "zone")),
                "node1"}}),
       {kNoAnti}},
      {"affinity fails (unresolvable) where an existing pod's anti-affinity also fails",
       APod().labels({{"app", "web"}}).affinity(Term(exists("db"), "zone")), zones,
       placed({{APod().labels({{"app", "cache"}}).anti_affinity(Term(in("app", {"web"}), "zone")), "nodeA"},
               {APod().labels({{"db", ""}}), "nodeB"}}),
       {kNoAffinity, kOk}},
  };
  run_filter_cases(cases);
}

TEST_CASE("score_topologies + score_node + normalize: upstream TestPreferredAffinity", "[inter_pod_affinity]") {
  const Labels china = {{"region", "China"}};
  const Labels india = {{"region", "India"}};
  const Labels az1 = {{"az", "az1"}};
  const Labels az2 = {{"az", "az2"}};
  const Labels china_az1 = {{"region", "China"}, {"az", "az1"}};
  const Labels s1 = {{"security", "S1"}};
  const Labels s2 = {{"security", "S2"}};

  // The affinities of upstream's test, as pods with those terms.
  auto stay_with_s1_in_region = [](APod p) { return p.preferred_affinity(5, Term(in("security", {"S1"}), "region")); };
  auto stay_with_s2_in_region = [](APod p) { return p.preferred_affinity(6, Term(in("security", {"S2"}), "region")); };
  auto affinity3 = [](APod p) {
    return p
        .preferred_affinity(8, Term(selector({requirement("security", Op::not_in, {"S1"}),
                                              requirement("security", Op::in, {"S2"})}),
                                    "region"))
        .preferred_affinity(2, Term(selector({requirement("security", Op::exists),
                                              requirement("wrongkey", Op::does_not_exist)}),
                                    "region"));
  };
  auto hard_affinity = [](APod p) {
    return p.affinity(Term(in("security", {"S1", "value2"}), "region"))
        .affinity(Term(selector({requirement("security", Op::exists), requirement("wrongkey", Op::does_not_exist)}),
                       "region"));
  };
  auto away_from_s1_in_az = [](APod p) { return p.preferred_anti_affinity(5, Term(in("security", {"S1"}), "az")); };
  auto away_from_s2_in_az = [](APod p) { return p.preferred_anti_affinity(5, Term(in("security", {"S2"}), "az")); };
  auto with_s1_away_from_s2 = [](APod p) {
    return p.preferred_affinity(8, Term(in("security", {"S1"}), "region"))
        .preferred_anti_affinity(5, Term(in("security", {"S2"}), "az"));
  };
  auto nodes = [](std::vector<Labels> labels) {
    std::vector<Node> out;
    for (size_t i = 0; i < labels.size(); ++i) out.push_back(node("node" + std::to_string(i + 1), labels[i]));
    return out;
  };

  struct Case {
    const char* name;
    Pod pod;
    std::vector<Node> nodes;
    std::vector<Placed> existing;
    std::vector<int64_t> want;  // normalized per node; empty: nothing to score (upstream's Skip)
    bool ignore_existing_preferred = false;
  };
  const std::vector<Case> cases = {
      {"no affinity anywhere: nothing to score", APod().labels(s1), nodes({china, india, az1}), {}, {}},
      {"affinity: the node in the topology of a matching pod scores high", stay_with_s1_in_region(APod().labels(s1)),
       nodes({china, india, az1}),
       placed({{APod().labels(s1), "node1"}, {APod().labels(s2), "node2"}, {APod().labels(s1), "node3"}}),
       {100, 0, 0}},
      {"affinity: every node with the same topology value scores the same", stay_with_s1_in_region(APod()),
       nodes({china, china_az1, india}), placed({{APod().labels(s1), "node1"}}), {100, 100, 0}},
      {"affinity: the region with more matching pods scores high", stay_with_s2_in_region(APod().labels(s1)),
       nodes({china, india, china, china, india}),
       placed({{APod().labels(s2), "node1"}, {APod().labels(s2), "node1"}, {APod().labels(s2), "node2"},
               {APod().labels(s2), "node3"}, {APod().labels(s2), "node4"}, {APod().labels(s2), "node5"}}),
       {100, 0, 100, 100, 0}},
      {"affinity: different label operators and weights", affinity3(APod().labels(s1)), nodes({china, india, az1}),
       placed({{APod().labels(s1), "node1"}, {APod().labels(s2), "node2"}, {APod().labels(s1), "node3"}}),
       {20, 100, 0}},
      {"affinity symmetry: existing pods' preferred terms", APod().labels(s2), nodes({china, india, az1}),
       placed({{stay_with_s1_in_region(APod().labels(s1)), "node1"},
               {stay_with_s2_in_region(APod().labels(s2)), "node2"}}),
       {0, 100, 0}},
      {"affinity symmetry: existing pods' required terms weigh hardPodAffinityWeight", APod().labels(s1),
       nodes({china, india, az1}),
       placed({{hard_affinity(APod().labels(s1)), "node1"}, {hard_affinity(APod().labels(s2)), "node2"}}),
       {100, 100, 0}},
      {"anti-affinity: the node with a matching pod scores low", away_from_s1_in_az(APod().labels(s1)),
       nodes({az1, china}), placed({{APod().labels(s1), "node1"}, {APod().labels(s2), "node2"}}), {0, 100}},
      {"anti-affinity: a node without the topology key scores high", away_from_s1_in_az(APod().labels(s1)),
       nodes({az1, china}), placed({{APod().labels(s1), "node1"}, {APod().labels(s1), "node2"}}), {0, 100}},
      {"anti-affinity: more matching pods score lower", away_from_s1_in_az(APod().labels(s1)), nodes({az1, india}),
       placed({{APod().labels(s1), "node1"}, {APod().labels(s1), "node1"}, {APod().labels(s2), "node2"}}), {0, 100}},
      {"anti-affinity symmetry: existing pods' preferred anti-affinity", APod().labels(s2), nodes({az1, az2}),
       placed({{away_from_s2_in_az(APod().labels(s1)), "node1"}, {away_from_s1_in_az(APod().labels(s2)), "node2"}}),
       {0, 100}},
      {"affinity and anti-affinity", with_s1_away_from_s2(APod().labels(s1)), nodes({china, az1}),
       placed({{APod().labels(s1), "node1"}, {APod().labels(s1), "node2"}}), {100, 0}},
      {"affinity and anti-affinity, the pods of one service", with_s1_away_from_s2(APod().labels(s1)),
       nodes({china_az1, india, china, china, india}),
       placed({{APod().labels(s1), "node1"}, {APod().labels(s1), "node1"}, {APod().labels(s1), "node2"},
               {APod().labels(s1), "node3"}, {APod().labels(s1), "node3"}, {APod().labels(s1), "node4"},
               {APod().labels(s1), "node5"}}),
       {100, 0, 100, 100, 0}},
      {"affinity, anti-affinity and symmetry together", with_s1_away_from_s2(APod().labels(s1)),
       nodes({china, az1, india, az2}),
       placed({{APod().labels(s1), "node1"}, {APod().labels(s2), "node2"}, {with_s1_away_from_s2(APod()), "node3"},
               {away_from_s1_in_az(APod()), "node4"}}),
       {100, 0, 100, 0}},
      {"only some nodes of a topology hold pods with affinity (upstream issue 82796)", APod().labels(s1),
       nodes({china, china}), placed({{APod().labels(s1), "node1"}, {with_s1_away_from_s2(APod()), "node2"}}),
       {0, 0}},
      {"ignorePreferredTermsOfExistingPods, the pod without preferred terms: nothing to score", APod().labels(s2),
       nodes({china, india}),
       placed({{with_s1_away_from_s2(APod().labels(s1)), "node1"},
               {stay_with_s2_in_region(APod().labels(s2)), "node2"}}),
       {}, true},
      {"existing pods' preferred terms count by default", APod().labels(s2), nodes({china, india}),
       placed({{with_s1_away_from_s2(APod().labels(s1)), "node1"},
               {stay_with_s2_in_region(APod().labels(s2)), "node2"}}),
       {0, 100}},
      {"the pod's preferred affinity looks in its own namespace by default", stay_with_s1_in_region(APod("p", "team1")),
       nodes({china, india}),
       placed({{APod("x", "team2").labels(s1), "node1"}, {APod("y", "team1").labels(s1), "node2"}}), {0, 100}},
      {"the pod's preferred affinity with a namespaces list",
       APod("p", "team1").preferred_affinity(5, Term(in("security", {"S1"}), "region").namespaces({"team2"})),
       nodes({china, india}),
       placed({{APod("x", "team2").labels(s1), "node1"}, {APod("y", "team1").labels(s1), "node2"}}), {100, 0}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    InterPodAffinityArgs args;
    args.ignore_preferred_terms_of_existing_pods = c.ignore_existing_preferred;
    auto cluster = cluster_of(c.nodes, c.existing);
    TopologyScores topologies = score_topologies(c.pod, must_resolve(c.pod), *cluster, args, namespace_of(c.pod));
    if (c.want.empty()) {
      CHECK(topologies.empty());
      continue;
    }
    std::vector<int64_t> scores;
    for (const auto& n : c.nodes) scores.push_back(score_node(topologies, n.meta.labels));
    normalize_affinity_scores(scores);
    CHECK(scores == c.want);
  }
}

TEST_CASE("score_topologies: hardPodAffinityWeight and ignorePreferredTermsOfExistingPods", "[inter_pod_affinity]") {
  const Labels china = {{"region", "China"}};
  const Labels india = {{"region", "India"}};
  const Labels service_s1 = {{"service", "S1"}};
  auto hard = [](APod p) { return p.affinity(Term(in("service", {"S1"}), "region")); };
  const std::vector<Node> nodes = {node("node1", china), node("node2", india), node("node3", {{"az", "az1"}})};
  const std::vector<Placed> two_hard = placed({{hard(APod()), "node1"}, {hard(APod()), "node2"}});
  // node1's pod requires the pod (hard weight); node2's pod prefers it with weight 3.
  const std::vector<Placed> hard_vs_soft =
      placed({{hard(APod()), "node1"}, {APod().preferred_affinity(3, Term(in("service", {"S1"}), "region")), "node2"}});
  const Labels s1 = {{"security", "S1"}};
  const Labels s2 = {{"security", "S2"}};

  struct Case {
    const char* name;
    Pod pod;
    std::vector<Placed> existing;
    InterPodAffinityArgs args;
    std::vector<int64_t> want;  // normalized per node; empty: nothing to score
  };
  const std::vector<Case> cases = {
      {"with default weight", APod().labels(service_s1), two_hard, {1, false}, {100, 100, 0}},
      {"with zero weight: nothing to score", APod().labels(service_s1), two_hard, {0, false}, {}},
      {"with no matching namespace: nothing to score", APod("p", "subteam1.team2").labels(service_s1), two_hard,
       {1, false}, {}},
      {"weight 1 loses to a preferred weight of 3", APod().labels(service_s1), hard_vs_soft, {1, false}, {33, 100, 0}},
      {"weight 10 beats a preferred weight of 3", APod().labels(service_s1), hard_vs_soft, {10, false}, {100, 30, 0}},
      {"ignorePreferredTermsOfExistingPods, the pod without preferred terms: nothing to score, required terms "
       "of existing pods included",
       APod().labels(service_s1), hard_vs_soft, {1, true}, {}},
      // upstream (scoring.go PreScore): the option only skips PreScore for a pod without preferred terms;
      // processExistingPod then counts existing pods' preferred terms whatever the option says.
      {"ignorePreferredTermsOfExistingPods, the pod with preferred terms: existing pods' preferred terms still count",
       APod().labels(service_s1).preferred_affinity(1, Term(in("nothing", {"x"}), "region")), hard_vs_soft,
       {1, true}, {33, 100, 0}},
      {"a placed pod's preferred term with a namespaceSelector counts the pod of a namespace it selects",
       APod("p", "team-b").labels(service_s1),
       placed({{APod("x", "elsewhere")
                    .preferred_affinity(4, Term(in("service", {"S1"}), "region").namespace_selector(in("team", {"b"}))),
                "node2"}}),
       {1, false}, {0, 100, 0}},
      {"... and not the pod of another namespace: nothing to score",
       APod("p", "team-a").labels(service_s1),
       placed({{APod("x", "elsewhere")
                    .preferred_affinity(4, Term(in("service", {"S1"}), "region").namespace_selector(in("team", {"b"}))),
                "node2"}}),
       {1, false}, {}},
      {"ignorePreferredTermsOfExistingPods, the pod with preferred terms: both sides' preferred terms count",
       APod().labels(s2).preferred_affinity(5, Term(in("security", {"S1"}), "region")),
       placed({{APod().labels(s1), "node1"},
               {APod().labels(s2).preferred_affinity(6, Term(in("security", {"S2"}), "region")), "node2"}}),
       {1, true}, {83, 100, 0}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto cluster = cluster_of(nodes, c.existing);
    TopologyScores topologies = score_topologies(c.pod, must_resolve(c.pod), *cluster, c.args, namespace_of(c.pod));
    if (c.want.empty()) {
      CHECK(topologies.empty());
      continue;
    }
    std::vector<int64_t> scores;
    for (const auto& n : nodes) scores.push_back(score_node(topologies, n.meta.labels));
    normalize_affinity_scores(scores);
    CHECK(scores == c.want);
  }
}

TEST_CASE("score_node sums the node's domains; normalize_affinity_scores is min-max", "[inter_pod_affinity]") {
  TopologyScores topologies = {{"region", {{"China", 8}, {"India", -3}}}, {"az", {{"az1", -5}}}};
  struct NodeCase {
    const char* name;
    Labels labels;
    int64_t raw;
  };
  const std::vector<NodeCase> node_cases = {
      {"region only", {{"region", "China"}}, 8},
      {"region and az", {{"region", "China"}, {"az", "az1"}}, 3},
      {"negative", {{"region", "India"}}, -3},
      {"a value not scored", {{"region", "Mars"}, {"az", "az2"}}, 0},
      {"no labels", {}, 0},
  };
  for (const auto& c : node_cases) {
    INFO(c.name);
    CHECK(score_node(topologies, c.labels) == c.raw);
  }
  struct Case {
    const char* name;
    std::vector<int64_t> raw;
    std::vector<int64_t> want;
  };
  const std::vector<Case> cases = {
      {"no nodes", {}, {}},
      {"all equal: 0", {3, 3, 3}, {0, 0, 0}},
      {"all zero", {0, 0}, {0, 0}},
      {"two values", {5, 6}, {0, 100}},
      {"negative to positive", {-5, 0, 5}, {0, 50, 100}},
      {"truncated, not rounded", {1, 2, 4}, {0, 33, 100}},
      {"upstream's 2/10/0", {2, 10, 0}, {20, 100, 0}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto scores = c.raw;
    normalize_affinity_scores(scores);
    CHECK(scores == c.want);
  }
}

TEST_CASE("InterPodAffinity args", "[inter_pod_affinity]") {
  struct Case {
    const char* yaml;
    int32_t weight;
    bool ignore;
  };
  const std::vector<Case> valid = {
      {"", 1, false},
      {"{}", 1, false},
      {"{hardPodAffinityWeight: 0}", 0, false},
      {"{hardPodAffinityWeight: 100}", 100, false},
      {"{hardPodAffinityWeight: 7, ignorePreferredTermsOfExistingPods: true}", 7, true},
  };
  for (const auto& c : valid) {
    INFO(c.yaml);
    YAML::Node yaml = std::string(c.yaml).empty() ? YAML::Node() : YAML::Load(c.yaml);
    CHECK(InterPodAffinity::make(yaml).ok());
    InterPodAffinityArgs args = InterPodAffinityArgs::from_yaml(yaml);
    CHECK(args.hard_pod_affinity_weight == c.weight);
    CHECK(args.ignore_preferred_terms_of_existing_pods == c.ignore);
  }
  struct Error {
    const char* yaml;
    const char* message_start;
  };
  const std::vector<Error> invalid = {
      {"{hardPodAffinityWeight: -1}", "hardPodAffinityWeight: Invalid value: -1: not in valid range [0-100]"},
      {"{hardPodAffinityWeight: 101}", "hardPodAffinityWeight: Invalid value: 101: not in valid range [0-100]"},
      {"{hardPodAffinityWeight: heavy}", "hardPodAffinityWeight"},
      {"{ignorePreferredTermsOfExistingPods: maybe}", "ignorePreferredTermsOfExistingPods"},
      {"{hardPodAffinityWeight: 1, weight: 2}", "weight: unknown field"},
      {"[1]", ""},
  };
  for (const auto& c : invalid) {
    INFO(c.yaml);
    auto plugin = InterPodAffinity::make(YAML::Load(c.yaml));
    REQUIRE_FALSE(plugin.ok());
    CHECK_THAT(plugin.message(), Catch::StartsWith(c.message_start));
  }
}

TEST_CASE("InterPodAffinity through the plugin interface", "[inter_pod_affinity]") {
  auto plugin = make_plugin();
  const std::vector<Node> nodes = {node("node1", {{"region", "China"}}),
                                   node("node2", {{"region", "China"}, {"az", "az1"}}),
                                   node("node3", {{"region", "India"}})};
  const auto existing = placed({{APod().labels({{"foo", "bar"}}), "node1"}});
  auto cluster = cluster_of(nodes, existing);
  std::vector<NodeInfo> infos;
  for (const auto& n : nodes) infos.emplace_back(std::make_shared<const Node>(n));
  auto wants_foo = PodInfo::make(APod().affinity(Term(in("foo", {"bar"}), "region")));
  auto prefers_foo = PodInfo::make(APod().preferred_affinity(4, Term(in("foo", {"bar"}), "region")));
  auto plain = PodInfo::make(APod());

  SECTION("PreFilter: Skip when there is nothing to check") {
    struct Case {
      const char* name;
      std::shared_ptr<const PodInfo> pod;
      std::shared_ptr<const ClusterPods> cluster;
    };
    const std::vector<Case> cases = {
        {"no terms, no cluster shared", plain, nullptr},
        {"no terms, no placed pod with terms", plain, cluster},
        {"only preferred terms", prefers_foo, cluster},
        {"only preferred terms, no cluster shared", prefers_foo, nullptr},
    };
    for (const auto& c : cases) {
      INFO(c.name);
      CycleState state;
      if (c.cluster) state.share_input<ClusterPods>(c.cluster, 3);
      PreFilterResult result;
      CHECK(code(plugin->pre_filter(state, *c.pod, result).code) == code(Code::skip));
    }
  }

  SECTION("PreFilter: errors") {
    CycleState unshared;
    PreFilterResult result;
    PluginStatus missing = plugin->pre_filter(unshared, *wants_foo, result);
    CHECK(code(missing.code) == code(Code::error));
    CHECK_THAT(missing.message(), Catch::Contains("not shared"));

    // A namespaceSelector with requirements needs the namespaces' labels shared too.
    CycleState state;
    state.share_input<ClusterPods>(cluster, 1);
    auto selects_namespaces = PodInfo::make(
        APod().affinity(Term(in("foo", {"bar"}), "region").namespace_selector(in("team", {"a"}))));
    PluginStatus no_labels = plugin->pre_filter(state, *selects_namespaces, result);
    CHECK(code(no_labels.code) == code(Code::error));
    CHECK_THAT(no_labels.message(), Catch::Contains("namespaces' labels were not shared"));
    CHECK(code(plugin->pre_score(state, *selects_namespaces).code) == code(Code::error));
    state.share_input(std::make_shared<const NamespaceLabels>(kNamespaces), 1);
    CHECK(plugin->pre_filter(state, *selects_namespaces, result).ok());
  }

  SECTION("PreFilter counts, Filter reads the node's labels") {
    CycleState state;
    state.share_input<ClusterPods>(cluster, cluster->generation());
    PreFilterResult result;
    REQUIRE(plugin->pre_filter(state, *wants_foo, result).ok());
    CHECK_FALSE(result.node_names);
    CHECK(plugin->filter(state, *wants_foo, infos[0]).ok());
    CHECK(plugin->filter(state, *wants_foo, infos[1]).ok());
    PluginStatus india = plugin->filter(state, *wants_foo, infos[2]);
    CHECK(code(india.code) == code(Code::unschedulable_and_unresolvable));
    CHECK(india.reasons == std::vector<std::string>{kAffinity});
    PluginStatus unknown = plugin->filter(state, *wants_foo, NodeInfo());
    CHECK(code(unknown.code) == code(Code::unschedulable_and_unresolvable));
    // Without PreFilter's counts Filter has nothing to check.
    CHECK(plugin->filter(CycleState(), *wants_foo, infos[2]).ok());
  }

  SECTION("PreScore/Score/NormalizeScore, and PreScore keeps PreFilter's counts") {
    CycleState unshared;
    CHECK(code(plugin->pre_score(unshared, *prefers_foo).code) == code(Code::skip));
    CycleState nothing;
    nothing.share_input<ClusterPods>(cluster, 1);
    CHECK(code(plugin->pre_score(nothing, *plain).code) == code(Code::skip));

    auto both = PodInfo::make(APod()
                                  .affinity(Term(in("foo", {"bar"}), "region"))
                                  .preferred_affinity(4, Term(in("foo", {"bar"}), "region")));
    CycleState state;
    state.share_input<ClusterPods>(cluster, cluster->generation());
    PreFilterResult result;
    REQUIRE(plugin->pre_filter(state, *prefers_foo, result).is_skip());
    REQUIRE(plugin->pre_score(state, *prefers_foo).ok());
    std::vector<int64_t> scores;
    for (const auto& info : infos) scores.push_back(plugin->score(state, *prefers_foo, info).score);
    CHECK(scores == std::vector<int64_t>{4, 4, 0});
    CHECK(plugin->has_normalize_score());
    REQUIRE(plugin->normalize_scores(state, *prefers_foo, scores).ok());
    CHECK(scores == std::vector<int64_t>{100, 100, 0});

    CycleState state2;
    state2.share_input<ClusterPods>(cluster, cluster->generation());
    REQUIRE(plugin->pre_filter(state2, *both, result).ok());
    REQUIRE(plugin->pre_score(state2, *both).ok());  // writes the slot PreFilter wrote
    CHECK(plugin->score(state2, *both, infos[0]).score == 4);
    CHECK_FALSE(plugin->filter(state2, *both, infos[2]).ok());
    CHECK(plugin->filter(state2, *both, infos[0]).ok());
  }
  CHECK(plugin->name() == "InterPodAffinity");
  CHECK_FALSE(plugin->events_to_register().empty());
}

TEST_CASE("InterPodAffinity update_counts: pods leaving and rejoining a node count as a recount would (preemption's dry run)",
          "[inter_pod_affinity]") {
  const Labels web = {{"app", "web"}};
  const Labels db = {{"app", "db"}};
  const std::vector<Node> nodes = {node("n1", {{"zone", "a"}, {"host", "n1"}}),
                                   node("n2", {{"zone", "a"}, {"host", "n2"}}),
                                   node("n3", {{"zone", "b"}, {"host", "n3"}}), node("bare", {})};
  struct Case {
    const char* name;
    Pod pod;
    std::vector<Placed> existing;
    std::vector<size_t> removed;  // indexes into existing; every one on `on`
    std::string on;
    Want before, after;  // Filter on `on`, with and without the removed pods
  };
  const Pod avoids_web = APod().labels(db).anti_affinity(Term(in("app", {"web"}), "host"));
  const Pod avoids_web_zone = APod().labels(db).anti_affinity(Term(in("app", {"web"}), "zone"));
  const Pod wants_db = APod().labels(web).affinity(Term(in("app", {"db"}), "zone"));
  const Pod web_pod = APod().labels(web);
  const Pod shuns_web = APod().labels(db).anti_affinity(Term(in("app", {"web"}), "zone"));
  const std::vector<Case> cases = {
      {"the pod's anti-affinity: the only web pod on the host leaves", avoids_web,
       placed({{APod().labels(web), "n1"}, {APod().labels(web), "n3"}}), {0}, "n1", kNoAnti, kOk},
      {"the pod's anti-affinity by zone: another web pod stays in the zone", avoids_web_zone,
       placed({{APod().labels(web), "n1"}, {APod().labels(web), "n2"}}), {0}, "n1", kNoAnti, kNoAnti},
      {"the pod's anti-affinity by zone: both web pods of the node leave", avoids_web_zone,
       placed({{APod().labels(web), "n1"}, {APod().labels(web), "n1"}, {APod().labels(web), "n3"}}), {0, 1}, "n1",
       kNoAnti, kOk},
      {"a placed pod's anti-affinity against the pod leaves with it", web_pod,
       placed({{shuns_web, "n2"}, {APod().labels(db), "n2"}}), {0}, "n2", kNoExisting, kOk},
      {"the pod's affinity: one of two db pods in the zone leaves", wants_db,
       placed({{APod().labels(db), "n1"}, {APod().labels(db), "n2"}}), {0}, "n1", kOk, kOk},
      {"the pod's affinity: the last db pod leaves, the pod is not a db pod itself", wants_db,
       placed({{APod().labels(db), "n1"}}), {0}, "n1", kOk, kNoAffinity},
      {"a pod the terms do not match changes nothing", avoids_web,
       placed({{APod().labels(web), "n1"}, {APod().labels(db), "n1"}}), {1}, "n1", kNoAnti, kNoAnti},
      {"a pod of another namespace changes nothing", avoids_web,
       placed({{APod().labels(web), "n1"}, {APod("x", "other").labels(web), "n1"}}), {1}, "n1", kNoAnti, kNoAnti},
      {"a node without the topology key counts nowhere", avoids_web, placed({{APod().labels(web), "bare"}}), {0},
       "bare", kOk, kOk},
  };
  auto labels_of = [&](const std::string& name) -> const Labels& {
    for (const auto& n : nodes)
      if (n.meta.name == name) return n.meta.labels;
    FAIL("no node " + name);
    return nodes[0].meta.labels;
  };
  auto same = [](const AffinityFilterCounts& a, const AffinityFilterCounts& b) {
    CHECK(a.existing_anti_affinity == b.existing_anti_affinity);
    CHECK(a.affinity == b.affinity);
    CHECK(a.anti_affinity == b.anti_affinity);
  };
  auto verdict = [](const AffinityFilterCounts& counts, const Pod& pod, const Labels& labels, const Want& want) {
    PluginStatus status = filter_node(counts, pod, labels);
    CHECK(code(status.code) == code(want.code));
    if (!want.reason.empty()) CHECK(status.reasons == std::vector<std::string>{want.reason});
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const std::vector<Placed> staying = without_indexes(c.existing, c.removed);
    const auto full = count_for_filter(c.pod, must_resolve(c.pod), *cluster_of(nodes, c.existing));
    const auto without = count_for_filter(c.pod, must_resolve(c.pod), *cluster_of(nodes, staying));
    const Labels& labels = labels_of(c.on);
    verdict(full, c.pod, labels, c.before);

    AffinityFilterCounts counts = full;
    for (size_t i : c.removed) update_counts(counts, c.pod, *PodInfo::make(c.existing[i].pod), labels, -1);
    same(counts, without);
    verdict(counts, c.pod, labels, c.after);
    for (size_t i : c.removed) update_counts(counts, c.pod, *PodInfo::make(c.existing[i].pod), labels, +1);
    same(counts, full);
  }

  // Zero counts are erased: once the last db pod (in zone b) leaves, a db pod
  // that wants db pods may start the group anywhere, zone a included.
  const Pod db_wants_db = APod().labels(db).affinity(Term(in("app", {"db"}), "zone"));
  const auto last_db = placed({{APod().labels(db), "n3"}});
  auto counts = count_for_filter(db_wants_db, must_resolve(db_wants_db), *cluster_of(nodes, last_db));
  verdict(counts, db_wants_db, labels_of("n1"), kNoAffinity);
  update_counts(counts, db_wants_db, *PodInfo::make(last_db[0].pod), labels_of("n3"), -1);
  CHECK(counts.affinity.empty());
  verdict(counts, db_wants_db, labels_of("n1"), kOk);
}

TEST_CASE("InterPodAffinity AddPod/RemovePod update a copied CycleState, not the cycle's",
          "[inter_pod_affinity]") {
  auto plugin = make_plugin();
  const std::vector<Node> nodes = {node("n1", {{"host", "n1"}})};
  Pod web = APod("web").labels({{"app", "web"}});
  web.meta.uid = "uid-web";
  auto cluster = cluster_of(nodes, {{web, "n1"}});
  NodeInfo info(std::make_shared<const Node>(nodes[0]));
  auto web_info = PodInfo::make(web);
  REQUIRE(info.add_pod(web_info));
  auto avoids_web = PodInfo::make(APod().anti_affinity(Term(in("app", {"web"}), "host")));

  CycleState cycle;
  cycle.share_input<ClusterPods>(cluster, cluster->generation());
  PreFilterResult result;
  REQUIRE(plugin->pre_filter(cycle, *avoids_web, result).ok());
  CycleState node_copy = cycle;
  REQUIRE(info.remove_pod(pod_identity(*web_info)));
  REQUIRE(plugin->remove_pod(node_copy, *avoids_web, *web_info, info).ok());
  CHECK(plugin->filter(node_copy, *avoids_web, info).ok());
  CHECK(plugin->filter(cycle, *avoids_web, info).reasons == std::vector<std::string>{kAnti});
  REQUIRE(info.add_pod(web_info));
  REQUIRE(plugin->add_pod(node_copy, *avoids_web, *web_info, info).ok());
  CHECK(plugin->filter(node_copy, *avoids_web, info).reasons == std::vector<std::string>{kAnti});

  SECTION("a pod the cluster does not count on the node changes nothing") {
    CycleState copy = cycle;
    Pod stranger = APod("stranger").labels({{"app", "web"}});
    stranger.meta.uid = "uid-stranger";
    REQUIRE(plugin->remove_pod(copy, *avoids_web, *PodInfo::make(stranger), info).ok());
    CHECK(plugin->filter(copy, *avoids_web, info).reasons == std::vector<std::string>{kAnti});
  }
  SECTION("nothing to update when PreFilter wrote nothing") {
    CycleState empty;
    CHECK(plugin->remove_pod(empty, *avoids_web, *web_info, info).ok());
    CHECK(plugin->filter(empty, *avoids_web, info).ok());
  }
}
