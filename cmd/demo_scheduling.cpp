#include "cmd/demo_scheduling.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <rapidjson/document.h>
#include <spdlog/spdlog.h>

#include "actors/scheduler_runtime.hpp"
#include "cmd/demo_migration.hpp"
#include "cmd/demo_preemption.hpp"
#include "cmd/demo_reservation.hpp"
#include "model/json.hpp"
#include "plugins/registry.hpp"
#include "sim/demo_workload.hpp"
#include "sim/loader.hpp"

namespace troupe::cmd {

namespace {

struct PodOutcome {
  std::string name, scheduler, node, shows, message, devices, cpus;
  bool settled = false;  // bound, or a PodScheduled=False condition
};

// The device-allocated annotation in short: "gpu 0(50%) 1 | rdma 0 vf 0000:1f:00.1".
std::string device_summary(const std::string& annotation) {
  if (annotation.empty()) return {};
  rapidjson::Document d;
  d.Parse(annotation.c_str());
  if (!d.IsObject()) return "device-allocated: " + annotation;
  std::string out;
  for (const auto& type : d.GetObject()) {
    if (!type.value.IsArray()) continue;
    if (!out.empty()) out += " | ";
    out += type.name.GetString();
    for (const auto& entry : type.value.GetArray()) {
      const rapidjson::Value* minor = find_path(entry, "minor");
      out += " " + std::to_string(minor != nullptr && minor->IsInt() ? minor->GetInt() : -1);
      std::string core = get_string(entry, "resources", "koordinator.sh/gpu-core");
      if (!core.empty() && core != "100") out += "(" + core + "%)";
      const rapidjson::Value* vfs = find_path(entry, "extension", "vfs");
      if (vfs != nullptr && vfs->IsArray())
        for (const auto& vf : vfs->GetArray()) out += " vf " + get_string(vf, "busID");
    }
  }
  return out;
}

// The resource-status annotation in short: "cpuset 0-1,32-33 numa 0".
std::string cpu_summary(const std::string& annotation) {
  if (annotation.empty()) return {};
  rapidjson::Document d;
  d.Parse(annotation.c_str());
  if (!d.IsObject()) return "resource-status: " + annotation;
  std::string out = "cpuset " + get_string(d, "cpuset");
  const rapidjson::Value* numa = find_path(d, "numaNodeResources");
  if (numa != nullptr && numa->IsArray() && numa->Size() > 0) {
    out += " numa";
    for (const auto& n : numa->GetArray()) {
      const rapidjson::Value* id = find_path(n, "node");
      out += " " + std::to_string(id != nullptr && id->IsInt() ? id->GetInt() : -1);
    }
  }
  return out;
}

std::vector<PodOutcome> demo_pods(sim::ObjectStore& store) {
  std::vector<PodOutcome> out;
  const auto* pods = store.registry().find("", "v1", "pods");
  for (const auto& o : store.list(*pods, {}).items) {
    rapidjson::Document d;
    d.Parse(o->json.c_str());
    PodOutcome p;
    p.shows = get_string(d, "metadata", "annotations", "troupe.dev/demo");
    if (p.shows.empty()) continue;
    p.name = o->name;
    p.scheduler = get_string(d, "spec", "schedulerName");
    p.node = get_string(d, "spec", "nodeName");
    p.devices = device_summary(get_string(d, "metadata", "annotations", "scheduling.koordinator.sh/device-allocated"));
    p.cpus = cpu_summary(get_string(d, "metadata", "annotations", "scheduling.koordinator.sh/resource-status"));
    p.settled = !p.node.empty();
    if (d["status"].IsObject() && d["status"].HasMember("conditions") && d["status"]["conditions"].IsArray())
      for (const auto& c : d["status"]["conditions"].GetArray())
        if (get_string(c, "type") == "PodScheduled" && get_string(c, "status") == "False") {
          p.message = get_string(c, "message");
          p.settled = true;
        }
    out.push_back(std::move(p));
  }
  return out;
}

bool all_settled(const std::vector<PodOutcome>& pods) {
  for (const auto& p : pods)
    if (!p.settled && p.scheduler != "some-other-scheduler") return false;
  return true;
}

void print_report(const std::vector<PodOutcome>& pods) {
  std::printf("\n%-14s %-18s %-12s %s\n", "POD", "PROFILE", "NODE", "SHOWS / OUTCOME");
  for (const auto& p : pods) {
    std::string node = p.node.empty() ? "<pending>" : p.node;
    std::printf("%-14s %-18s %-12s %s\n", p.name.c_str(), p.scheduler.c_str(), node.c_str(), p.shows.c_str());
    if (!p.devices.empty()) std::printf("%-46s devices: %s\n", "", p.devices.c_str());
    if (!p.cpus.empty()) std::printf("%-46s cpus: %s\n", "", p.cpus.c_str());
    if (!p.message.empty()) std::printf("%-46s -> %s\n", "", p.message.c_str());
  }
}

}  // namespace

int run_scheduling_demo(sim::ApiServer& server) {
  auto config = plugins::parse_scheduler_configuration(sim::demo_scheduler_config_yaml());
  if (!config) {
    std::fprintf(stderr, "troupe demo: %s\n", config.message().c_str());
    return 1;
  }
  actors::SchedulerOptions options;
  options.config = std::move(*config);
  options.cluster.server = server.url();
  options.cluster.token = server.token();
  options.cluster.source = "demo";
  options.metrics_address = "";
  spdlog::set_level(spdlog::level::warn);
  // The workload goes in first: the scheduler lists every pending pod before
  // its first cycle, so the pods are placed in priority order whatever the
  // timing (the GPU pods of the H100 node fit only in that order).
  auto loaded = sim::load_text(server.handler(), sim::demo_workload_yaml(), "demo workload");
  if (!loaded) {
    std::fprintf(stderr, "troupe demo: %s\n", loaded.message().c_str());
    return 1;
  }
  auto runtime = actors::SchedulerRuntime::start(std::move(options));
  if (!runtime) {
    std::fprintf(stderr, "troupe demo: %s\n", runtime.message().c_str());
    return 1;
  }
  std::printf("\nSubmitted %zu pods; scheduler started (profiles troupe-scheduler, troupe, troupe-binpack).\n",
              *loaded);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  auto pods = demo_pods(server.store());
  while (!all_settled(pods) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    pods = demo_pods(server.store());
  }
  (*runtime)->stop();
  print_report(pods);
  if (!all_settled(pods)) {
    std::fprintf(stderr, "troupe demo: some pods were neither placed nor reported within 30 s\n");
    return 1;
  }
  if (int scene = run_preemption_scene(server); scene != 0) return scene;
  if (int scene = run_reservation_scene(server); scene != 0) return scene;
  return run_migration_scene(server);
}

}  // namespace troupe::cmd
