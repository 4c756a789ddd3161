// The labels a pod's scheduling class keeps in the cycle
// (plugins/framework/class_labels.hpp), and the two key sets they are
// narrowed by: the placed pods' affinity terms' (TermsByLabel, through
// ClusterPods) and the Services' and controllers' (WorkloadSelectors).

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/label_selector.hpp"
#include "plugins/elastic_quota/quota_spec.hpp"
#include "plugins/framework/class_labels.hpp"
#include "plugins/framework/cluster_pods.hpp"
#include "plugins/framework/workload_selectors.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

namespace {

LabelSelector selector(const char* text) { return *parse_label_selector(text); }

PodAffinityTerm term(const char* text) {
  PodAffinityTerm t;
  t.label_selector = selector(text);
  t.topology_key = "kubernetes.io/hostname";
  return t;
}

/// The keys of the labels kept, in order ("app,tier").
std::string kept_keys(const Pod& pod, const LabelKeyCounts& placed_terms, const LabelKeyCounts& workloads) {
  const std::string text = labels_read(pod, SelectedLabelKeys{placed_terms, workloads});
  std::string keys;
  for (size_t at = text.find("\nlabel "); at != std::string::npos; at = text.find("\nlabel ", at + 1)) {
    if (text.compare(at, 12, "\nlabel keys ") == 0) continue;
    const size_t start = at + 7, eq = text.find('=', start);
    keys += (keys.empty() ? "" : ",") + text.substr(start, eq - start);
  }
  return keys;
}

WorkloadSelector service(const std::string& name, Labels match_labels) {
  WorkloadSelector s;
  s.kind = WorkloadKind::service;
  s.namespace_name = "default";
  s.name = name;
  s.match_labels = std::move(match_labels);
  return s;
}

}  // namespace

TEST_CASE("labels_read keeps the labels a selector or plugin may read", "[plugins][class-labels]") {
  const Labels labels = {{"app", "web"},
                         {"tier", "front"},
                         {"statefulset.kubernetes.io/pod-name", "web-3"},
                         {"version", "v2"},
                         {"koordinator.sh/qosClass", "LS"}};
  LabelKeyCounts placed_app, workloads_tier, none;
  placed_app.add(selector("app in (web,api)"));
  workloads_tier.add("tier");

  struct Case {
    const char* what;
    std::function<void(Pod&)> own;
    const LabelKeyCounts* placed_terms;
    const LabelKeyCounts* workloads;
    const char* kept;
  };
  const std::vector<Case> cases = {
      {"nothing selects: only the plugin's label", [](Pod&) {}, &none, &none, "koordinator.sh/qosClass"},
      {"a placed term names app", [](Pod&) {}, &placed_app, &none, "app,koordinator.sh/qosClass"},
      {"a Service names tier", [](Pod&) {}, &none, &workloads_tier, "koordinator.sh/qosClass,tier"},
      {"both", [](Pod&) {}, &placed_app, &workloads_tier, "app,koordinator.sh/qosClass,tier"},
      {"its own anti-affinity names version",
       [](Pod& p) { p.spec.affinity.emplace().pod_anti_affinity.emplace().required.push_back(term("version=v2")); },
       &none, &none, "koordinator.sh/qosClass,version"},
      {"its own preferred affinity's matchLabelKeys read the pod-name",
       [](Pod& p) {
         auto t = term("app=web");
         t.match_label_keys = {"statefulset.kubernetes.io/pod-name"};
         p.spec.affinity.emplace().pod_affinity.emplace().preferred.push_back({5, t});
       },
       &none, &none, "app,koordinator.sh/qosClass,statefulset.kubernetes.io/pod-name"},
      {"mismatchLabelKeys too",
       [](Pod& p) {
         auto t = term("tier=front");
         t.mismatch_label_keys = {"version"};
         p.spec.affinity.emplace().pod_anti_affinity.emplace().preferred.push_back({5, t});
       },
       &none, &none, "koordinator.sh/qosClass,tier,version"},
      {"its own spread constraint and its matchLabelKeys",
       [](Pod& p) {
         TopologySpreadConstraint c;
         c.topology_key = "zone";
         c.label_selector = selector("app");
         c.match_label_keys = {"version"};
         p.spec.topology_spread_constraints.push_back(c);
       },
       &none, &none, "app,koordinator.sh/qosClass,version"},
      {"a spread constraint without a selector reads nothing", [](Pod& p) {
         TopologySpreadConstraint c;
         c.topology_key = "zone";
         p.spec.topology_spread_constraints.push_back(c);
       },
       &none, &none, "koordinator.sh/qosClass"},
  };
  for (const auto& c : cases) {
    SECTION(c.what) {
      Pod pod = PodBuilder("p").pod();
      pod.meta.labels = labels;
      c.own(pod);
      CHECK(kept_keys(pod, *c.placed_terms, *c.workloads) == c.kept);
    }
  }
}

TEST_CASE("pods that differ only in labels nothing reads share the cycle's class", "[plugins][class-labels]") {
  LabelKeyCounts placed_terms, workloads;
  placed_terms.add(selector("app=web"));
  const SelectedLabelKeys selected{placed_terms, workloads};
  auto pod_of = [](const std::string& name, Labels labels) {
    Pod pod = PodBuilder(name).container({{"cpu", "1"}}).pod();
    pod.meta.labels = std::move(labels);
    return pod;
  };
  const Pod web0 = pod_of("web-0", {{"app", "web"}, {"statefulset.kubernetes.io/pod-name", "web-0"}});
  const Pod web1 = pod_of("web-1", {{"app", "web"}, {"statefulset.kubernetes.io/pod-name", "web-1"}});
  const Pod api0 = pod_of("api-0", {{"app", "api"}, {"statefulset.kubernetes.io/pod-name", "web-0"}});
  auto cycle_class = [&](const Pod& pod) { return with_labels_read(scheduling_class_of(pod), pod, selected); };

  CHECK_FALSE(*scheduling_class_of(web0) == *scheduling_class_of(web1));  // the queue's: every label
  CHECK(*cycle_class(web0) == *cycle_class(web1));
  CHECK(cycle_class(web0)->same_filter_inputs(*cycle_class(web1)));
  CHECK_FALSE(*cycle_class(web0) == *cycle_class(api0));  // app is read
  Pod web0_in_quota = web0;
  web0_in_quota.meta.labels[elastic_quota::kLabelQuotaName] = "team-a";
  CHECK(*cycle_class(web0_in_quota) == *cycle_class(web0));  // the quota decides at PreFilter
  const auto queued = scheduling_class_of(web0);
  CHECK(with_labels_read(queued, web0, selected)->key == queued->key);  // the text but the labels is shared

  SECTION("a key set of another generation makes another class") {
    const auto before = cycle_class(web0);
    placed_terms.add(selector("tier=front"));
    CHECK_FALSE(*before == *cycle_class(web0));
  }
  SECTION("the inputs version still tells classes apart") {
    CHECK_FALSE(*with_inputs_version(cycle_class(web0), 3) == *with_inputs_version(cycle_class(web1), 4));
    CHECK(*with_inputs_version(cycle_class(web0), 3) == *with_inputs_version(cycle_class(web1), 3));
  }
}

TEST_CASE("LabelKeyCounts: a key stays while a selector names it; the generation moves when one comes or goes",
          "[plugins][class-labels]") {
  LabelKeyCounts keys;
  CHECK(keys.generation() == 0);
  keys.add(selector("app=web,tier"));
  CHECK(keys.contains("app"));
  CHECK(keys.contains("tier"));
  CHECK(keys.generation() == 2);
  keys.add(selector("app in (db)"));  // app again: nothing new
  CHECK(keys.generation() == 2);
  keys.remove(selector("app=web,tier"));
  CHECK(keys.contains("app"));  // the second selector still names it
  CHECK_FALSE(keys.contains("tier"));
  CHECK(keys.generation() == 3);
  keys.remove(selector("app in (db)"));
  CHECK_FALSE(keys.contains("app"));
  CHECK(keys.size() == 0);
  keys.remove("never-added");  // nothing to take away
  CHECK(keys.generation() == 4);
}

TEST_CASE("ClusterPods counts the keys its placed pods' terms name", "[plugins][class-labels]") {
  ClusterPods cluster;
  cluster.upsert_node(std::make_shared<const Node>(NodeBuilder("n1").node()));
  Pod anti = PodBuilder("anti").pod();
  auto t = term("app=web");
  t.match_label_keys = {"version"};  // resolved with the placed pod's value: version In (v1)
  anti.spec.affinity.emplace().pod_anti_affinity.emplace().required.push_back(t);
  anti.meta.labels = {{"version", "v1"}};
  Pod plain = PodBuilder("plain").pod();
  plain.meta.labels = {{"app", "web"}};

  const auto& keys = cluster.terms_by_label().selected_keys();
  cluster.add_pod(PodInfo::make(plain), "n1");
  CHECK(keys.size() == 0);  // a pod's labels are not a selector
  cluster.add_pod(PodInfo::make(anti), "n1");
  CHECK(keys.contains("app"));
  CHECK(keys.contains("version"));
  cluster.add_pod(PodInfo::make(anti), "n1");  // the same pod again (an update): counted once
  cluster.remove_pod(PodInfo::make(anti)->pod->meta.uid);
  CHECK(keys.size() == 0);
}

TEST_CASE("WorkloadSelectors counts the keys its selectors name", "[plugins][class-labels]") {
  WorkloadSelectors workloads;
  const auto& keys = workloads.selected_keys();
  workloads.upsert(service("web", {{"app", "web"}}));
  CHECK(keys.contains("app"));
  workloads.upsert(service("web", {{"tier", "front"}}));  // its selector changed
  CHECK_FALSE(keys.contains("app"));
  CHECK(keys.contains("tier"));
  WorkloadSelector rs;
  rs.kind = WorkloadKind::replica_set;
  rs.namespace_name = "default";
  rs.name = "web-5d8f";
  rs.requirements = selector("pod-template-hash=5d8f").requirements();
  workloads.upsert(rs);
  CHECK(keys.contains("pod-template-hash"));
  workloads.remove(WorkloadKind::service, "default", "web");
  workloads.remove(WorkloadKind::replica_set, "default", "web-5d8f");
  CHECK(keys.size() == 0);
}
