// PodTopologySpread, table-driven. Most cases are ported from upstream
// kube-scheduler (pkg/scheduler/framework/plugins/podtopologyspread:
// filtering_test.go TestSingleConstraint / TestMultipleConstraints, scoring_test.go
// TestPodTopologySpreadScore); where troupe differs by design (PreScore before
// Filter) the case says so.

#include <catch2/catch.hpp>

#include <cmath>
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "plugins/framework/cluster_pods.hpp"
#include "plugins/framework/workload_selectors.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::spread;
using namespace troupe::plugins::testing;
using Op = LabelRequirement::Op;

namespace {

const std::string kHostname = "kubernetes.io/hostname";
const std::string kNotMatch = "node(s) didn't match pod topology spread constraints";
const std::string kMissingLabel = "node(s) didn't match pod topology spread constraints (missing required label)";

constexpr auto kDoNotSchedule = UnsatisfiableAction::do_not_schedule;
constexpr auto kScheduleAnyway = UnsatisfiableAction::schedule_anyway;
constexpr auto kHonor = NodeInclusionPolicy::honor;
constexpr auto kIgnore = NodeInclusionPolicy::ignore;

std::string code(Code c) { return std::string(to_string(c)); }
std::string show(const Labels& labels) {
  std::string out;
  for (const auto& [k, v] : labels) out += (out.empty() ? "" : ",") + k + "=" + v;
  return "{" + out + "}";
}

LabelSelector exists(const std::string& key) { return LabelSelector({requirement(key, Op::exists)}); }
LabelSelector in(const std::string& key, std::vector<std::string> values) {
  return LabelSelector({requirement(key, Op::in, std::move(values))});
}

struct Spread {
  TopologySpreadConstraint c;
  Spread(int32_t max_skew, std::string key, UnsatisfiableAction action, std::optional<LabelSelector> selector) {
    c.max_skew = max_skew;
    c.topology_key = std::move(key);
    c.when_unsatisfiable = action;
    c.label_selector = std::move(selector);
  }
  Spread& min_domains(int32_t n) { c.min_domains = n; return *this; }
  Spread& affinity_policy(NodeInclusionPolicy p) { c.node_affinity_policy = p; return *this; }
  Spread& taints_policy(NodeInclusionPolicy p) { c.node_taints_policy = p; return *this; }
  Spread& match_label_keys(std::vector<std::string> keys) { c.match_label_keys = std::move(keys); return *this; }
  operator TopologySpreadConstraint() const { return c; }  // NOLINT: reads as a constraint in tables
};
Spread hard(int32_t max_skew, std::string key, std::optional<LabelSelector> selector) {
  return Spread(max_skew, std::move(key), kDoNotSchedule, std::move(selector));
}
Spread soft(int32_t max_skew, std::string key, std::optional<LabelSelector> selector) {
  return Spread(max_skew, std::move(key), kScheduleAnyway, std::move(selector));
}

/// `base` (a PodBuilder's pod: node selector, affinity, tolerations) with labels and constraints.
Pod spread_pod(Pod base, Labels labels, std::vector<TopologySpreadConstraint> constraints = {}) {
  base.meta.labels = std::move(labels);
  base.spec.topology_spread_constraints = std::move(constraints);
  return base;
}
Pod spread_pod(const std::string& name, Labels labels, std::vector<TopologySpreadConstraint> constraints = {},
               const std::string& ns = "default") {
  return spread_pod(PodBuilder(name, ns).pod(), std::move(labels), std::move(constraints));
}
Pod terminating(Pod pod) {
  pod.meta.deletion_timestamp = timestamp_now();
  return pod;
}

Node node(const std::string& name, Labels labels) {
  Node n = NodeBuilder(name).node();
  n.meta.labels = std::move(labels);
  return n;
}
Node tainted(Node n, const std::string& key, TaintEffect effect) {
  n.spec.taints.push_back(Taint{key, "", effect, std::nullopt});
  return n;
}

/// node-a, node-b in zone1; node-x, node-y in zone2; label "node" = the name.
std::vector<Node> four_nodes() {
  return {node("node-a", {{"zone", "zone1"}, {"node", "node-a"}}),  //
          node("node-b", {{"zone", "zone1"}, {"node", "node-b"}}),  //
          node("node-x", {{"zone", "zone2"}, {"node", "node-x"}}),  //
          node("node-y", {{"zone", "zone2"}, {"node", "node-y"}})};
}
std::vector<Node> hostname_nodes(const std::vector<std::string>& names) {
  std::vector<Node> out;
  for (const auto& n : names) out.push_back(node(n, {{kHostname, n}}));
  return out;
}

struct Placed {
  Pod pod;
  std::string node;
};
/// `count` pods labelled `labels` on `node`, each with a name (and uid) of its own.
std::vector<Placed> on(const std::string& node, int count, const Labels& labels = {{"foo", ""}},
                       const std::string& ns = "default") {
  static int serial = 0;
  std::vector<Placed> out;
  for (int i = 0; i < count; ++i)
    out.push_back({spread_pod("p-" + node + "-" + std::to_string(serial++), labels, {}, ns), node});
  return out;
}
std::vector<Placed> join(std::initializer_list<std::vector<Placed>> groups) {
  std::vector<Placed> out;
  for (const auto& g : groups) out.insert(out.end(), g.begin(), g.end());
  return out;
}
/// Matching pods spread as 2/1/0/3 over node-a/b/x/y.
std::vector<Placed> spread_2_1_0_3() { return join({on("node-a", 2), on("node-b", 1), on("node-y", 3)}); }

/// With `keep_keys`, every node label key is kept as a topology key, so the
/// counting takes the index where it applies (domain_counting.hpp).
std::shared_ptr<const ClusterPods> cluster_of(const std::vector<Node>& nodes, const std::vector<Placed>& pods,
                                              bool keep_keys = false) {
  auto cluster = std::make_shared<ClusterPods>();
  for (const auto& n : nodes) cluster->upsert_node(std::make_shared<const Node>(n));
  if (keep_keys)
    for (const auto& n : nodes)
      for (const auto& [key, value] : n.meta.labels) cluster->track_topology_key(key);
  for (const auto& p : pods) cluster->add_pod(PodInfo::make(p.pod), p.node);
  return cluster;
}
/// A NodeInfo per node, holding the placed pods that name it.
std::vector<NodeInfo> node_infos(const std::vector<Node>& nodes, const std::vector<Placed>& pods) {
  std::vector<NodeInfo> out;
  for (const auto& n : nodes) {
    NodeInfo info(std::make_shared<const Node>(n));
    for (const auto& p : pods)
      if (p.node == n.meta.name) REQUIRE(info.add_pod(PodInfo::make(p.pod)));
    out.push_back(std::move(info));
  }
  return out;
}

std::shared_ptr<const PodTopologySpread> make_plugin(const std::string& yaml = "") {
  auto plugin = PodTopologySpread::make(yaml.empty() ? YAML::Node() : YAML::Load(yaml));
  if (!plugin) FAIL(plugin.message());
  return std::dynamic_pointer_cast<const PodTopologySpread>(*plugin);
}

}  // namespace

TEST_CASE("constraints_of keeps one kind and merges matchLabelKeys into the selector", "[pod_topology_spread]") {
  const Labels pod_labels = {{"foo", "a"}, {"version", "v2"}};
  struct Probe {
    Labels labels;
    bool matches;
  };
  struct Case {
    const char* name;
    TopologySpreadConstraint constraint;
    std::vector<Probe> probes;
  };
  const std::vector<Case> cases = {
      {"selector as written", hard(1, "zone", exists("foo")),
       {{{{"foo", "x"}}, true}, {{{"bar", ""}}, false}}},
      {"matchLabelKeys adds the pod's value",
       hard(1, "zone", exists("foo")).match_label_keys({"version"}),
       {{{{"foo", "x"}, {"version", "v2"}}, true},
        {{{"foo", "x"}, {"version", "v1"}}, false},
        {{{"foo", "x"}}, false},
        {{{"version", "v2"}}, false}}},
      {"a matchLabelKeys key the pod lacks adds nothing",
       hard(1, "zone", exists("foo")).match_label_keys({"missing"}),
       {{{{"foo", "x"}}, true}, {{{"foo", "x"}, {"missing", "y"}}, true}}},
      {"an empty selector with matchLabelKeys selects the pod's value only",
       hard(1, "zone", LabelSelector{}).match_label_keys({"version"}),
       {{{{"version", "v2"}}, true}, {{{"version", "v1"}}, false}, {{}, false}}},
      {"a nil selector selects nothing, matchLabelKeys or not",
       hard(1, "zone", std::nullopt).match_label_keys({"version"}),
       {{{{"version", "v2"}}, false}, {{{"foo", "a"}, {"version", "v2"}}, false}, {{}, false}}},
      {"a nil selector without matchLabelKeys", hard(1, "zone", std::nullopt), {{{}, false}, {{{"foo", "a"}}, false}}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    Pod pod = spread_pod("p", pod_labels, {c.constraint});
    auto constraints = constraints_of(pod, kDoNotSchedule);
    REQUIRE(constraints.size() == 1);
    for (const auto& probe : c.probes) {
      INFO("probe labels: " << show(probe.labels));
      CHECK(constraints[0].selector.matches(probe.labels) == probe.matches);
    }
  }
}

TEST_CASE("constraints_of splits DoNotSchedule from ScheduleAnyway and copies the fields", "[pod_topology_spread]") {
  Pod pod = spread_pod("p", {{"foo", ""}},
                       {hard(2, "zone", exists("foo")).min_domains(3).affinity_policy(kIgnore).taints_policy(kHonor),
                        soft(1, kHostname, exists("foo")), hard(1, "rack", exists("foo"))});
  auto filter = constraints_of(pod, kDoNotSchedule);
  REQUIRE(filter.size() == 2);
  CHECK(filter[0].topology_key == "zone");
  CHECK(filter[0].max_skew == 2);
  CHECK(filter[0].min_domains == std::optional<int32_t>(3));
  CHECK(filter[0].node_affinity_policy == kIgnore);
  CHECK(filter[0].node_taints_policy == kHonor);
  CHECK(filter[1].topology_key == "rack");
  CHECK_FALSE(filter[1].min_domains);
  CHECK(filter[1].node_affinity_policy == kHonor);  // the API's defaults
  CHECK(filter[1].node_taints_policy == kIgnore);
  auto score = constraints_of(pod, kScheduleAnyway);
  REQUIRE(score.size() == 1);
  CHECK(score[0].topology_key == kHostname);
  CHECK(constraints_of(spread_pod("plain", {{"foo", ""}}), kDoNotSchedule).empty());
}

TEST_CASE("count_matching: namespace, terminating pods, empty and nil selectors", "[pod_topology_spread]") {
  std::vector<std::shared_ptr<const PodInfo>> pods = {
      PodInfo::make(spread_pod("a", {{"foo", ""}})),
      PodInfo::make(spread_pod("b", {{"foo", ""}, {"bar", ""}})),
      PodInfo::make(spread_pod("c", {{"bar", ""}})),
      PodInfo::make(spread_pod("d", {{"foo", ""}}, {}, "other")),
      PodInfo::make(terminating(spread_pod("e", {{"foo", ""}}))),
  };
  struct Case {
    const char* name;
    LabelSelector selector;
    std::string ns;
    int64_t want;
  };
  const std::vector<Case> cases = {
      {"matching pods of the namespace", exists("foo"), "default", 2},
      {"another selector", exists("bar"), "default", 2},
      {"only the pods of that namespace", exists("foo"), "other", 1},
      {"a namespace without pods", exists("foo"), "nowhere", 0},
      {"values compared", in("foo", {"x"}), "default", 0},
      {"the empty selector counts none (upstream's countPodsMatchSelector)", LabelSelector{}, "default", 0},
      {"the nil selector counts none", LabelSelector::nothing(), "default", 0},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(count_matching(pods, c.selector, c.ns) == c.want);
  }
  CHECK(count_matching({}, exists("foo"), "default") == 0);
}

TEST_CASE("node_included follows nodeAffinityPolicy and nodeTaintsPolicy", "[pod_topology_spread]") {
  const Node ssd = node("n1", {{"disk", "ssd"}, {"zone", "a"}});
  const Node hdd = node("n2", {{"disk", "hdd"}, {"zone", "a"}});
  const Pod plain = PodBuilder("p").pod();
  const Pod wants_ssd = PodBuilder("p").node_selector({{"disk", "ssd"}}).pod();
  const Pod requires_ssd =
      PodBuilder("p").required_terms({NodeSelectorTerm{{requirement("disk", Op::in, {"ssd"})}, {}}}).pod();
  const Pod tolerates = PodBuilder("p").toleration(toleration("dedicated", TolerationOperator::exists, "",
                                                              TaintEffect::all)).pod();
  struct Case {
    const char* name;
    NodeInclusionPolicy affinity;
    NodeInclusionPolicy taints;
    Pod pod;
    Node node;
    bool included;
  };
  const std::vector<Case> cases = {
      {"Honor: nodeSelector matches", kHonor, kIgnore, wants_ssd, ssd, true},
      {"Honor: nodeSelector does not match", kHonor, kIgnore, wants_ssd, hdd, false},
      {"Honor: required node affinity matches", kHonor, kIgnore, requires_ssd, ssd, true},
      {"Honor: required node affinity does not match", kHonor, kIgnore, requires_ssd, hdd, false},
      {"Ignore: nodeSelector not checked", kIgnore, kIgnore, wants_ssd, hdd, true},
      {"Ignore: required node affinity not checked", kIgnore, kIgnore, requires_ssd, hdd, true},
      {"Honor without any node affinity", kHonor, kIgnore, plain, hdd, true},
      {"taints Ignore: untolerated NoSchedule taint counts", kHonor, kIgnore, plain,
       tainted(ssd, "dedicated", TaintEffect::no_schedule), true},
      {"taints Honor: untolerated NoSchedule taint excludes", kHonor, kHonor, plain,
       tainted(ssd, "dedicated", TaintEffect::no_schedule), false},
      {"taints Honor: untolerated NoExecute taint excludes", kIgnore, kHonor, plain,
       tainted(ssd, "dedicated", TaintEffect::no_execute), false},
      {"taints Honor: PreferNoSchedule is not a scheduling taint", kHonor, kHonor, plain,
       tainted(ssd, "dedicated", TaintEffect::prefer_no_schedule), true},
      {"taints Honor: tolerated taint counts", kHonor, kHonor, tolerates,
       tainted(ssd, "dedicated", TaintEffect::no_schedule), true},
      {"taints Honor: one untolerated taint among tolerated ones", kHonor, kHonor, tolerates,
       tainted(tainted(ssd, "dedicated", TaintEffect::no_schedule), "gpu", TaintEffect::no_schedule), false},
      {"both Honor: affinity fails first", kHonor, kHonor, wants_ssd, hdd, false},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    SpreadConstraint constraint;
    constraint.topology_key = "zone";
    constraint.node_affinity_policy = c.affinity;
    constraint.node_taints_policy = c.taints;
    CHECK(node_included(constraint, c.pod, c.node) == c.included);
  }
}

TEST_CASE("count_for_filter: domains, minimum and minDomains", "[pod_topology_spread]") {
  const bool keep_keys = GENERATE(false, true);  // walked, then by index where it applies
  using Domains = std::unordered_map<std::string, int64_t>;
  struct Case {
    const char* name;
    TopologySpreadConstraint constraint;
    std::vector<Node> nodes;
    Domains matching;  // the domains with matching pods
    size_t domains;    // all of them
    std::optional<int64_t> min_matching;  // nullopt: no domain, nothing to be skewed against
  };
  const std::vector<Case> cases = {
      {"by zone", hard(1, "zone", exists("foo")), four_nodes(), {{"zone1", 3}, {"zone2", 3}}, 2, 3},
      {"by node: a domain without matching pods counts as 0", hard(1, "node", exists("foo")), four_nodes(),
       {{"node-a", 2}, {"node-b", 1}, {"node-y", 3}}, 4, 0},
      {"by node: every domain has matching pods", hard(1, "node", exists("foo")), {four_nodes()[0], four_nodes()[1]},
       {{"node-a", 2}, {"node-b", 1}}, 2, 1},
      {"minDomains above the domains makes the minimum 0", hard(1, "zone", exists("foo")).min_domains(3), four_nodes(),
       {{"zone1", 3}, {"zone2", 3}}, 2, 0},
      {"minDomains equal to the domains keeps the minimum", hard(1, "zone", exists("foo")).min_domains(2),
       four_nodes(), {{"zone1", 3}, {"zone2", 3}}, 2, 3},
      {"nodes without the key make no domain", hard(1, "rack", exists("foo")), four_nodes(), {}, 0, std::nullopt},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    Pod pod = spread_pod("p", {{"foo", ""}}, {c.constraint});
    auto cluster = cluster_of(c.nodes, spread_2_1_0_3(), keep_keys);
    auto counts = count_for_filter(pod, constraints_of(pod, kDoNotSchedule), *cluster);
    REQUIRE(counts.constraints.size() == 1);
    REQUIRE(counts.matching.size() == 1);
    REQUIRE(counts.min_matching.size() == 1);
    CHECK(counts.matching[0] == c.matching);
    CHECK(counts.domains == std::vector<size_t>{c.domains});
    if (c.min_matching) CHECK(counts.min_matching[0] == *c.min_matching);
  }
}

TEST_CASE("count_for_filter + filter_node: upstream's spreading verdicts", "[pod_topology_spread]") {
  const bool keep_keys = GENERATE(false, true);  // walked, then by index where it applies
  const Code ok = Code::success;
  const Code no = Code::unschedulable;
  const Code never = Code::unschedulable_and_unresolvable;
  const Labels foo = {{"foo", ""}};
  auto fits = [&](std::vector<Code> codes) {  // node-a, node-b, node-x, node-y
    std::map<std::string, Code> out;
    const char* names[] = {"node-a", "node-b", "node-x", "node-y"};
    for (size_t i = 0; i < codes.size(); ++i) out[names[i]] = codes[i];
    return out;
  };
  std::vector<Node> b_without_zone = four_nodes();
  b_without_zone[1].meta.labels = {{"zon", "zone1"}, {"node", "node-b"}};
  std::vector<Node> x_tainted = four_nodes();
  x_tainted[2] = tainted(x_tainted[2], "dedicated", TaintEffect::no_schedule);
  const NodeSelectorTerm a_or_y{{requirement("node", Op::in, {"node-a", "node-y"})}, {}};
  const Toleration tolerate_dedicated = toleration("dedicated", TolerationOperator::exists, "", TaintEffect::all);

  struct Case {
    const char* name;
    Pod pod;
    std::vector<Node> nodes;
    std::vector<Placed> existing;
    std::map<std::string, Code> want;
  };
  const std::vector<Case> cases = {
      {"no existing pods", spread_pod("p", foo, {hard(1, "zone", exists("foo"))}), four_nodes(), {},
       fits({ok, ok, ok, ok})},
      {"no existing pods, incoming pod doesn't match itself", spread_pod("p", foo, {hard(1, "zone", exists("bar"))}),
       four_nodes(), {}, fits({ok, ok, ok, ok})},
      {"existing pods in a different namespace do not count", spread_pod("p", foo, {hard(1, "zone", exists("foo"))}),
       four_nodes(), join({on("node-a", 1, foo, "ns1"), on("node-a", 1, foo, "ns2"), on("node-x", 1), on("node-y", 1)}),
       fits({ok, ok, no, no})},
      {"pods spread across zones as 3/3, all nodes fit", spread_pod("p", foo, {hard(1, "zone", exists("foo"))}),
       four_nodes(), join({on("node-a", 2), on("node-b", 1), on("node-y", 3)}), fits({ok, ok, ok, ok})},
      {"pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
       spread_pod("p", foo, {hard(1, "zone", exists("foo"))}), b_without_zone,
       join({on("node-a", 1), on("node-b", 1), on("node-x", 1), on("node-y", 1)}), fits({ok, never, no, no})},
      {"pod cannot be scheduled as all nodes don't have label 'rack'",
       spread_pod("p", foo, {hard(1, "rack", exists("foo"))}), four_nodes(), {}, fits({never, never, never, never})},
      {"pods spread across nodes as 2/1/0/3, only node-x fits", spread_pod("p", foo, {hard(1, "node", exists("foo"))}),
       four_nodes(), spread_2_1_0_3(), fits({no, no, ok, no})},
      {"pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
       spread_pod("p", foo, {hard(2, "node", exists("foo"))}), four_nodes(), spread_2_1_0_3(), fits({no, ok, ok, no})},
      {"pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
       spread_pod("p", {{"bar", ""}}, {hard(1, "node", exists("foo"))}), four_nodes(), spread_2_1_0_3(),
       fits({no, ok, ok, no})},
      {"incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
       spread_pod(PodBuilder("p").required_terms({a_or_y}).pod(), foo, {hard(1, "node", exists("foo"))}), four_nodes(),
       spread_2_1_0_3(), fits({ok, ok, ok, no})},
      {"nodeAffinityPolicy Ignore counts every node: only node-x fits",
       spread_pod(PodBuilder("p").required_terms({a_or_y}).pod(), foo,
                  {hard(1, "node", exists("foo")).affinity_policy(kIgnore)}),
       four_nodes(), spread_2_1_0_3(), fits({no, no, ok, no})},
      {"a nodeSelector is honoured like required affinity: only zone1 is counted (2/1/~0~/~3~; NodeAffinity, "
       "not this plugin, rejects node-x and node-y)",
       spread_pod(PodBuilder("p").node_selector({{"zone", "zone1"}}).pod(), foo, {hard(1, "node", exists("foo"))}),
       four_nodes(), spread_2_1_0_3(), fits({no, ok, ok, ok})},
      {"no node passes the pod's node affinity: no domain, every node with the key passes",
       spread_pod(PodBuilder("p").node_selector({{"zone", "zone3"}}).pod(), foo, {hard(1, "node", exists("foo"))}),
       four_nodes(), spread_2_1_0_3(), fits({ok, ok, ok, ok})},
      {"terminating pods should be excluded", spread_pod("p", foo, {hard(1, "node", exists("foo"))}),
       {node("node-a", {{"node", "node-a"}}), node("node-b", {{"node", "node-b"}})},
       {{terminating(spread_pod("p-a", foo)), "node-a"}, {spread_pod("p-b", foo), "node-b"}}, fits({ok, no})},
      {"nodeTaintsPolicy Ignore (default) counts a tainted node's domain",
       spread_pod("p", foo, {hard(1, "node", exists("foo"))}), x_tainted, spread_2_1_0_3(), fits({no, no, ok, no})},
      {"nodeTaintsPolicy Honor leaves out an untolerated tainted node's domain",
       spread_pod("p", foo, {hard(1, "node", exists("foo")).taints_policy(kHonor)}), x_tainted, spread_2_1_0_3(),
       fits({no, ok, ok, no})},
      {"nodeTaintsPolicy Honor counts a tolerated tainted node",
       spread_pod(PodBuilder("p").toleration(tolerate_dedicated).pod(), foo,
                  {hard(1, "node", exists("foo")).taints_policy(kHonor)}),
       x_tainted, spread_2_1_0_3(), fits({no, no, ok, no})},
      {"zones as 2/1: without minDomains zone2 fits", spread_pod("p", foo, {hard(1, "zone", exists("foo"))}),
       four_nodes(), join({on("node-a", 2), on("node-x", 1)}), fits({no, no, ok, ok})},
      {"zones as 2/1, minDomains 3 > 2 domains: the minimum is 0 and no node fits",
       spread_pod("p", foo, {hard(1, "zone", exists("foo")).min_domains(3)}), four_nodes(),
       join({on("node-a", 2), on("node-x", 1)}), fits({no, no, no, no})},
      {"zones as 2/1, minDomains 2 = 2 domains: zone2 fits",
       spread_pod("p", foo, {hard(1, "zone", exists("foo")).min_domains(2)}), four_nodes(),
       join({on("node-a", 2), on("node-x", 1)}), fits({no, no, ok, ok})},
      {"zones as 2/1, minDomains 3, maxSkew 2: zone2 fits",
       spread_pod("p", foo, {hard(2, "zone", exists("foo")).min_domains(3)}), four_nodes(),
       join({on("node-a", 2), on("node-x", 1)}), fits({no, no, ok, ok})},
      {"two constraints on zone and node, spreads = [3/3, 2/1/0/3]: only node-x",
       spread_pod("p", foo, {hard(1, "zone", exists("foo")), hard(1, "node", exists("foo"))}), four_nodes(),
       spread_2_1_0_3(), fits({no, no, ok, no})},
      {"two constraints on zone and node, spreads = [1/3, 1/0/0/3]: only node-b",
       spread_pod("p", foo, {hard(1, "zone", exists("foo")), hard(1, "node", exists("foo"))}), four_nodes(),
       join({on("node-a", 1), on("node-y", 3)}), fits({no, ok, no, no})},
      {"two constraints, the second key is on no node: every node lacks a label",
       spread_pod("p", foo, {hard(1, "zone", exists("foo")), hard(1, "rack", exists("foo"))}), four_nodes(),
       spread_2_1_0_3(), fits({never, never, never, never})},
      {"two constraints with different selectors",
       spread_pod("p", {{"foo", ""}, {"bar", ""}}, {hard(1, "zone", exists("foo")), hard(1, "node", exists("bar"))}),
       four_nodes(),
       join({on("node-a", 1, {{"foo", ""}}), on("node-b", 1, {{"foo", ""}, {"bar", ""}}),
             on("node-y", 1, {{"foo", ""}}), on("node-y", 1, {{"bar", ""}})}),
       // zone (foo): 2/1 → zone2 only; node (bar): 0/1/0/1 → a, x
       fits({no, no, ok, no})},
      {"matchLabelKeys: only the pods of the same version count",
       spread_pod("p", {{"foo", ""}, {"version", "v2"}},
                  {hard(1, "node", exists("foo")).match_label_keys({"version"})}),
       four_nodes(),
       join({on("node-a", 2, {{"foo", ""}, {"version", "v1"}}), on("node-b", 1, {{"foo", ""}, {"version", "v2"}}),
             on("node-y", 1, {{"foo", ""}, {"version", "v2"}})}),
       fits({ok, no, ok, no})},
      {"an empty selector counts no placed pod but matches the pod itself",
       spread_pod("p", foo, {hard(1, "node", LabelSelector{})}), four_nodes(), spread_2_1_0_3(),
       fits({ok, ok, ok, ok})},
      {"a nil selector counts nothing", spread_pod("p", foo, {hard(1, "node", std::nullopt)}), four_nodes(),
       spread_2_1_0_3(), fits({ok, ok, ok, ok})},
      {"pods on a node not known yet count for no domain", spread_pod("p", foo, {hard(1, "node", exists("foo"))}),
       {node("node-a", {{"node", "node-a"}}), node("node-b", {{"node", "node-b"}})},
       join({on("node-a", 1), on("ghost", 5)}), fits({no, ok})},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto cluster = cluster_of(c.nodes, c.existing, keep_keys);
    auto counts = count_for_filter(c.pod, constraints_of(c.pod, kDoNotSchedule), *cluster);
    for (const auto& n : c.nodes) {
      INFO(n.meta.name);
      PluginStatus status = filter_node(counts, c.pod, n.meta.labels);
      CHECK(code(status.code) == code(c.want.at(n.meta.name)));
      if (status.code == Code::unschedulable) CHECK(status.reasons == std::vector<std::string>{kNotMatch});
      if (status.code == Code::unschedulable_and_unresolvable)
        CHECK(status.reasons == std::vector<std::string>{kMissingLabel});
    }
  }
}

TEST_CASE("count_for_score + score_node + normalize: upstream's scores", "[pod_topology_spread]") {
  const bool keep_keys = GENERATE(false, true);  // walked, then by index where it applies
  const Labels foo = {{"foo", ""}};
  auto zone_nodes = [] {
    std::vector<Node> nodes = four_nodes();
    for (auto& n : nodes) n.meta.labels[kHostname] = n.meta.name;
    return nodes;
  };
  // node-a (zone1, ssd), node-b (zone1), node-x (zone2, ssd).
  const std::vector<Node> ssd_nodes = {node("node-a", {{"zone", "zone1"}, {"disk", "ssd"}}),
                                       node("node-b", {{"zone", "zone1"}}),
                                       node("node-x", {{"zone", "zone2"}, {"disk", "ssd"}})};
  const std::vector<Node> b_tainted = {
      node("node-a", {{"zone", "zone1"}}),
      tainted(node("node-b", {{"zone", "zone1"}}), "dedicated", TaintEffect::no_schedule),
      node("node-x", {{"zone", "zone2"}})};
  const std::vector<Placed> one_three_two = join({on("node-a", 1), on("node-b", 3), on("node-x", 2)});
  std::vector<Node> b_without_hostname = hostname_nodes({"node-a", "node-b", "node-x"});
  b_without_hostname[1].meta.labels = {{"n", "node-b"}};

  struct Case {
    const char* name;
    Pod pod;
    std::vector<Node> nodes;
    std::vector<Placed> existing;
    std::vector<int64_t> want;  // normalized, in node order
  };
  const std::vector<Case> cases = {
      {"one constraint on node, no existing pods", spread_pod("p", foo, {soft(1, kHostname, exists("foo"))}),
       hostname_nodes({"node-a", "node-b"}), {}, {100, 100}},
      {"one constraint on node, all nodes have the same number of matching pods",
       spread_pod("p", foo, {soft(1, kHostname, exists("foo"))}), hostname_nodes({"node-a", "node-b"}),
       join({on("node-a", 1), on("node-b", 1)}), {100, 100}},
      {"one constraint on node, all 4 nodes are candidates (2/1/0/3)",
       spread_pod("p", foo, {soft(1, kHostname, exists("foo"))}),
       hostname_nodes({"node-a", "node-b", "node-c", "node-d"}),
       join({on("node-a", 2), on("node-b", 1), on("node-d", 3)}), {20, 60, 100, 0}},
      {"one constraint on node, all 4 nodes are candidates, maxSkew=2",
       spread_pod("p", foo, {soft(2, kHostname, exists("foo"))}),
       hostname_nodes({"node-a", "node-b", "node-c", "node-d"}),
       join({on("node-a", 2), on("node-b", 1), on("node-d", 3)}), {33, 66, 100, 16}},
      {"one constraint on node, all 4 nodes are candidates, maxSkew=3 (4/3/2/1)",
       spread_pod("p", foo, {soft(3, kHostname, exists("foo"))}),
       hostname_nodes({"node-a", "node-b", "node-c", "node-d"}),
       join({on("node-a", 4), on("node-b", 3), on("node-c", 2), on("node-d", 1)}), {44, 66, 77, 100}},
      {"one node doesn't match the topology key: ignored, scored 0",
       spread_pod("p", foo, {soft(1, kHostname, exists("foo"))}), b_without_hostname,
       join({on("node-a", 4), on("node-b", 2), on("node-x", 1)}), {16, 0, 100}},
      {"one constraint on zone (6/4)", spread_pod("p", foo, {soft(1, "zone", exists("foo"))}), four_nodes(),
       join({on("node-a", 4), on("node-b", 2), on("node-x", 1), on("node-y", 3)}), {75, 75, 100, 100}},
      {"two constraints on zone and node, with different labelSelectors",
       spread_pod("p", {{"foo", ""}, {"bar", ""}},
                  {soft(1, "zone", exists("foo")), soft(1, kHostname, exists("bar"))}),
       zone_nodes(),
       join({on("node-a", 1, {{"foo", ""}}), on("node-b", 1, {{"foo", ""}, {"bar", ""}}),
             on("node-y", 1, {{"foo", ""}}), on("node-y", 1, {{"bar", ""}})}),
       {60, 20, 100, 60}},
      {"two constraints on zone and node, with different labelSelectors, some nodes have 0 pods",
       spread_pod("p", {{"foo", ""}, {"bar", ""}},
                  {soft(1, "zone", exists("foo")), soft(1, kHostname, exists("bar"))}),
       zone_nodes(),
       join({on("node-b", 1, {{"bar", ""}}), on("node-x", 1, {{"foo", ""}}),
             on("node-y", 1, {{"foo", ""}, {"bar", ""}})}),
       {100, 60, 40, 0}},
      {"nodeAffinityPolicy Honor: node-b's pods don't count for zone1",
       spread_pod(PodBuilder("p").node_selector({{"disk", "ssd"}}).pod(), foo, {soft(1, "zone", exists("foo"))}),
       ssd_nodes, one_three_two, {100, 100, 33}},
      {"nodeAffinityPolicy Ignore: node-b's pods count for zone1",
       spread_pod(PodBuilder("p").node_selector({{"disk", "ssd"}}).pod(), foo,
                  {soft(1, "zone", exists("foo")).affinity_policy(kIgnore)}),
       ssd_nodes, one_three_two, {50, 50, 100}},
      {"nodeTaintsPolicy Honor: the tainted node-b's pods don't count",
       spread_pod("p", foo, {soft(1, "zone", exists("foo")).taints_policy(kHonor)}), b_tainted, one_three_two,
       {100, 100, 33}},
      {"nodeTaintsPolicy Ignore: the tainted node-b's pods count",
       spread_pod("p", foo, {soft(1, "zone", exists("foo"))}), b_tainted, one_three_two, {50, 50, 100}},
      {"matchLabelKeys: only the pods of the same version count",
       spread_pod("p", {{"foo", ""}, {"version", "v2"}},
                  {soft(1, kHostname, exists("foo")).match_label_keys({"version"})}),
       hostname_nodes({"node-a", "node-b"}),
       join({on("node-a", 2, {{"foo", ""}, {"version", "v1"}}), on("node-b", 1, {{"foo", ""}, {"version", "v2"}})}),
       {100, 0}},
      {"pods of other namespaces don't count", spread_pod("p", foo, {soft(1, kHostname, exists("foo"))}),
       hostname_nodes({"node-a", "node-b"}), join({on("node-a", 3, foo, "other"), on("node-b", 1)}), {100, 0}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto cluster = cluster_of(c.nodes, c.existing, keep_keys);
    auto counts = count_for_score(c.pod, constraints_of(c.pod, kScheduleAnyway), *cluster);
    std::vector<int64_t> scores;
    for (const auto& n : c.nodes) scores.push_back(score_node(counts, n));
    normalize_spread_scores(scores);
    CHECK(scores == c.want);
  }
}

TEST_CASE("count_for_score: the hostname key is a domain like any other", "[pod_topology_spread]") {
  Pod pod = spread_pod("p", {{"foo", ""}}, {soft(1, kHostname, exists("foo")), soft(1, "zone", exists("foo"))});
  std::vector<Node> nodes = {node("node-a", {{kHostname, "node-a"}, {"zone", "z1"}}),
                             node("node-b", {{kHostname, "node-b"}, {"zone", "z1"}})};
  auto cluster = cluster_of(nodes, on("node-a", 3));
  auto counts = count_for_score(pod, constraints_of(pod, kScheduleAnyway), *cluster);
  REQUIRE(counts.matching.size() == 2);
  REQUIRE(counts.weights.size() == 2);
  // Domains without matching pods are left out: they score as 0 all the same.
  CHECK(counts.matching[0] == std::unordered_map<std::string, int64_t>{{"node-a", 3}});
  CHECK(counts.matching[1] == std::unordered_map<std::string, int64_t>{{"z1", 3}});
  CHECK(counts.weights[0] == Approx(std::log(4.0)));  // 2 hosts
  CHECK(counts.weights[1] == Approx(std::log(3.0)));  // 1 zone
  // node-a: 3 on the host + 3 in z1; node-b: 0 on the host + 3 in z1.
  CHECK(score_node(counts, nodes[0]) == std::llround(3 * std::log(4.0) + 3 * std::log(3.0)));
  CHECK(score_node(counts, nodes[1]) == std::llround(3 * std::log(3.0)));
  CHECK(score_node(counts, node("node-c", {{"zone", "z1"}})) == kIgnoredNode);  // no hostname label
}

TEST_CASE("normalize_spread_scores: fewer matching pods rank higher, ignored nodes get 0", "[pod_topology_spread]") {
  struct Case {
    const char* name;
    std::vector<int64_t> raw;
    std::vector<int64_t> want;
  };
  const std::vector<Case> cases = {
      {"no nodes", {}, {}},
      {"all zero: every node 100", {0, 0, 0}, {100, 100, 100}},
      {"all ignored", {kIgnoredNode, kIgnoredNode}, {0, 0}},
      {"zero beside an ignored node", {0, kIgnoredNode}, {100, 0}},
      {"2/1/0/3 spread", {4, 2, 0, 5}, {20, 60, 100, 0}},
      {"maxSkew=2 offsets", {5, 3, 1, 6}, {33, 66, 100, 16}},
      {"equal non-zero scores", {3, 3}, {100, 100}},
      {"with an ignored node", {6, kIgnoredNode, 1}, {16, 0, 100}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto scores = c.raw;
    normalize_spread_scores(scores);
    CHECK(scores == c.want);
  }
}

TEST_CASE("PodTopologySpread PreFilter/Filter through the plugin interface", "[pod_topology_spread]") {
  auto plugin = make_plugin();
  const Labels foo = {{"foo", ""}};
  auto cluster = cluster_of(four_nodes(), spread_2_1_0_3());
  auto infos = node_infos(four_nodes(), spread_2_1_0_3());

  SECTION("Skip without DoNotSchedule constraints, cluster shared or not") {
    struct Case {
      const char* name;
      Pod pod;
      bool share;
    };
    const std::vector<Case> cases = {
        {"no constraints, no cluster", spread_pod("p", foo), false},
        {"no constraints", spread_pod("p", foo), true},
        {"only ScheduleAnyway", spread_pod("p", foo, {soft(1, "zone", exists("foo"))}), false},
    };
    for (const auto& c : cases) {
      INFO(c.name);
      CycleState state;
      if (c.share) state.share_input<ClusterPods>(cluster, 7);
      PreFilterResult result;
      CHECK(code(plugin->pre_filter(state, *PodInfo::make(c.pod), result).code) == code(Code::skip));
      CHECK_FALSE(result.node_names);
    }
  }

  SECTION("an internal error when constraints exist but the cluster was not shared") {
    CycleState state;
    PreFilterResult result;
    auto pod = PodInfo::make(spread_pod("p", foo, {hard(1, "zone", exists("foo"))}));
    PluginStatus status = plugin->pre_filter(state, *pod, result);
    CHECK(code(status.code) == code(Code::error));
    CHECK_THAT(status.message(), Catch::Contains("not shared"));
  }

  SECTION("PreFilter counts, Filter looks up the node's domain") {
    CycleState state;
    state.share_input<ClusterPods>(cluster, cluster->generation());
    auto pod = PodInfo::make(spread_pod("p", foo, {hard(1, "node", exists("foo"))}));
    PreFilterResult result;
    REQUIRE(plugin->pre_filter(state, *pod, result).ok());
    std::vector<std::string> fit;
    for (const auto& info : infos) {
      PluginStatus status = plugin->filter(state, *pod, info);
      if (status.ok()) fit.push_back(info.name());
      else CHECK(status.reasons == std::vector<std::string>{kNotMatch});
    }
    CHECK(fit == std::vector<std::string>{"node-x"});
    PluginStatus unknown = plugin->filter(state, *pod, NodeInfo());
    CHECK(code(unknown.code) == code(Code::unschedulable_and_unresolvable));
    CHECK(unknown.reasons == std::vector<std::string>{kMissingLabel});

    // PreScore writes the same slot: Filter still finds its counts afterwards.
    auto both = PodInfo::make(
        spread_pod("p", foo, {hard(1, "node", exists("foo")), soft(1, "zone", exists("foo"))}));
    CycleState state2;
    state2.share_input<ClusterPods>(cluster, cluster->generation());
    PreFilterResult result2;
    REQUIRE(plugin->pre_filter(state2, *both, result2).ok());
    REQUIRE(plugin->pre_score(state2, *both).ok());
    CHECK_FALSE(plugin->filter(state2, *both, infos[0]).ok());
    CHECK(plugin->filter(state2, *both, infos[2]).ok());
  }

  SECTION("Filter without PreFilter's counts lets every node through") {
    CycleState state;
    auto pod = PodInfo::make(spread_pod("p", foo, {hard(1, "node", exists("foo"))}));
    CHECK(plugin->filter(state, *pod, infos[0]).ok());
  }
}

TEST_CASE("PodTopologySpread PreScore/Score/NormalizeScore through the plugin interface", "[pod_topology_spread]") {
  auto plugin = make_plugin();
  const Labels foo = {{"foo", ""}};
  const auto nodes = hostname_nodes({"node-a", "node-b", "node-c", "node-d"});
  const auto existing = join({on("node-a", 2), on("node-b", 1), on("node-d", 3)});
  auto cluster = cluster_of(nodes, existing);
  auto infos = node_infos(nodes, existing);

  CycleState no_constraints;
  no_constraints.share_input<ClusterPods>(cluster, 1);
  CHECK(code(plugin->pre_score(no_constraints, *PodInfo::make(spread_pod("p", foo))).code) == code(Code::skip));
  CycleState only_hard;
  only_hard.share_input<ClusterPods>(cluster, 1);
  CHECK(code(plugin->pre_score(only_hard, *PodInfo::make(spread_pod("p", foo, {hard(1, kHostname, exists("foo"))})))
                 .code) == code(Code::skip));

  auto pod = PodInfo::make(spread_pod("p", foo, {soft(1, kHostname, exists("foo"))}));
  CycleState unshared;
  CHECK(code(plugin->pre_score(unshared, *pod).code) == code(Code::error));

  CycleState state;
  state.share_input<ClusterPods>(cluster, cluster->generation());
  REQUIRE(plugin->pre_score(state, *pod).ok());
  std::vector<int64_t> scores;
  for (const auto& info : infos) {
    ScoreResult r = plugin->score(state, *pod, info);
    REQUIRE(r.status.ok());
    scores.push_back(r.score);
  }
  CHECK(plugin->has_normalize_score());
  REQUIRE(plugin->normalize_scores(state, *pod, scores).ok());
  CHECK(scores == std::vector<int64_t>{20, 60, 100, 0});
}

TEST_CASE("PodTopologySpread args", "[pod_topology_spread]") {
  struct Case {
    const char* yaml;
    bool ok;
    const char* message_part;
  };
  const std::vector<Case> cases = {
      {"", true, ""},
      {"{}", true, ""},
      {"{defaultingType: System}", true, ""},
      {"{defaultingType: List}", true, ""},
      {"{defaultingType: List, defaultConstraints: []}", true, ""},
      {"{defaultingType: Sometimes}", false, "defaultingType: Unsupported value: \"Sometimes\""},
      {"{defaultingType: system}", false, "defaultingType"},
      {"{defaultingType: List, defaultConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: "
       "ScheduleAnyway}]}",
       true, ""},
      {"{defaultingType: List, defaultConstraints: [{maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, "
       "minDomains: 3, nodeAffinityPolicy: Ignore, nodeTaintsPolicy: Honor, matchLabelKeys: [version]}, "
       "{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}]}",
       true, ""},
      {"{defaultConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]}", false,
       "defaultingType: Invalid value: \"System\": when .defaultConstraints are not empty"},
      {"{defaultingType: List, defaultConstraints: [{topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]}", false,
       "defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)"},
      {"{defaultingType: List, defaultConstraints: [{maxSkew: -1, topologyKey: zone, whenUnsatisfiable: "
       "DoNotSchedule}]}",
       false, "defaultConstraints[0].maxSkew: Invalid value: -1"},
      {"{defaultingType: List, defaultConstraints: [{maxSkew: 1, whenUnsatisfiable: DoNotSchedule}]}", false,
       "defaultConstraints[0].topologyKey: Required value: can not be empty"},
      {"{defaultingType: List, defaultConstraints: [{maxSkew: 1, topologyKey: 'a/b/c', whenUnsatisfiable: "
       "DoNotSchedule}]}",
       false, "defaultConstraints[0].topologyKey: Invalid value: \"a/b/c\""},
      {"{defaultingType: List, defaultConstraints: [{maxSkew: 1, topologyKey: zone}]}", false,
       "defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty"},
      {"{defaultingType: List, defaultConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Unknown}]}",
       false, "defaultConstraints[0].whenUnsatisfiable: Unsupported value: \"Unknown\""},
      {"{defaultingType: List, defaultConstraints: [{maxSkew: 1, topologyKey: rack, whenUnsatisfiable: "
       "ScheduleAnyway, labelSelector: {matchLabels: {foo: bar}}}]}",
       false,
       "defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced for "
       "each pod"},
      {"{defaultingType: List, defaultConstraints: [{maxSkew: 1, topologyKey: node, whenUnsatisfiable: "
       "DoNotSchedule}, {maxSkew: 2, topologyKey: node, whenUnsatisfiable: DoNotSchedule}]}",
       false, "defaultConstraints[1]: Duplicate value: \"{node, DoNotSchedule}\""},
      {"{defaultingType: List, defaultConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: "
       "DoNotSchedule, minDomains: 0}]}",
       false, "defaultConstraints[0].minDomains: Invalid value: 0: must be greater than zero"},
      {"{defaultingType: List, defaultConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: "
       "DoNotSchedule, nodeTaintsPolicy: Sometimes}]}",
       false, "defaultConstraints[0].nodeTaintsPolicy: Unsupported value: \"Sometimes\""},
      {"{defaultingType: List, defaultConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: "
       "DoNotSchedule, maxskew: 2}]}",
       false, "defaultConstraints[0].maxskew: unknown field"},
      {"{defaultingType: List, defaultConstraints: {maxSkew: 1}}", false, "defaultConstraints"},
      {"{defaultingType: List, maxSkew: 1}", false, "maxSkew: unknown field"},
      {"[1]", false, ""},
  };
  for (const auto& c : cases) {
    INFO(c.yaml);
    auto plugin = PodTopologySpread::make(std::string(c.yaml).empty() ? YAML::Node() : YAML::Load(c.yaml));
    CHECK(plugin.ok() == c.ok);
    if (!plugin.ok()) CHECK_THAT(plugin.message(), Catch::StartsWith(c.message_part));
  }
  auto plugin = make_plugin();
  CHECK(plugin->name() == "PodTopologySpread");
  CHECK_FALSE(plugin->events_to_register().empty());

  // What the defaults are: the system's two, a list, or none.
  const auto& system = plugin->args();
  CHECK(system.system_defaulted);
  REQUIRE(system.default_constraints.size() == 2);
  CHECK(system.default_constraints[0].topology_key == kHostname);
  CHECK(system.default_constraints[0].max_skew == 3);
  CHECK(system.default_constraints[1].topology_key == "topology.kubernetes.io/zone");
  CHECK(system.default_constraints[1].max_skew == 5);
  for (const auto& c : system.default_constraints) CHECK(c.when_unsatisfiable == kScheduleAnyway);
  const auto listed = make_plugin(
      "{defaultingType: List, defaultConstraints: [{maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, "
      "minDomains: 3, nodeAffinityPolicy: Ignore, nodeTaintsPolicy: Honor}]}");
  CHECK_FALSE(listed->args().system_defaulted);
  REQUIRE(listed->args().default_constraints.size() == 1);
  const auto& c = listed->args().default_constraints[0];
  CHECK(c.max_skew == 2);
  CHECK(c.topology_key == "zone");
  CHECK(c.when_unsatisfiable == kDoNotSchedule);
  CHECK(c.min_domains == 3);
  CHECK(c.node_affinity_policy == kIgnore);
  CHECK(c.node_taints_policy == kHonor);
  CHECK(make_plugin("{defaultingType: List}")->args().default_constraints.empty());
}

namespace {

/// A ReplicaSet "web" in "default" selecting app=web, and a Service "api" selecting tier=api.
std::shared_ptr<const WorkloadSelectors> web_workloads() {
  auto workloads = std::make_shared<WorkloadSelectors>();
  WorkloadSelector rs;
  rs.kind = WorkloadKind::replica_set;
  rs.namespace_name = "default";
  rs.name = "web";
  rs.requirements = {requirement("app", Op::in, {"web"})};
  workloads->upsert(rs);
  WorkloadSelector svc;
  svc.kind = WorkloadKind::service;
  svc.namespace_name = "default";
  svc.name = "api";
  svc.match_labels = {{"tier", "api"}};
  workloads->upsert(svc);
  return workloads;
}

/// A pod of the ReplicaSet "web".
Pod web_pod(const std::string& name, std::vector<TopologySpreadConstraint> constraints = {}) {
  Pod pod = spread_pod(name, {{"app", "web"}}, std::move(constraints));
  OwnerReference owner;
  owner.api_version = "apps/v1";
  owner.kind = "ReplicaSet";
  owner.name = "web";
  owner.controller = true;
  pod.meta.owner_references.push_back(owner);
  return pod;
}

/// Normalized PodTopologySpread scores of `pod` over `nodes` with `existing` placed.
std::vector<int64_t> plugin_scores(const PodTopologySpread& plugin, const Pod& pod, const std::vector<Node>& nodes,
                                   const std::vector<Placed>& existing,
                                   const std::shared_ptr<const WorkloadSelectors>& workloads, Code* pre_score = nullptr) {
  auto cluster = cluster_of(nodes, existing);
  CycleState state;
  state.share_input<ClusterPods>(cluster, cluster->generation() + 1);
  if (workloads) state.share_input<WorkloadSelectors>(workloads, workloads->generation() + 1);
  auto info = PodInfo::make(pod);
  PluginStatus status = plugin.pre_score(state, *info);
  if (pre_score) *pre_score = status.code;
  std::vector<int64_t> scores;
  if (!status.ok()) return scores;
  for (const auto& n : node_infos(nodes, existing)) scores.push_back(plugin.score(state, *info, n).score);
  REQUIRE(plugin.normalize_scores(state, *info, scores).ok());
  return scores;
}

}  // namespace

TEST_CASE("PodTopologySpread system defaults spread a pod over its siblings by host and zone", "[pod_topology_spread]") {
  auto plugin = make_plugin();
  auto workloads = web_workloads();
  const std::string kZone = "topology.kubernetes.io/zone";
  const Labels web = {{"app", "web"}};
  // node-a, node-b in z1; node-c in z2; node-d has no zone label (hosts still spread it).
  const std::vector<Node> nodes = {node("node-a", {{kHostname, "node-a"}, {kZone, "z1"}}),
                                   node("node-b", {{kHostname, "node-b"}, {kZone, "z1"}}),
                                   node("node-c", {{kHostname, "node-c"}, {kZone, "z2"}}),
                                   node("node-d", {{kHostname, "node-d"}})};
  struct Case {
    const char* name;
    Pod pod;
    std::vector<Placed> existing;
    bool share_workloads;
    Code pre_score;
    std::vector<int64_t> want;
  };
  const std::vector<Case> cases = {
      // Raw scores: count × log(domains + 2) + maxSkew − 1 per constraint the
      // node has a key for (host: 4 domains; zone: z1, z2 and node-d's "" as
      // upstream's initPreScoreState reads a missing key, 3). node-a: 3
      // siblings on the host, 4 in z1: 3·1.79 + 2 + 4·1.61 + 4 = 18; node-b
      // 14; node-c 6; node-d (no zone label) only its host's 2, so it ranks first.
      {"siblings on node-a and node-b push the pod to node-c and node-d", web_pod("p"),
       join({on("node-a", 3, web), on("node-b", 1, web)}), true, Code::success, {11, 33, 77, 100}},
      {"pods that are not siblings count for nothing", web_pod("p"),
       join({on("node-a", 3, {{"app", "db"}}), on("node-b", 1, {{"app", "db"}})}), true, Code::success,
       {33, 33, 33, 100}},
      {"the Service's pods are siblings of a pod it selects", spread_pod("p", {{"tier", "api"}}),
       join({on("node-a", 2, {{"tier", "api"}}), on("node-c", 2, {{"tier", "api"}})}), true, Code::success,
       {15, 46, 15, 100}},
      {"a pod nobody selects gets no default constraints", spread_pod("p", {{"app", "lonely"}}),
       on("node-a", 3, web), true, Code::skip, {}},
      {"without the workloads shared, no default constraints", web_pod("p"), on("node-a", 3, web), false, Code::skip,
       {}},
      {"a pod's own constraints replace the defaults",
       web_pod("p", {soft(1, kHostname, in("app", {"db"}))}), join({on("node-a", 3, web), on("node-d", 1, {{"app", "db"}})}),
       true, Code::success, {100, 100, 100, 0}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    Code pre_score = Code::error;
    auto scores = plugin_scores(*plugin, c.pod, nodes, c.existing, c.share_workloads ? workloads : nullptr, &pre_score);
    CHECK(code(pre_score) == code(c.pre_score));
    CHECK(scores == c.want);
  }
}

TEST_CASE("PodTopologySpread List defaults: DoNotSchedule filters, and a node lacking a key is ignored",
          "[pod_topology_spread]") {
  auto workloads = web_workloads();
  const Labels web = {{"app", "web"}};
  const auto existing = join({on("node-a", 2, web), on("node-b", 1, web)});
  SECTION("a DoNotSchedule default keeps the siblings within maxSkew") {
    auto plugin = make_plugin(
        "{defaultingType: List, defaultConstraints: [{maxSkew: 1, topologyKey: node, whenUnsatisfiable: "
        "DoNotSchedule}]}");
    auto cluster = cluster_of(four_nodes(), existing);
    CycleState state;
    state.share_input<ClusterPods>(cluster, cluster->generation() + 1);
    state.share_input<WorkloadSelectors>(workloads, workloads->generation() + 1);
    auto pod = PodInfo::make(web_pod("p"));
    PreFilterResult result;
    REQUIRE(plugin->pre_filter(state, *pod, result).ok());
    std::vector<std::string> fit;
    for (const auto& info : node_infos(four_nodes(), existing))
      if (plugin->filter(state, *pod, info).ok()) fit.push_back(info.name());
    CHECK(fit == std::vector<std::string>{"node-x", "node-y"});

    CycleState plain;  // the same pod with no siblings' selector: Skip
    plain.share_input<ClusterPods>(cluster, cluster->generation() + 1);
    CHECK(code(plugin->pre_filter(plain, *pod, result).code) == code(Code::skip));
  }
  SECTION("List defaults require every key: a node without the zone label is ignored") {
    auto plugin = make_plugin(
        "{defaultingType: List, defaultConstraints: [{maxSkew: 1, topologyKey: node, whenUnsatisfiable: "
        "ScheduleAnyway}, {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}]}");
    std::vector<Node> nodes = four_nodes();
    nodes[3].meta.labels.erase("zone");
    auto scores = plugin_scores(*plugin, web_pod("p"), nodes, existing, workloads);
    REQUIRE(scores.size() == 4);
    CHECK(scores[3] == 0);  // ignored
    CHECK(scores[2] == 100);
  }
}

TEST_CASE("PodTopologySpread update_counts: pods leaving and rejoining a node count as a recount would (preemption's dry run)",
          "[pod_topology_spread]") {
  const Code ok = Code::success;
  const Code no = Code::unschedulable;
  const Labels foo = {{"foo", ""}};
  struct Case {
    const char* name;
    Pod pod;
    std::vector<Placed> existing;
    std::vector<size_t> removed;  // indexes into existing; every one on `on`
    std::string on;
    std::string judged;
    Code before, after;  // Filter on `judged`, with and without the removed pods
  };
  const Pod by_node = spread_pod("p", foo, {hard(1, "node", exists("foo"))});
  const Pod by_zone = spread_pod("p", foo, {hard(1, "zone", exists("foo"))});
  const Pod zone2_only = spread_pod(PodBuilder("p").node_selector({{"zone", "zone2"}}).pod(), foo,
                                    {hard(1, "node", exists("foo"))});
  const std::vector<Placed> terminating_on_a = {{terminating(spread_pod("t", foo)), "node-a"}};
  const std::vector<Case> cases = {
      {"by node: both matching pods leave node-a", by_node, spread_2_1_0_3(), {0, 1}, "node-a", "node-a", no, ok},
      {"by node: one of two is not enough", by_node, spread_2_1_0_3(), {0}, "node-a", "node-a", no, no},
      {"by zone: one pod leaves the fuller zone", by_zone, join({on("node-a", 2), on("node-x", 1)}), {0}, "node-a",
       "node-a", no, ok},
      {"by zone: the other zone loses a pod, the minimum follows", by_zone,
       join({on("node-a", 2), on("node-x", 1), on("node-y", 1)}), {2}, "node-x", "node-a", ok, no},
      {"minDomains above the domains keeps the minimum at 0",
       spread_pod("p", foo, {hard(1, "zone", exists("foo")).min_domains(3)}),
       join({on("node-a", 1), on("node-x", 1)}), {0}, "node-a", "node-a", no, ok},
      {"a pod of another namespace counts nowhere", by_node, join({on("node-a", 1), on("node-a", 1, foo, "other")}),
       {1}, "node-a", "node-a", no, no},
      {"a pod the selector does not match counts nowhere", by_node,
       join({on("node-a", 1), on("node-a", 1, {{"bar", ""}})}), {1}, "node-a", "node-a", no, no},
      {"a terminating pod counts nowhere", by_node, join({on("node-a", 1), terminating_on_a}), {1}, "node-a",
       "node-a", no, no},
      {"a node the pod's nodeSelector leaves out counts nowhere (nodeAffinityPolicy Honor)", zone2_only,
       join({on("node-a", 2), on("node-x", 1)}), {0}, "node-a", "node-x", no, no},
  };
  auto same = [](const SpreadFilterCounts& a, const SpreadFilterCounts& b) {
    // A dry run keeps a domain it empties, listed with 0; a recount does not list it.
    auto with_pods = [](std::unordered_map<std::string, int64_t> matching) {
      for (auto domain = matching.begin(); domain != matching.end();)
        domain = domain->second == 0 ? matching.erase(domain) : std::next(domain);
      return matching;
    };
    REQUIRE(a.matching.size() == b.matching.size());
    for (size_t i = 0; i < a.matching.size(); ++i) CHECK(with_pods(a.matching[i]) == with_pods(b.matching[i]));
    CHECK(a.domains == b.domains);
    CHECK(a.min_matching == b.min_matching);
  };
  const auto nodes = four_nodes();
  auto named = [&](const std::string& name) -> const Node& {
    return *std::find_if(nodes.begin(), nodes.end(), [&](const Node& n) { return n.meta.name == name; });
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const std::vector<Placed> staying = without_indexes(c.existing, c.removed);
    const auto constraints = constraints_of(c.pod, kDoNotSchedule);
    const auto full = count_for_filter(c.pod, constraints, *cluster_of(nodes, c.existing));
    const auto without = count_for_filter(c.pod, constraints, *cluster_of(nodes, staying));
    const Labels& judged = named(c.judged).meta.labels;
    CHECK(code(filter_node(full, c.pod, judged).code) == code(c.before));

    SpreadFilterCounts counts = full;
    for (size_t i : c.removed) update_counts(counts, c.pod, *PodInfo::make(c.existing[i].pod), named(c.on), -1);
    same(counts, without);
    CHECK(code(filter_node(counts, c.pod, judged).code) == code(c.after));
    for (size_t i : c.removed) update_counts(counts, c.pod, *PodInfo::make(c.existing[i].pod), named(c.on), +1);
    same(counts, full);
  }
}

TEST_CASE("PodTopologySpread AddPod/RemovePod update a copied CycleState, not the cycle's", "[pod_topology_spread]") {
  auto plugin = make_plugin();
  const Labels foo = {{"foo", ""}};
  const auto existing = on("node-a", 2);
  auto cluster = cluster_of(four_nodes(), existing);
  auto infos = node_infos(four_nodes(), existing);
  auto pod = PodInfo::make(spread_pod("p", foo, {hard(1, "node", exists("foo"))}));
  CycleState cycle;
  cycle.share_input<ClusterPods>(cluster, cluster->generation());
  PreFilterResult result;
  REQUIRE(plugin->pre_filter(cycle, *pod, result).ok());

  CycleState node_copy = cycle;
  for (const auto& placed : existing) {
    auto info = PodInfo::make(placed.pod);
    REQUIRE(infos[0].remove_pod(pod_identity(*info)));
    REQUIRE(plugin->remove_pod(node_copy, *pod, *info, infos[0]).ok());
  }
  CHECK(plugin->filter(node_copy, *pod, infos[0]).ok());
  CHECK(code(plugin->filter(cycle, *pod, infos[0]).code) == code(Code::unschedulable));
  auto back = PodInfo::make(existing[0].pod);
  REQUIRE(infos[0].add_pod(back));
  REQUIRE(plugin->add_pod(node_copy, *pod, *back, infos[0]).ok());
  CHECK(code(plugin->filter(node_copy, *pod, infos[0]).code) == code(Code::unschedulable));  // 1 + 1 − 0 > 1
}
