// What the informer tells node actors about bound pods. When a pod is gone,
// including the pods it never saw bound: the cycle reserved and bound them,
// and a cut watch missed the binding (the re-list then reports the deletion
// with the last state seen, unbound). When a bound pod is resized in place:
// it is accounted again, and a shrink retries pods that wait for room. The
// node actors, queue and cycle here are recorders; the informer is the real one.
#include <catch2/catch.hpp>

#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <caf/all.hpp>

#include "actors/atoms.hpp"
#include "actors/informer_actor.hpp"
#include "actors/partitioning.hpp"
#include "default_framework.hpp"
#include "test_actor_system.hpp"
#include "watch/json_util.hpp"

using namespace troupe;
using namespace troupe::actors;
using namespace std::chrono_literals;
using troupe::actors::testing::TestSystemConfig;

namespace {

/// What one recorder received, in order, as short lines.
struct Log {
  std::mutex mutex;
  std::vector<std::string> lines;

  void add(std::string line) {
    std::lock_guard<std::mutex> lock(mutex);
    lines.push_back(std::move(line));
  }
  std::vector<std::string> snapshot() {
    std::lock_guard<std::mutex> lock(mutex);
    return lines;
  }
  bool has(const std::string& line) {
    auto all = snapshot();
    return std::find(all.begin(), all.end(), line) != all.end();
  }
};

// The recorders leave any other message in their mailbox (caf::skip): a
// dropped message would answer the informer with an error, which ends it.

/// A node actor that logs "gone <uid>" and "bound <uid>".
caf::behavior node_recorder(caf::event_based_actor* self, std::shared_ptr<Log> log) {
  self->set_default_handler(caf::skip);
  return {
      [log](atom::pod_gone, const std::string& uid) { log->add("gone " + uid); },
      [log](atom::pod_bound, const PodInfoPtr& pod) { log->add("bound " + pod->pod->meta.uid); },
  };
}

/// A queue that logs "dequeue <key>", "pod deleted" (a Pod/Delete cluster
/// event) and "pod scaled down" (one with UpdatePodScaleDown).
caf::behavior queue_recorder(caf::event_based_actor* self, std::shared_ptr<Log> log) {
  self->set_default_handler(caf::skip);
  return {
      [log](atom::dequeue, const std::string& key) { log->add("dequeue " + key); },
      [log](atom::cluster_event, uint8_t resource, uint32_t actions) {
        if (resource != static_cast<uint8_t>(plugins::EventResource::pod)) return;
        if (actions == plugins::ActionType::kDelete) log->add("pod deleted");
        if ((actions & plugins::ActionType::kUpdatePodScaleDown) != 0) log->add("pod scaled down");
      },
  };
}

// `role` only names the stand-in: CAF 0.17 spawning a function without
// arguments dereferences an empty argument pack, which UBSan reports.
caf::behavior ignore_all(caf::event_based_actor* self, const std::string& /*role*/) {
  self->set_default_handler(caf::skip);
  return {[](atom::synced) {}};
}

constexpr size_t kPartitions = 3;

/// A node name owned by partition `index`.
std::string node_of_partition(size_t index) {
  for (int i = 0;; ++i) {
    std::string name = "node-" + std::to_string(i);
    if (partition_of(name, kPartitions) == index) return name;
  }
}

struct Step {
  watch::EventType type;
  std::string uid;
  std::string scheduler;  // "troupe" is ours
  std::string node;       // "" unbound
  std::string phase;
  bool final_state_unknown = false;
  std::string cpu = "";         // the container's spec request, if any
  std::string status_cpu = "";  // what the kubelet reports it runs with (in-place resize), if any
  std::string label = "";       // a label value, if any
};

watch::ObjectPtr pod_json(const Step& s) {
  const std::string labels = s.label.empty() ? "" : R"(,"labels":{"app":")" + s.label + "\"}";
  const std::string resources = s.cpu.empty() ? "" : R"(,"resources":{"requests":{"cpu":")" + s.cpu + "\"}}";
  std::string json = R"({"metadata":{"name":")" + s.uid + R"(","namespace":"default","uid":")" + s.uid + "\"" +
                     labels + R"(},"spec":{"schedulerName":")" + s.scheduler + R"(","containers":[{"name":"c")" +
                     resources + "}]";
  if (!s.node.empty()) json += R"(,"nodeName":")" + s.node + "\"";
  json += "}";
  std::vector<std::string> status;
  if (!s.phase.empty()) status.push_back(R"("phase":")" + s.phase + "\"");
  if (!s.status_cpu.empty())
    status.push_back(R"("containerStatuses":[{"name":"c","allocatedResources":{"cpu":")" + s.status_cpu + "\"}}]");
  if (!status.empty()) {
    json += R"(,"status":{)";
    for (size_t i = 0; i < status.size(); ++i) json += (i > 0 ? "," : "") + status[i];
    json += "}";
  }
  json += "}";
  auto doc = watch::parse_document(json);
  REQUIRE(doc.ok());
  return *doc;
}

/// The informer with recorders around it.
struct Harness {
  caf::actor_system& system;
  std::vector<std::shared_ptr<Log>> nodes;
  std::shared_ptr<Log> queue = std::make_shared<Log>();
  informer_actor informer;

  explicit Harness(caf::actor_system& sys) : system(sys) {
    InformerDeps deps;
    for (size_t i = 0; i < kPartitions; ++i) {
      nodes.push_back(std::make_shared<Log>());
      deps.nodes.push_back(caf::actor_cast<node_actor>(system.spawn(node_recorder, nodes.back())));
    }
    deps.queue = caf::actor_cast<queue_actor>(system.spawn(queue_recorder, queue));
    deps.writer = caf::actor_cast<api_writer_actor>(system.spawn(ignore_all, std::string("writer")));
    deps.cycle = caf::actor_cast<cycle_actor>(system.spawn(ignore_all, std::string("cycle")));
    deps.frameworks["troupe"] = testing::default_framework();
    deps.resources = {"pods"};
    informer = system.spawn(informer_actor_fn, deps);
  }
  ~Harness() {
    caf::anon_send_exit(informer, caf::exit_reason::user_shutdown);
  }

  void send(const Step& s) {
    auto event = std::make_shared<const ObjectEvent>("pods", watch::Change{s.type, pod_json(s), s.final_state_unknown});
    caf::anon_send(informer, atom::watch_event_v, ObjectEventPtr(event));
  }

  /// Sends a fence every recorder sees (a pod bound on each partition, then
  /// deleted) and waits for it; returns false on timeout.
  bool drain() {
    for (size_t i = 0; i < kPartitions; ++i) {
      const std::string uid = "fence-" + std::to_string(i);
      send({watch::EventType::added, uid, "troupe", node_of_partition(i), ""});
      send({watch::EventType::deleted, uid, "troupe", node_of_partition(i), ""});
    }
    auto fenced = [&] {
      for (size_t i = 0; i < kPartitions; ++i)
        if (!nodes[i]->has("gone fence-" + std::to_string(i))) return false;
      auto lines = queue->snapshot();
      return !lines.empty() && lines.back() == "pod deleted" &&
             queue->has("dequeue default/fence-" + std::to_string(kPartitions - 1));
    };
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!fenced() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(5ms);
    return fenced();
  }

  /// A recorder's lines before the fence.
  static std::vector<std::string> before(const std::shared_ptr<Log>& log, const std::string& fence) {
    auto lines = log->snapshot();
    lines.erase(std::find(lines.begin(), lines.end(), fence), lines.end());
    return lines;
  }
};

}  // namespace

TEST_CASE("informer: which node actors learn that a pod is gone", "[informer]") {
  using watch::EventType;
  const std::string n0 = node_of_partition(0);
  const std::string n1 = node_of_partition(1);
  using Lines = std::vector<std::string>;
  struct Case {
    const char* name;
    std::vector<Step> steps;
    std::vector<Lines> nodes;  // per partition
    Lines queue;
  };
  const std::vector<Case> cases = {
      {"seen bound, then deleted: its owner",
       {{EventType::added, "p", "troupe", n1, ""}, {EventType::deleted, "p", "troupe", n1, ""}},
       {{}, {"bound p", "gone p"}, {}},
       {"dequeue default/p", "pod deleted"}},
      {"seen bound, deleted by a re-list: its owner",
       {{EventType::added, "p", "troupe", n0, ""}, {EventType::deleted, "p", "troupe", n0, "", true}},
       {{"bound p", "gone p"}, {}, {}},
       {"dequeue default/p", "pod deleted"}},
      {"never bound, deleted live (its final state is unbound): nobody holds it",
       {{EventType::added, "p", "troupe", "", ""}, {EventType::deleted, "p", "troupe", "", ""}},
       {{}, {}, {}},
       {"dequeue default/p"}},
      {"last seen unbound, deleted by a re-list: every node actor, it may have been bound since",
       {{EventType::added, "p", "troupe", "", ""}, {EventType::deleted, "p", "troupe", "", "", true}},
       {{"gone p"}, {"gone p"}, {"gone p"}},
       {"dequeue default/p", "pod deleted"}},
      {"another scheduler's unbound pod deleted by a re-list: we never held it",
       {{EventType::deleted, "p", "other", "", "", true}},
       {{}, {}, {}},
       {"dequeue default/p"}},
      {"first seen already finished on a node: its owner (it may be our unseen binding)",
       {{EventType::modified, "p", "troupe", n1, "Succeeded"}},
       {{}, {"gone p"}, {}},
       {"dequeue default/p"}},
      {"seen bound, finished, then deleted: its owner (told twice, which is harmless)",
       {{EventType::added, "p", "troupe", n0, "Running"},
        {EventType::modified, "p", "troupe", n0, "Failed"},
        {EventType::deleted, "p", "troupe", n0, "Failed"}},
       {{"bound p", "gone p", "gone p"}, {}, {}},
       {"dequeue default/p", "pod deleted", "dequeue default/p"}},
  };
  TestSystemConfig config;
  caf::actor_system system{config};
  for (const auto& c : cases) {
    INFO(c.name);
    Harness harness(system);
    for (const auto& step : c.steps) harness.send(step);
    REQUIRE(harness.drain());
    for (size_t i = 0; i < kPartitions; ++i) {
      INFO("partition " << i);
      CHECK(Harness::before(harness.nodes[i], "bound fence-" + std::to_string(i)) == c.nodes[i]);
    }
    CHECK(Harness::before(harness.queue, "dequeue default/fence-0") == c.queue);
  }
}

TEST_CASE("informer: a bound pod resized in place is accounted again, and a shrink is a cluster event", "[informer]") {
  using watch::EventType;
  const std::string n0 = node_of_partition(0);
  using Lines = std::vector<std::string>;
  struct Case {
    const char* name;
    Step before;
    Step after;
    Lines node;         // what partition 0's node actor heard
    bool scaled_down;   // a Pod/UpdatePodScaleDown cluster event
  };
  const std::vector<Case> cases = {
      {"shrunk, no status yet: the spec counts",
       {EventType::added, "p", "troupe", n0, "", false, "2"}, {EventType::modified, "p", "troupe", n0, "", false, "1"},
       {"bound p", "bound p"}, true},
      {"grown",
       {EventType::added, "p", "troupe", n0, "", false, "1"}, {EventType::modified, "p", "troupe", n0, "", false, "2"},
       {"bound p", "bound p"}, false},
      {"shrunk in the spec, the kubelet still runs 2: nothing changes",
       {EventType::added, "p", "troupe", n0, "", false, "2", "2"},
       {EventType::modified, "p", "troupe", n0, "", false, "1", "2"}, {"bound p"}, false},
      {"then the kubelet applies it",
       {EventType::added, "p", "troupe", n0, "", false, "1", "2"},
       {EventType::modified, "p", "troupe", n0, "", false, "1", "1"}, {"bound p", "bound p"}, true},
      {"a label change: its node actor is not told",
       {EventType::added, "p", "troupe", n0, "", false, "1", "", "a"},
       {EventType::modified, "p", "troupe", n0, "", false, "1", "", "b"}, {"bound p"}, false},
      {"a status-only update (phase): nothing",
       {EventType::added, "p", "troupe", n0, "", false, "1"},
       {EventType::modified, "p", "troupe", n0, "Running", false, "1"}, {"bound p"}, false},
  };
  TestSystemConfig config;
  caf::actor_system system{config};
  for (const auto& c : cases) {
    INFO(c.name);
    Harness harness(system);
    harness.send(c.before);
    harness.send(c.after);
    REQUIRE(harness.drain());
    CHECK(Harness::before(harness.nodes[0], "bound fence-0") == c.node);
    // Placements are coalesced into one cluster event shortly after (20 ms).
    const auto deadline = std::chrono::steady_clock::now() + (c.scaled_down ? 5s : 200ms);
    while (!harness.queue->has("pod scaled down") && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(5ms);
    CHECK(harness.queue->has("pod scaled down") == c.scaled_down);
  }
}
