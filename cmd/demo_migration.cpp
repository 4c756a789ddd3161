#include "cmd/demo_migration.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <rapidjson/document.h>
#include <spdlog/spdlog.h>

#include "actors/scheduler_runtime.hpp"
#include "config/descheduler_config.hpp"
#include "model/json.hpp"
#include "model/quantity.hpp"
#include "plugins/registry.hpp"
#include "sim/demo_workload.hpp"
#include "sim/fake_koordlet.hpp"
#include "sim/loader.hpp"

namespace troupe::cmd {

namespace {

constexpr const char* kHotNode = "cpu-2";
constexpr const char* kReplacement = "demo-web-3";
constexpr int kReplicas = 3;
constexpr int kHighThreshold = 90;  // LowNodeLoad's highThresholds.cpu below
constexpr auto kKoordletInterval = std::chrono::milliseconds(200);

/// One replica of ReplicaSet demo-web (an owner makes the pod evictable under
/// the default evictor rules, which keep bare pods) using 1.5x its requests,
/// as the fake koordlet will report. `node` non-empty: already running there.
std::string replica_yaml(const std::string& name, const std::string& node) {
  std::string yaml = R"(
apiVersion: v1
kind: Pod
metadata:
  name: )" + name + R"(
  namespace: default
  labels: {app: demo-web}
  annotations: {sim.troupe.dev/usage-ratio: "1.5"}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: demo-web, uid: demo-web-rs, controller: true}]
spec:
  schedulerName: troupe-scheduler
  containers:
  - name: main
    image: busybox
    resources: {requests: {cpu: "1", memory: 512Mi}}
)";
  if (node.empty()) return yaml;
  return yaml + "  nodeName: " + node + R"(
status:
  phase: Running
  conditions: [{type: PodScheduled, status: "True"}, {type: Ready, status: "True"}]
)";
}

const char* kDeschedulerYaml = R"(
apiVersion: descheduler/v1alpha2
kind: DeschedulerConfiguration
leaderElection: {leaderElect: false}
deschedulingInterval: 1s
profiles:
- name: demo
  plugins: {balance: {enabled: [{name: LowNodeLoad}]}}
  pluginConfig:
  - name: LowNodeLoad
    args:
      lowThresholds: {cpu: 30, memory: 30}
      highThresholds: {cpu: 90, memory: 90}
      anomalyCondition: {consecutiveAbnormalities: 1}
  - name: MigrationController
    args: {defaultJobMode: EvictDirectly}
)";

rapidjson::Document read(sim::ObjectStore& store, const char* group, const char* plural, const std::string& ns,
                         const std::string& name) {
  rapidjson::Document d;
  const auto* resource = store.registry().find(group, group[0] ? "v1alpha1" : "v1", plural);
  auto object = resource ? store.get(*resource, ns, name) : nullptr;
  if (object) d.Parse(object->json.c_str());
  return d;
}

rapidjson::Document pod(sim::ObjectStore& store, const std::string& name) {
  return read(store, "", "pods", "default", name);
}

std::string node_of(sim::ObjectStore& store, const std::string& name) {
  auto p = pod(store, name);
  return p.IsObject() ? get_string(p, "spec", "nodeName") : "";
}

int64_t milli(const std::string& text) {
  auto quantity = Quantity::parse(text);
  return quantity ? quantity->milli_value() : 0;
}

/// The hot node's cpu usage as its NodeMetric reports it, and its allocatable, in milli-cores.
struct CpuLoad {
  int64_t used = -1;  // -1: no NodeMetric yet
  int64_t allocatable = 0;
  int percent() const { return allocatable ? static_cast<int>(std::lround(100.0 * used / allocatable)) : 0; }
};

CpuLoad hot_node_load(sim::ObjectStore& store) {
  CpuLoad load;
  auto node = read(store, "", "nodes", "", kHotNode);
  if (node.IsObject()) load.allocatable = milli(get_string(node, "status", "allocatable", "cpu"));
  auto metric = read(store, "slo.koordinator.sh", "nodemetrics", "", kHotNode);
  if (metric.IsObject())
    load.used = milli(get_string(metric, "status", "nodeMetric", "nodeUsage", "resources", "cpu"));
  return load;
}

std::string describe(const CpuLoad& load) {
  return Quantity::from_milli(load.used).to_string() + " of " + Quantity::from_milli(load.allocatable).to_string() +
         " cpu (" + std::to_string(load.percent()) + "%)";
}

/// The PodMigrationJob LowNodeLoad created: its pod and phase ("" when none yet).
struct LowNodeLoadJob {
  std::string pod;
  std::string phase;
};

LowNodeLoadJob low_node_load_job(sim::ObjectStore& store) {
  const auto* jobs = store.registry().find("scheduling.koordinator.sh", "v1alpha1", "podmigrationjobs");
  for (const auto& object : store.list(*jobs, {}).items) {
    rapidjson::Document d;
    d.Parse(object->json.c_str());
    if (get_string(d, "metadata", "annotations", "descheduler.koordinator.sh/evict-trigger") != "LowNodeLoad") continue;
    return {get_string(d, "spec", "podRef", "name"), get_string(d, "status", "phase")};
  }
  return {};
}

/// Polls `reached` every 50 ms for up to `seconds`; `each` sees every poll.
bool wait_until(const std::function<bool()>& reached, int seconds, const std::function<void()>& each = {}) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (each) each();
    if (reached()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return reached();
}

Result<std::unique_ptr<actors::SchedulerRuntime>> start_scheduler(sim::ApiServer& server) {
  auto config = plugins::parse_scheduler_configuration(sim::demo_scheduler_config_yaml());
  if (!config) return Error{config.message()};
  auto descheduler = config::load_descheduler_configuration(kDeschedulerYaml);
  if (!descheduler) return Error{"descheduler configuration: " + descheduler.message()};
  actors::SchedulerOptions options;
  options.config = std::move(*config);
  options.descheduler = std::make_shared<const config::DeschedulerConfiguration>(std::move(*descheduler));
  options.cluster.server = server.url();
  options.cluster.token = server.token();
  options.cluster.source = "demo";
  options.metrics_address = "";
  return actors::SchedulerRuntime::start(std::move(options));
}

int fail(const std::string& what) {
  std::fprintf(stderr, "troupe demo: migration scene: %s\n", what.c_str());
  return 1;
}

int play(sim::ApiServer& server, sim::FakeKoordlet& koordlet) {
  auto& store = server.store();
  for (int i = 0; i < kReplicas; ++i) {
    std::string name = "demo-web-" + std::to_string(i);
    auto created = sim::load_text(server.handler(), replica_yaml(name, kHotNode), "demo workload replica");
    if (!created) return fail(created.message());
  }
  koordlet.start();  // publishes at once
  if (!wait_until([&] { return hot_node_load(store).used >= 0; }, 5)) return fail("no NodeMetric for the hot node");
  std::printf("node %s: NodeMetric reports %s, above LowNodeLoad's high threshold %d%%\n", kHotNode,
              describe(hot_node_load(store)).c_str(), kHighThreshold);
  std::printf("  (ReplicaSet demo-web's %d replicas there use 1.5x their 1-cpu requests: sim.troupe.dev/usage-ratio)\n",
              kReplicas);
  std::fflush(stdout);

  auto runtime = start_scheduler(server);
  if (!runtime) return fail(runtime.message());
  std::vector<std::string> phases;
  std::string moved;
  auto note_phase = [&] {
    LowNodeLoadJob job = low_node_load_job(store);
    if (!job.pod.empty()) moved = job.pod;
    if (!job.phase.empty() && (phases.empty() || phases.back() != job.phase)) phases.push_back(job.phase);
  };
  auto finished = [&] { return !phases.empty() && (phases.back() == "Succeeded" || phases.back() == "Failed"); };
  bool done = wait_until(finished, 20, note_phase);
  auto result = [&]() -> int {
    if (!done) return fail("LowNodeLoad's job did not finish (pod \"" + moved + "\")");
    std::string path;
    for (const std::string& phase : phases) path += (path.empty() ? "" : " -> ") + phase;
    std::printf("LowNodeLoad: PodMigrationJob for pod %s (EvictDirectly): %s\n", moved.c_str(), path.c_str());
    if (phases.back() != "Succeeded") return fail("the job failed");
    if (pod(store, moved).IsObject()) return fail("pod " + moved + " is still there");
    std::printf("pod %s: evicted from %s\n", moved.c_str(), kHotNode);
    // The koordlet's next rounds no longer count the pod.
    auto relieved = [&] { return hot_node_load(store).percent() <= kHighThreshold; };
    if (!wait_until(relieved, 5)) return fail("the hot node's NodeMetric still reports " + describe(hot_node_load(store)));
    std::printf("node %s: NodeMetric reports %s\n", kHotNode, describe(hot_node_load(store)).c_str());

    // As the ReplicaSet controller: a new replica, which troupe places.
    auto replacement = sim::load_text(server.handler(), replica_yaml(kReplacement, ""), "demo workload replacement");
    if (!replacement) return fail(replacement.message());
    if (!wait_until([&] { return !node_of(store, kReplacement).empty(); }, 10))
      return fail("the replacement was not bound");
    std::printf("pod %s (its replacement from the ReplicaSet): bound to %s\n", kReplacement,
                node_of(store, kReplacement).c_str());
    return 0;
  }();
  (*runtime)->stop();
  return result;
}

}  // namespace

int run_migration_scene(sim::ApiServer& server) {
  std::printf(
      "\nMigration: the API server's fake koordlet publishes NodeMetrics; troupe's LowNodeLoad relieves the hot "
      "node.\n");
  spdlog::set_level(spdlog::level::err);
  sim::FakeKoordlet koordlet(server.handler(), {kKoordletInterval, 1.0});
  int result = play(server, koordlet);
  koordlet.stop();
  return result;
}

}  // namespace troupe::cmd
