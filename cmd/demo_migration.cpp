#include "cmd/demo_migration.hpp"

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <rapidjson/document.h>
#include <spdlog/spdlog.h>

#include "actors/scheduler_runtime.hpp"
#include "model/json.hpp"
#include "plugins/registry.hpp"
#include "sim/demo_workload.hpp"
#include "sim/loader.hpp"

namespace troupe::cmd {

namespace {

constexpr const char* kJobName = "demo-move-web";
constexpr const char* kMovedPod = "demo-web-0";
constexpr const char* kReplacement = "demo-web-3";

/// One replica of ReplicaSet demo-web (an owner makes the pod evictable
/// under the default evictor rules, which keep bare pods).
std::string replica_yaml(const std::string& name) {
  return R"(
apiVersion: v1
kind: Pod
metadata:
  name: )" + name + R"(
  namespace: default
  labels: {app: demo-web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: demo-web, uid: demo-web-rs, controller: true}]
spec:
  schedulerName: troupe-scheduler
  containers:
  - name: main
    image: busybox
    resources: {requests: {cpu: 500m, memory: 512Mi}}
)";
}

const char* kJobYaml = R"(
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: PodMigrationJob
metadata: {name: demo-move-web}
spec:
  podRef: {namespace: default, name: demo-web-0}
  mode: EvictDirectly
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

std::string job_phase(sim::ObjectStore& store) {
  auto job = read(store, "scheduling.koordinator.sh", "podmigrationjobs", "", kJobName);
  return job.IsObject() ? get_string(job, "status", "phase") : "";
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
  actors::SchedulerOptions options;
  options.config = std::move(*config);
  options.cluster.server = server.url();
  options.cluster.token = server.token();
  options.cluster.source = "demo";
  options.metrics_address = "";
  // No descheduler configuration: only the MigrationController runs, with
  // Koordinator's defaults, as it does in `troupe scheduler`.
  return actors::SchedulerRuntime::start(std::move(options));
}

int fail(const std::string& what) {
  std::fprintf(stderr, "troupe demo: migration scene: %s\n", what.c_str());
  return 1;
}

int play(sim::ApiServer& server) {
  auto& store = server.store();
  const std::vector<std::string> replicas = {kMovedPod, "demo-web-1", "demo-web-2"};
  for (const std::string& name : replicas) {
    auto created = sim::load_text(server.handler(), replica_yaml(name), "demo workload replica");
    if (!created) return fail(created.message());
  }
  auto all_bound = [&] {
    for (const std::string& name : replicas)
      if (node_of(store, name).empty()) return false;
    return true;
  };
  if (!wait_until(all_bound, 10)) return fail("the demo-web replicas were not all bound");
  const std::string from = node_of(store, kMovedPod);
  std::printf("pod %s (ReplicaSet demo-web, 3 replicas): on %s\n", kMovedPod, from.c_str());

  auto job = sim::load_text(server.handler(), kJobYaml, "demo PodMigrationJob");
  if (!job) return fail(job.message());
  std::vector<std::string> phases;
  auto note_phase = [&] {
    const std::string phase = job_phase(store);
    if (!phase.empty() && (phases.empty() || phases.back() != phase)) phases.push_back(phase);
  };
  auto finished = [&] { return !phases.empty() && (phases.back() == "Succeeded" || phases.back() == "Failed"); };
  if (!wait_until(finished, 15, note_phase)) return fail("the job did not finish (phase \"" + job_phase(store) + "\")");
  std::string path;
  for (const std::string& phase : phases) path += (path.empty() ? "" : " -> ") + phase;
  std::printf("PodMigrationJob %s (EvictDirectly): %s\n", kJobName, path.c_str());
  if (phases.back() != "Succeeded") return fail("the job failed");
  if (pod(store, kMovedPod).IsObject()) return fail(std::string("pod ") + kMovedPod + " is still there");
  std::printf("pod %s: evicted from %s\n", kMovedPod, from.c_str());

  // As the ReplicaSet controller: a new replica, which troupe places.
  auto replacement = sim::load_text(server.handler(), replica_yaml(kReplacement), "demo workload replacement");
  if (!replacement) return fail(replacement.message());
  if (!wait_until([&] { return !node_of(store, kReplacement).empty(); }, 10))
    return fail("the replacement was not bound");
  std::printf("pod %s (its replacement from the ReplicaSet): bound to %s\n", kReplacement,
              node_of(store, kReplacement).c_str());
  return 0;
}

}  // namespace

int run_migration_scene(sim::ApiServer& server) {
  std::printf("\nMigration: a user's PodMigrationJob, executed by troupe scheduler with default settings.\n");
  spdlog::set_level(spdlog::level::err);
  auto runtime = start_scheduler(server);
  if (!runtime) return fail(runtime.message());
  int result = play(server);
  (*runtime)->stop();
  return result;
}

}  // namespace troupe::cmd
