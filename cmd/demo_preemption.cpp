#include "cmd/demo_preemption.hpp"

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

constexpr const char* kNode = "demo-small";
constexpr const char* kUrgent = "demo-urgent";
const std::vector<std::string> kLowPods = {"demo-low-1", "demo-low-2", "demo-low-3"};

// A 2-cpu node running three low-priority pods (2 cpu in all). demo-urgent
// needs 1 cpu and may only run there: evicting demo-low-1 alone (the lowest
// priority) is enough; the other two are reprieved.
const char* kSceneYaml = R"(
apiVersion: v1
kind: Node
metadata: {name: demo-small, labels: {demo.troupe.dev/scene: preemption}}
status:
  capacity: {cpu: "2", memory: 4Gi, pods: "10"}
  allocatable: {cpu: "2", memory: 4Gi, pods: "10"}
---
apiVersion: v1
kind: Pod
metadata: {name: demo-low-1, namespace: default}
spec:
  nodeName: demo-small
  priority: 1
  containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: demo-low-2, namespace: default}
spec:
  nodeName: demo-small
  priority: 2
  containers: [{name: main, image: busybox, resources: {requests: {cpu: 500m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: demo-low-3, namespace: default}
spec:
  nodeName: demo-small
  priority: 3
  containers: [{name: main, image: busybox, resources: {requests: {cpu: 500m}}}]
)";

const char* kUrgentYaml = R"(
apiVersion: v1
kind: Pod
metadata: {name: demo-urgent, namespace: default}
spec:
  schedulerName: troupe-scheduler
  priority: 1000
  nodeSelector: {demo.troupe.dev/scene: preemption}
  containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
)";

rapidjson::Document pod(sim::ObjectStore& store, const std::string& name) {
  rapidjson::Document d;
  const auto* resource = store.registry().find("", "v1", "pods");
  auto object = resource ? store.get(*resource, "default", name) : nullptr;
  if (object) d.Parse(object->json.c_str());
  return d;
}

bool exists(sim::ObjectStore& store, const std::string& name) { return pod(store, name).IsObject(); }

bool wait_until(const std::function<bool()>& reached, int seconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (reached()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
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
  return actors::SchedulerRuntime::start(std::move(options));
}

int fail(const std::string& what) {
  std::fprintf(stderr, "troupe demo: preemption scene: %s\n", what.c_str());
  return 1;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

int play(sim::ApiServer& server) {
  auto& store = server.store();
  auto created = sim::load_text(server.handler(), kSceneYaml, "demo preemption node");
  if (!created) return fail(created.message());
  std::printf("node %s (2 cpu, full): demo-low-1 (priority 1, 1 cpu), demo-low-2 (priority 2, 500m), "
              "demo-low-3 (priority 3, 500m)\n", kNode);
  auto urgent = sim::load_text(server.handler(), kUrgentYaml, "demo urgent pod");
  if (!urgent) return fail(urgent.message());
  auto bound_node = [&] { return get_string(pod(store, kUrgent), "spec", "nodeName"); };
  if (!wait_until([&] { return !bound_node().empty(); }, 15)) return fail("demo-urgent was not bound");
  std::vector<std::string> evicted, kept;
  for (const auto& name : kLowPods) (exists(store, name) ? kept : evicted).push_back(name);
  std::printf("pod %s (priority 1000, 1 cpu): nominated %s, evicted %s\n", kUrgent,
              get_string(pod(store, kUrgent), "status", "nominatedNodeName").c_str(), joined(evicted).c_str());
  std::printf("pod %s: bound to %s; still running there: %s\n", kUrgent, bound_node().c_str(), joined(kept).c_str());
  return 0;
}

}  // namespace

int run_preemption_scene(sim::ApiServer& server) {
  std::printf("\nPreemption: a high-priority pod meets a full node; troupe evicts the fewest, least important pods.\n");
  spdlog::set_level(spdlog::level::err);
  auto runtime = start_scheduler(server);
  if (!runtime) return fail(runtime.message());
  int result = play(server);
  (*runtime)->stop();
  return result;
}

}  // namespace troupe::cmd
