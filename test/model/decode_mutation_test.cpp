// Bad input never crashes a decoder: every value of real-looking objects is
// replaced in turn by every JSON type, and each result must either decode
// (and then re-encode losslessly) or fail with a message naming a field.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "model/device.hpp"
#include "model/event.hpp"
#include "model/node.hpp"
#include "model/node_metric.hpp"
#include "model/pod.hpp"
#include "model/pod_migration_job.hpp"
#include "model/reservation.hpp"

using namespace troupe;

namespace {

// Paths to every value, as member-name / index steps.
using Step = std::string;
using Path = std::vector<Step>;

void collect_paths(const rapidjson::Value& v, Path& at, std::vector<Path>& out) {
  out.push_back(at);
  if (v.IsObject()) {
    for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
      at.push_back(std::string(m->name.GetString(), m->name.GetStringLength()));
      collect_paths(m->value, at, out);
      at.pop_back();
    }
  } else if (v.IsArray()) {
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      at.push_back("#" + std::to_string(i));
      collect_paths(v[i], at, out);
      at.pop_back();
    }
  }
}

rapidjson::Value& walk(rapidjson::Value& root, const Path& path) {
  rapidjson::Value* v = &root;
  for (const auto& step : path) v = step[0] == '#' ? &(*v)[std::stoul(step.substr(1))] : &(*v)[step.c_str()];
  return *v;
}

/// What Go's encoding adds to an object it decoded: `defaults` applies it to
/// the input before the round trip is compared (nothing for most kinds).
using GoDefaults = std::function<void(rapidjson::Document&)>;

template <class T>
void mutate_everywhere(const char* text, std::function<Result<T>(JsonPtr)> decode, GoDefaults defaults = nullptr) {
  auto original = parse_json(text);
  REQUIRE(original.ok());
  std::vector<Path> paths;
  Path at;
  collect_paths(**original, at, paths);
  const char* replacements[] = {"null", "true", "-7", "2.5", "\"x\"", "\"\"", "[]", "[1]", "{}", "{\"a\":1}"};
  size_t decoded = 0;
  size_t rejected = 0;
  for (const auto& path : paths) {
    if (path.empty()) continue;
    for (const char* replacement : replacements) {
      auto doc = copy_document(**original);
      auto value = parse_json(replacement);
      REQUIRE(value.ok());
      walk(*doc, path).CopyFrom(**value, doc->GetAllocator());
      const std::string input = to_json(*doc);
      auto expected = copy_document(*doc);
      if (defaults) defaults(*expected);
      Result<T> result = decode(doc);
      if (result.ok()) {
        ++decoded;
        if (encode(*result) != to_json(*expected)) FAIL("lossy re-encode of " << input);
      } else {
        ++rejected;
        if (result.message().find(": ") == std::string::npos) FAIL("unhelpful error: " << result.message());
      }
    }
  }
  // Both outcomes happen: the test exercises real decoding, not a short cut.
  CHECK(decoded > 0);
  CHECK(rejected > 0);
}

}  // namespace

TEST_CASE("mutated pods decode or fail cleanly", "[mutation]") {
  const char* pod = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"d","labels":{"a":"b"},
    "ownerReferences":[{"apiVersion":"v1","kind":"X","name":"x","uid":"u","controller":true}],
    "creationTimestamp":"2026-01-01T00:00:00Z"},
    "spec":{"priority":5,"initContainers":[{"name":"i","restartPolicy":"Always","resources":{"requests":{"cpu":"1"}}}],
    "containers":[{"name":"c","ports":[{"containerPort":80,"hostPort":80,"protocol":"TCP"}],
    "resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"2"}}}],"overhead":{"cpu":"1m"},
    "nodeSelector":{"k":"v"},"tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule","tolerationSeconds":5}],
    "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
    {"matchExpressions":[{"key":"z","operator":"In","values":["a"]}]}]},
    "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"preference":{"matchFields":[
    {"key":"metadata.name","operator":"NotIn","values":["n"]}]}}]},
    "podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"a":"b"}},
    "topologyKey":"t","namespaces":["d"]}]}},
    "volumes":[{"name":"v","emptyDir":{}}]},
    "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}],"startTime":"2026-01-01T00:00:00Z"}})";
  mutate_everywhere<Pod>(pod, [](JsonPtr d) { return decode_pod(d); });
}

TEST_CASE("mutated nodes, devices and CRDs decode or fail cleanly", "[mutation]") {
  mutate_everywhere<Node>(
      R"({"metadata":{"name":"n"},"spec":{"unschedulable":true,"taints":[{"key":"k","effect":"NoSchedule"}]},
      "status":{"allocatable":{"cpu":"4"},"conditions":[{"type":"Ready","status":"True"}],
      "addresses":[{"type":"InternalIP","address":"1.2.3.4"}]}})",
      [](JsonPtr d) { return decode_node(d); });
  mutate_everywhere<Device>(
      R"({"metadata":{"name":"n"},"spec":{"devices":[{"type":"gpu","minor":0,"health":true,
      "resources":{"koordinator.sh/gpu-core":"100"},"topology":{"socketID":0,"nodeID":0,"pcieID":"p"},
      "vfGroups":[{"labels":{"a":"b"},"vfs":[{"minor":1,"busID":"b"}]}]}]}})",
      [](JsonPtr d) { return decode_device(d); },
      // `health` has no omitempty: Go writes false for an entry that lacks it.
      [](rapidjson::Document& doc) {
        rapidjson::Value* devices = doc.IsObject() && doc.HasMember("spec") && doc["spec"].IsObject()
                                        ? &doc["spec"] : nullptr;
        if (devices == nullptr || !devices->HasMember("devices") || !(*devices)["devices"].IsArray()) return;
        for (auto& entry : (*devices)["devices"].GetArray())
          if (entry.IsObject() && !entry.HasMember("health")) entry.AddMember("health", false, doc.GetAllocator());
      });
  mutate_everywhere<Reservation>(
      R"({"metadata":{"name":"r"},"spec":{"template":{"spec":{"containers":[{"name":"c"}]}},
      "owners":[{"object":{"name":"p"},"labelSelector":{"matchLabels":{"a":"b"}}}],"ttl":"1h","allocateOnce":true},
      "status":{"phase":"Available","allocatable":{"cpu":"1"}}})",
      [](JsonPtr d) { return decode_reservation(d); });
  mutate_everywhere<PodMigrationJob>(
      R"({"metadata":{"name":"j"},"spec":{"podRef":{"name":"p"},"ttl":"5m","reservationOptions":
      {"preemptionOptions":{}}},"status":{"phase":"Running"}})",
      [](JsonPtr d) { return decode_pod_migration_job(d); });
  mutate_everywhere<NodeMetric>(
      R"({"metadata":{"name":"n"},"status":{"updateTime":"2026-01-01T00:00:00Z","nodeMetric":{"nodeUsage":
      {"resources":{"cpu":"1"}},"aggregatedNodeUsages":[{"usage":{"avg":{"resources":{"cpu":"1"}}},"duration":"5m"}]},
      "podsMetric":[{"name":"p","podUsage":{"resources":{"cpu":"1"}}}]}})",
      [](JsonPtr d) { return decode_node_metric(d); });
  mutate_everywhere<Event>(
      R"({"apiVersion":"events.k8s.io/v1","metadata":{"name":"e"},"regarding":{"name":"p"},"note":"n",
      "series":{"count":2,"lastObservedTime":"2026-01-01T00:00:00.000000Z"},"eventTime":"2026-01-01T00:00:00.000000Z"})",
      [](JsonPtr d) { return decode_event(d); });
}
