#include <catch2/catch.hpp>

#include <vector>

#include "codec_test_support.hpp"
#include "model/node.hpp"

using namespace troupe;
using namespace troupe::test;

namespace {

const char* kNodeJson = R"({
  "apiVersion": "v1", "kind": "Node",
  "metadata": {"name": "gpu-node-3", "uid": "7c1d", "resourceVersion": "991",
               "labels": {"kubernetes.io/hostname": "gpu-node-3", "node.koordinator.sh/gpu-model": "H100",
                          "topology.kubernetes.io/zone": "zone-a"},
               "annotations": {"node.alpha.kubernetes.io/ttl": "0"}},
  "spec": {"podCIDR": "10.244.3.0/24", "providerID": "kind://docker/kind/gpu-node-3",
           "unschedulable": true,
           "taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"},
                      {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule",
                       "timeAdded": "2026-03-01T09:00:00Z"}]},
  "status": {
    "capacity": {"cpu": "96", "memory": "1056467576Ki", "pods": "110", "nvidia.com/gpu": "8",
                 "koordinator.sh/gpu-core": "800", "ephemeral-storage": "1843Gi"},
    "allocatable": {"cpu": "95500m", "memory": "1046467576Ki", "pods": "110", "nvidia.com/gpu": "8",
                    "koordinator.sh/gpu-core": "800", "ephemeral-storage": "1700Gi"},
    "conditions": [
      {"type": "MemoryPressure", "status": "False", "lastHeartbeatTime": "2026-03-01T10:00:00Z",
       "lastTransitionTime": "2026-02-01T10:00:00Z", "reason": "KubeletHasSufficientMemory",
       "message": "kubelet has sufficient memory available"},
      {"type": "Ready", "status": "True", "lastHeartbeatTime": "2026-03-01T10:00:00Z",
       "lastTransitionTime": "2026-02-01T10:00:05Z", "reason": "KubeletReady", "message": "kubelet is posting ready status"}],
    "addresses": [{"type": "InternalIP", "address": "172.18.0.4"}, {"type": "Hostname", "address": "gpu-node-3"}],
    "nodeInfo": {"kubeletVersion": "v1.30.0", "architecture": "amd64"},
    "images": [{"names": ["registry.k8s.io/pause:3.9"], "sizeBytes": 321520}]
  }
})";

}  // namespace

TEST_CASE("decode_node reads labels, taints, resources, conditions and addresses", "[node]") {
  Node node = must(decode_node_json(kNodeJson), kNodeJson);
  CHECK(node.meta.name == "gpu-node-3");
  CHECK(node.meta.labels.at("node.koordinator.sh/gpu-model") == "H100");
  CHECK(node.spec.unschedulable);
  REQUIRE(node.spec.taints.size() == 2);
  CHECK(node.spec.taints[0].key == "nvidia.com/gpu");
  CHECK(node.spec.taints[0].value == "present");
  CHECK(node.spec.taints[0].effect == TaintEffect::no_schedule);
  CHECK(node.spec.taints[1].time_added.has_value());
  CHECK(node.status.capacity.at("cpu").value() == 96);
  CHECK(node.status.allocatable.at("cpu").milli_value() == 95500);
  CHECK(node.status.allocatable.at("memory").value() == 1046467576LL * 1024);
  CHECK(node.status.allocatable.at("nvidia.com/gpu").value() == 8);
  CHECK(node.status.allocatable.at("pods").value() == 110);
  REQUIRE(node.status.conditions.size() == 2);
  CHECK(node.status.conditions[0].last_heartbeat_time.has_value());
  CHECK(node.is_ready());
  REQUIRE(node.status.addresses.size() == 2);
  CHECK(node.status.addresses[0].type == "InternalIP");
  CHECK(node.status.addresses[0].address == "172.18.0.4");
}

TEST_CASE("encode of a node keeps what it does not model", "[node]") {
  Node node = must(decode_node_json(kNodeJson), kNodeJson);
  check_round_trip(node, kNodeJson);

  node.spec.unschedulable = false;
  node.spec.taints.pop_back();
  node.status.allocatable["koordinator.sh/gpu-memory"] = *Quantity::parse("640Gi");
  auto out = parse_json(encode(node));
  REQUIRE(out.ok());
  CHECK(find_path(**out, "spec", "unschedulable") == nullptr);
  CHECK((**out)["spec"]["taints"].Size() == 1);
  CHECK(get_string(**out, "spec", "podCIDR") == "10.244.3.0/24");
  CHECK(get_string(**out, "status", "allocatable", "koordinator.sh/gpu-memory") == "640Gi");
  CHECK(get_string(**out, "status", "allocatable", "memory") == "1046467576Ki");
  CHECK(get_string(**out, "status", "nodeInfo", "kubeletVersion") == "v1.30.0");
}

TEST_CASE("node readiness needs a True Ready condition", "[node]") {
  struct Case {
    const char* conditions;
    bool ready;
  };
  const Case cases[] = {
      {R"([])", false},
      {R"([{"type": "Ready", "status": "True"}])", true},
      {R"([{"type": "Ready", "status": "False"}])", false},
      {R"([{"type": "Ready", "status": "Unknown"}])", false},
      {R"([{"type": "DiskPressure", "status": "True"}])", false},
  };
  for (const auto& c : cases) {
    std::string text = std::string(R"({"metadata": {"name": "n"}, "status": {"conditions": )") + c.conditions + "}}";
    Node node = must(decode_node_json(text), text);
    INFO(text);
    CHECK(node.is_ready() == c.ready);
  }
}

TEST_CASE("decode_node rejects malformed nodes with the field's path", "[node]") {
  struct Case {
    std::string json;
    std::string error;
  };
  const std::vector<Case> cases = {
      {R"({"metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "lots"}}})",
       "status.allocatable.cpu: invalid quantity \"lots\": ..."},
      {R"({"metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "-1"}}})",
       "status.allocatable.cpu: Invalid value: \"-1\": must be greater than or equal to 0"},
      {R"({"metadata": {"name": "n"}, "status": {"capacity": {"memory": null}}})",
       "status.capacity.memory: Invalid value: null: must be a quantity string"},
      {R"({"metadata": {"name": "n"}, "spec": {"unschedulable": "true"}})",
       "spec.unschedulable: Invalid value: string: must be a boolean"},
      {R"({"metadata": {"name": "n"}, "spec": {"taints": [{"key": "k", "effect": "Evict"}]}})",
       "spec.taints[0].effect: Unsupported value: \"Evict\": supported values: \"NoSchedule\", \"PreferNoSchedule\", "
       "\"NoExecute\""},
      {R"({"metadata": {"name": "n"}, "spec": {"taints": [{"value": "v", "effect": "NoSchedule"}]}})",
       "spec.taints[0].key: Required value"},
      {R"({"metadata": {"name": "n"}, "status": {"addresses": [{"type": "InternalIP"}]}})",
       "status.addresses[0].address: Required value"},
      {R"({"metadata": {"name": "n"}, "status": {"conditions": [{"status": "True"}]}})",
       "status.conditions[0].type: Required value"},
      {R"({"kind": "Pod", "metadata": {"name": "n"}})", "kind: Invalid value: \"Pod\": must be Node"},
      {R"({"metadata": {"labels": {}}})", "metadata.name: Required value: name or generateName is required"},
      {R"({"metadata": {"name": "n"}, "status": {"images": [{"names": "a", "sizeBytes": 1}]}})",
       "status.images[0].names: Invalid value: string: must be an array"},
      {R"({"metadata": {"name": "n"}, "status": {"images": [{"names": [7]}]}})",
       "status.images[0].names[0]: Invalid value: number: must be a string"},
      {R"({"metadata": {"name": "n"}, "status": {"images": [{"names": ["a"], "sizeBytes": "1Gi"}]}})",
       "status.images[0].sizeBytes: Invalid value: string: must be an integer"},
      {R"({"metadata": {"name": "n"}, "status": {"images": {"names": ["a"]}}})",
       "status.images: Invalid value: object: must be an array"},
  };
  for (const auto& c : cases) check_error(decode_node_json(c.json), c.json, c.error);
}

TEST_CASE("decode_node keeps status.images as one sorted entry per name", "[node]") {
  const char* json = R"({"metadata": {"name": "n"}, "status": {"images": [
      {"names": ["gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"], "sizeBytes": 41943040},
      {"names": ["docker.io/library/nginx@sha256:0a1b", "docker.io/library/nginx:1.25"], "sizeBytes": 70000000},
      {"names": ["gcr.io/40:v1"], "sizeBytes": 5},
      {"sizeBytes": 9},
      {"names": ["registry.k8s.io/pause:3.9"]},
      {"names": ["broken:1"], "sizeBytes": -7}]}})";
  Node node = must(decode_node_json(json), json);
  std::vector<std::pair<std::string, int64_t>> images;
  for (const auto& image : node.status.images) images.emplace_back(image.name, image.size_bytes);
  // Sorted by name; a name listed again (here, by another image) keeps its first image's size.
  CHECK(images == std::vector<std::pair<std::string, int64_t>>{{"broken:1", 0},  // negative: 0
                                                               {"docker.io/library/nginx:1.25", 70000000},
                                                               {"docker.io/library/nginx@sha256:0a1b", 70000000},
                                                               {"gcr.io/40:latest", 41943040},
                                                               {"gcr.io/40:v1", 41943040},
                                                               {"registry.k8s.io/pause:3.9", 0}});
  REQUIRE(node.status.find_image("gcr.io/40:v1") != nullptr);
  CHECK(node.status.find_image("gcr.io/40:v1")->size_bytes == 41943040);
  CHECK(node.status.find_image("gcr.io/40") == nullptr);  // exact names only: normalizing is the plugin's
  CHECK(node.status.find_image("zzz") == nullptr);
  CHECK(node.status.find_image("") == nullptr);
  // Encoding leaves the JSON's images as they were.
  auto out = parse_json(encode(node));
  REQUIRE(out.ok());
  CHECK((**out)["status"]["images"].Size() == 6);
}
