#include "cmd/demo_reservation.hpp"

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>

#include <rapidjson/document.h>
#include <spdlog/spdlog.h>

#include "actors/scheduler_runtime.hpp"
#include "model/json.hpp"
#include "plugins/registry.hpp"
#include "sim/demo_workload.hpp"
#include "sim/loader.hpp"

namespace troupe::cmd {

namespace {

constexpr const char* kReservationName = "demo-train-reservation";
constexpr const char* kOwnerName = "demo-train-owner";

// A reservation for one GPU with its CPUs, for pods labelled app=demo-train;
// allocateOnce, so its first owner consumes it.
const char* kReservationYaml = R"(
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Reservation
metadata: {name: demo-train-reservation}
spec:
  template:
    metadata: {namespace: default}
    spec:
      schedulerName: troupe-scheduler
      containers:
      - name: main
        resources:
          requests: {cpu: "2", memory: 4Gi, nvidia.com/gpu: "1"}
          limits: {cpu: "2", memory: 4Gi, nvidia.com/gpu: "1"}
  owners:
  - labelSelector: {matchLabels: {app: demo-train}}
  ttl: 1h
  allocateOnce: true
)";

const char* kOwnerYaml = R"(
apiVersion: v1
kind: Pod
metadata: {name: demo-train-owner, namespace: default, labels: {app: demo-train}}
spec:
  schedulerName: troupe-scheduler
  containers:
  - name: main
    image: busybox
    resources:
      requests: {cpu: "2", memory: 4Gi, nvidia.com/gpu: "1"}
      limits: {cpu: "2", memory: 4Gi, nvidia.com/gpu: "1"}
)";

/// The object's JSON (empty document when absent).
rapidjson::Document read(sim::ObjectStore& store, const char* group, const char* version, const char* plural,
                         const std::string& ns, const std::string& name) {
  rapidjson::Document d;
  const auto* resource = store.registry().find(group, version, plural);
  auto object = resource ? store.get(*resource, ns, name) : nullptr;
  if (object) d.Parse(object->json.c_str());
  return d;
}

rapidjson::Document reservation(sim::ObjectStore& store) {
  return read(store, "scheduling.koordinator.sh", "v1alpha1", "reservations", "", kReservationName);
}

/// Polls `reached` every 100 ms for up to `seconds`.
bool wait_until(const std::function<bool()>& reached, int seconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (reached()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return reached();
}

/// "GPU 1 3" from a device-allocated annotation ("no GPU" without one).
std::string gpus_of(const rapidjson::Value& object) {
  rapidjson::Document d;
  d.Parse(get_string(object, "metadata", "annotations", "scheduling.koordinator.sh/device-allocated").c_str());
  const rapidjson::Value* gpus = d.IsObject() ? find_path(d, "gpu") : nullptr;
  if (gpus == nullptr || !gpus->IsArray() || gpus->Empty()) return "no GPU";
  std::string out = "GPU";
  for (const auto& g : gpus->GetArray()) {
    const rapidjson::Value* minor = find_path(g, "minor");
    out += " " + std::to_string(minor != nullptr && minor->IsInt() ? minor->GetInt() : -1);
  }
  return out;
}

std::string phase_of(sim::ObjectStore& store) {
  auto r = reservation(store);
  return r.IsObject() ? get_string(r, "status", "phase") : "";
}

/// The scene's own scheduler, configured as the main act's.
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
  std::fprintf(stderr, "troupe demo: reservation scene: %s\n", what.c_str());
  return 1;
}

/// The steps of the scene, with the scheduler running.
int play(sim::ApiServer& server) {
  auto& store = server.store();
  auto created = sim::load_text(server.handler(), kReservationYaml, "demo reservation");
  if (!created) return fail(created.message());
  if (!wait_until([&] { return phase_of(store) == "Available"; }, 10))
    return fail("the reservation did not become Available (phase \"" + phase_of(store) + "\")");
  auto r = reservation(store);
  std::printf("reservation %s: Available on %s, holding cpu %s, memory %s, %s\n", kReservationName,
              get_string(r, "status", "nodeName").c_str(), get_string(r, "status", "allocatable", "cpu").c_str(),
              get_string(r, "status", "allocatable", "memory").c_str(), gpus_of(r).c_str());

  auto owner = sim::load_text(server.handler(), kOwnerYaml, "demo reservation owner");
  if (!owner) return fail(owner.message());
  auto pod = [&] { return read(store, "", "v1", "pods", "default", kOwnerName); };
  if (!wait_until([&] { return !get_string(pod(), "spec", "nodeName").empty(); }, 10))
    return fail("the owner pod was not bound");
  auto bound = pod();
  std::printf("pod %s: bound to %s with %s, reservation-allocated %s\n", kOwnerName,
              get_string(bound, "spec", "nodeName").c_str(), gpus_of(bound).c_str(),
              get_string(bound, "metadata", "annotations", "scheduling.koordinator.sh/reservation-allocated").c_str());
  if (!wait_until([&] { return phase_of(store) == "Succeeded"; }, 10))
    return fail("the reservation did not become Succeeded (phase \"" + phase_of(store) + "\")");
  std::printf("reservation %s: Succeeded (allocateOnce, consumed by %s)\n", kReservationName, kOwnerName);
  return 0;
}

}  // namespace

int run_reservation_scene(sim::ApiServer& server) {
  std::printf("\nReservation: troupe schedules a Reservation like a pod, then its owner uses it.\n");
  spdlog::set_level(spdlog::level::err);  // the main act's warnings were shown once already
  auto runtime = start_scheduler(server);
  if (!runtime) return fail(runtime.message());
  int result = play(server);
  (*runtime)->stop();
  return result;
}

}  // namespace troupe::cmd
