// The cycle narrows a pod's class to the labels something may read of it
// (plugins/framework/class_labels.hpp), so pods that differ in other labels
// share the evaluation cache's entries. Through the real actors (BenchHarness:
// queue, cycle, node partitions, binder), a random run with labels that
// selectors read and labels nothing reads (and owners that default spreading
// reads and owners nothing reads) must place every pod where the same
// run without the cache places it: a label left out that a placed pod's term,
// a Service or the pod's own term reads would let one pod take another's
// cached verdict and land elsewhere.

#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "actors/bench_harness.hpp"
#include "model/label_selector.hpp"
#include "plugins/elastic_quota/quota_spec.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::actors;
using namespace troupe::plugins::testing;

namespace {

const char* const kConfig =
    "apiVersion: kubescheduler.config.k8s.io/v1\n"
    "kind: KubeSchedulerConfiguration\n"
    "leaderElection:\n"
    "  leaderElect: false\n"
    "profiles:\n"
    "  - schedulerName: troupe\n";

const std::vector<std::string> kApps = {"web", "api", "db"};
const std::vector<std::string> kZones = {"zone-a", "zone-b", "zone-c"};

int64_t between(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

std::vector<Node> random_nodes(std::mt19937_64& rng, int count) {
  std::vector<Node> nodes;
  for (int i = 0; i < count; ++i) {
    const std::string name = "node-" + std::to_string(i);
    nodes.push_back(NodeBuilder(name)
                        .allocatable({{"cpu", std::to_string(between(rng, 4, 16))},
                                      {"memory", std::to_string(between(rng, 8, 64)) + "Gi"},
                                      {"pods", std::to_string(between(rng, 4, 12))}})
                        .label("kubernetes.io/hostname", name)
                        .label("topology.kubernetes.io/zone", kZones[static_cast<size_t>(i) % kZones.size()])
                        .node());
  }
  return nodes;
}

PodAffinityTerm term(const std::string& selector, const std::string& topology_key) {
  PodAffinityTerm t;
  t.label_selector = *parse_label_selector(selector);
  t.topology_key = topology_key;
  return t;
}

/// Few shapes, so classes repeat; labels a selector reads (app, tier) and
/// labels nothing reads (a per-pod index, a batch name); some pods with terms
/// and spread constraints of their own.
Pod random_pod(std::mt19937_64& rng, int index) {
  const std::string name = "pod-" + std::to_string(index);
  Pod pod = PodBuilder(name).container({{"cpu", std::to_string(between(rng, 1, 2))}, {"memory", "1Gi"}}).pod();
  const std::string app = kApps[static_cast<size_t>(between(rng, 0, 2))];
  pod.meta.labels = {{"app", app},
                     {"apps.kubernetes.io/pod-index", std::to_string(index)},
                     {"batch", "batch-" + std::to_string(between(rng, 0, 3))}};
  if (between(rng, 0, 1) == 0) pod.meta.labels["tier"] = "front";
  pod.meta.annotations["batch.kubernetes.io/job-completion-index"] = std::to_string(index);
  // Web pods are a ReplicaSet's (default spreading looks its selector up by
  // name); the others a Job's, which no plugin reads.
  if (app == "web")
    pod.meta.owner_references.push_back(OwnerReference{"apps/v1", "ReplicaSet", "web-rs", "uid-web-rs", true, {}});
  else
    pod.meta.owner_references.push_back(
        OwnerReference{"batch/v1", "Job", pod.meta.labels["batch"], "uid-" + pod.meta.labels["batch"], true, {}});
  switch (between(rng, 0, 7)) {
    case 0:  // one web or api pod per host
      pod.spec.affinity.emplace().pod_anti_affinity.emplace().required.push_back(
          term("app=" + app, "kubernetes.io/hostname"));
      break;
    case 1:  // near the db, if it can
      pod.spec.affinity.emplace().pod_affinity.emplace().preferred.push_back(
          {10, term("app=db", "topology.kubernetes.io/zone")});
      break;
    case 2: {  // spread per batch: matchLabelKeys reads a label no other selector names
      TopologySpreadConstraint c;
      c.max_skew = 1;
      c.topology_key = "topology.kubernetes.io/zone";
      c.when_unsatisfiable = UnsatisfiableAction::schedule_anyway;
      c.label_selector = *parse_label_selector("app");
      c.match_label_keys = {"batch"};
      pod.spec.topology_spread_constraints.push_back(c);
      break;
    }
    default: break;  // placed by what others' terms and the Service say of its labels
  }
  return pod;
}

/// Where each pod went (or why not), by pod.
std::map<std::string, std::string> run(bool evaluation_cache, const std::vector<Node>& nodes,
                                       const std::vector<Pod>& pods) {
  BenchHarnessOptions options;
  options.config_yaml = kConfig;
  options.threads = 2;
  options.partitions = 2;
  options.evaluation_cache = evaluation_cache;
  auto harness = BenchHarness::start(options);
  REQUIRE(harness);
  (*harness)->load_cluster(nodes, {}, {});
  WorkloadSelector front;
  front.kind = WorkloadKind::service;
  front.namespace_name = "default";
  front.name = "front";
  front.match_labels = {{"tier", "front"}};
  WorkloadSelector web_rs;
  web_rs.kind = WorkloadKind::replica_set;
  web_rs.namespace_name = "default";
  web_rs.name = "web-rs";
  web_rs.requirements = parse_label_selector("app=web")->requirements();
  (*harness)->load_workloads({front, web_rs});
  auto outcomes = (*harness)->schedule(pods, 1, std::chrono::seconds(120));
  REQUIRE(outcomes);
  std::map<std::string, std::string> placed;
  for (const auto& o : *outcomes) placed[o.key] = o.bound ? o.node : "unplaced: " + o.message;
  return placed;
}

}  // namespace

TEST_CASE("narrowed classes: the cycle with the evaluation cache places as the cycle without it",
          "[evaluation-cache][class-labels]") {
  for (uint64_t seed : {1, 2, 3}) {
    std::mt19937_64 rng(seed);
    const auto nodes = random_nodes(rng, 24);
    std::vector<Pod> pods;
    for (int i = 0; i < 160; ++i) pods.push_back(random_pod(rng, i));
    const auto cached = run(true, nodes, pods);
    const auto fresh = run(false, nodes, pods);
    REQUIRE(cached.size() == pods.size());
    for (const auto& [pod, where] : fresh) {
      INFO("seed " << seed << ", " << pod);
      CHECK(cached.at(pod) == where);
    }
  }
}

TEST_CASE("narrowed classes keep the labels the pod's own terms read of it", "[evaluation-cache][class-labels]") {
  // Every node runs a web pod of batch-0. A pod whose anti-affinity keeps it
  // from web pods of its own batch (matchLabelKeys) fits nowhere in batch-0
  // and anywhere in batch-1; the second batch-0 pod fills the cache's table
  // (a class is cached from its second pod) with its failures, which the
  // batch-1 pod, under the same inputs, must not be given.
  std::mt19937_64 rng(7);
  const auto nodes = random_nodes(rng, 4);
  BenchHarnessOptions options;
  options.config_yaml = kConfig;
  options.threads = 2;
  auto harness = BenchHarness::start(options);
  REQUIRE(harness);
  (*harness)->load_cluster(nodes, {}, {});
  std::vector<Pod> running;
  for (const auto& node : nodes) {
    Pod pod = PodBuilder("running-on-" + node.meta.name).container({{"cpu", "1"}}).node_name(node.meta.name).pod();
    pod.meta.labels = {{"app", "web"}, {"batch", "batch-0"}};
    running.push_back(pod);
  }
  REQUIRE((*harness)->place_bound_pods(running));

  auto pending = [](const std::string& name, const std::string& batch) {
    Pod pod = PodBuilder(name).container({{"cpu", "1"}}).pod();
    pod.meta.labels = {{"app", "web"}, {"batch", batch}};
    auto t = term("app=web", "kubernetes.io/hostname");
    t.match_label_keys = {"batch"};
    pod.spec.affinity.emplace().pod_anti_affinity.emplace().required.push_back(t);
    return pod;
  };
  std::map<std::string, bool> bound;
  for (const Pod& pod : {pending("first", "batch-0"), pending("second", "batch-0"), pending("other-batch", "batch-1")}) {
    auto outcomes = (*harness)->schedule({pod}, 1, std::chrono::seconds(60));
    REQUIRE(outcomes);
    REQUIRE(outcomes->size() == 1);
    bound[pod.meta.name] = outcomes->front().bound;
  }
  CHECK_FALSE(bound["first"]);
  CHECK_FALSE(bound["second"]);
  CHECK(bound["other-batch"]);
}

TEST_CASE("narrowed classes: pods of one template in two quotas share a class, and each quota still holds",
          "[evaluation-cache][class-labels]") {
  // ElasticQuota's labels are left out of the class (ElasticQuota decides at
  // PreFilter, before any node is evaluated): a pod over its quota's max is
  // still turned away although its class-mates of the other quota are cached,
  // and every pod lands where it lands without the cache.
  const char* const config =
      "apiVersion: kubescheduler.config.k8s.io/v1\n"
      "kind: KubeSchedulerConfiguration\n"
      "leaderElection:\n"
      "  leaderElect: false\n"
      "profiles:\n"
      "  - schedulerName: troupe\n"
      "    plugins:\n"
      "      multiPoint:\n"
      "        enabled:\n"
      "          - name: ElasticQuota\n";
  std::mt19937_64 rng(11);
  const auto nodes = random_nodes(rng, 8);
  auto quota = [](const std::string& name, int64_t max_milli) {
    plugins::elastic_quota::QuotaSpec q;
    q.name = name;
    q.namespace_name = "default";
    q.max = {{"cpu", max_milli}};
    q.shared_weight = q.max;
    return q;
  };
  std::vector<Pod> pods;
  for (int i = 0; i < 20; ++i) {
    Pod pod = PodBuilder("pod-" + std::to_string(i)).container({{"cpu", "1"}, {"memory", "1Gi"}}).pod();
    pod.meta.labels = {{plugins::elastic_quota::kLabelQuotaName, i % 2 == 0 ? "tight" : "roomy"},
                       {"apps.kubernetes.io/pod-index", std::to_string(i)}};
    pods.push_back(pod);
  }
  auto run_with_quotas = [&](bool evaluation_cache) {
    BenchHarnessOptions options;
    options.config_yaml = config;
    options.threads = 2;
    options.evaluation_cache = evaluation_cache;
    auto harness = BenchHarness::start(options);
    REQUIRE(harness);
    (*harness)->load_cluster(nodes, {}, {});
    REQUIRE((*harness)->load_quotas({quota("tight", 3000), quota("roomy", 1000000)}));
    auto outcomes = (*harness)->schedule(pods, 1, std::chrono::seconds(60));
    REQUIRE(outcomes);
    std::map<std::string, std::string> placed;
    for (const auto& o : *outcomes) placed[o.key] = o.bound ? o.node : "unplaced";
    return placed;
  };
  const auto cached = run_with_quotas(true);
  const auto fresh = run_with_quotas(false);
  REQUIRE(cached.size() == pods.size());
  int tight_bound = 0, roomy_bound = 0;
  for (int i = 0; i < 20; ++i) {
    const std::string key = "default/pod-" + std::to_string(i);
    INFO(key);
    REQUIRE(cached.count(key) == 1);
    CHECK(cached.at(key) == fresh.at(key));
    if (cached.at(key) != "unplaced") ++(i % 2 == 0 ? tight_bound : roomy_bound);
  }
  CHECK(tight_bound == 3);
  CHECK(roomy_bound == 10);
}
