#include <catch2/catch.hpp>

#include <rapidjson/pointer.h>

#include "model/json.hpp"
#include "sim/trace/trace_objects.hpp"

using namespace troupe;
using namespace troupe::sim::trace;

namespace {

std::shared_ptr<rapidjson::Document> json_of(const std::string& text) {
  auto doc = parse_json(text);
  REQUIRE(doc.ok());
  return *doc;
}

// The value at a JSON pointer as text ("<absent>" when missing).
std::string at(const rapidjson::Document& doc, const char* pointer) {
  const rapidjson::Value* v = rapidjson::Pointer(pointer).Get(doc);
  if (v == nullptr) return "<absent>";
  if (v->IsString()) return v->GetString();
  if (v->IsBool()) return v->GetBool() ? "true" : "false";
  if (v->IsInt64()) return std::to_string(v->GetInt64());
  return "<non-scalar>";
}

struct Field {
  const char* pointer;
  const char* value;
};

void check_fields(const std::string& json, const std::vector<Field>& fields) {
  auto doc = json_of(json);
  for (const auto& f : fields) {
    INFO(f.pointer);
    CHECK(at(*doc, f.pointer) == f.value);
  }
}

TracePod pod(const char* name, int64_t cpu, int64_t mem, int32_t num, int32_t milli, std::vector<std::string> spec = {}) {
  return TracePod{name, cpu, mem, num, milli, std::move(spec)};
}

}  // namespace

TEST_CASE("trace objects: one GPU node and its Device", "[trace][objects]") {
  const TraceNode t4{"openb-node-0002", 104000, 524288, 2, "T4"};
  auto node = build_node(t4);
  REQUIRE(node.ok());
  check_fields(encode(*node), {
                                  {"/apiVersion", "v1"},
                                  {"/kind", "Node"},
                                  {"/metadata/name", "openb-node-0002"},
                                  {"/metadata/labels/kubernetes.io~1hostname", "openb-node-0002"},
                                  {"/metadata/labels/node.koordinator.sh~1gpu-model", "T4"},
                                  {"/metadata/labels/node.koordinator.sh~1gpu-vendor", "nvidia"},
                                  {"/status/capacity/cpu", "104"},
                                  {"/status/capacity/memory", "512Gi"},
                                  {"/status/capacity/pods", "1001"},
                                  {"/status/capacity/nvidia.com~1gpu", "2"},
                                  {"/status/capacity/koordinator.sh~1gpu", "200"},
                                  {"/status/capacity/koordinator.sh~1gpu-core", "200"},
                                  {"/status/capacity/koordinator.sh~1gpu-memory-ratio", "200"},
                                  {"/status/capacity/koordinator.sh~1gpu-memory", "30218Mi"},  // 2 x 15109 MiB
                                  {"/status/allocatable/cpu", "104"},
                                  {"/status/allocatable/nvidia.com~1gpu", "2"},
                                  {"/status/conditions/0/type", "Ready"},
                                  {"/status/conditions/0/status", "True"},
                              });
  auto device = build_device(t4);
  REQUIRE(device.ok());
  REQUIRE(device->has_value());
  check_fields(encode(**device), {
                                     {"/apiVersion", "scheduling.koordinator.sh/v1alpha1"},
                                     {"/kind", "Device"},
                                     {"/metadata/name", "openb-node-0002"},
                                     {"/metadata/labels/node.koordinator.sh~1gpu-model", "T4"},
                                     {"/spec/devices/0/type", "gpu"},
                                     {"/spec/devices/0/minor", "0"},
                                     {"/spec/devices/0/id", "openb-node-0002-gpu-0"},
                                     {"/spec/devices/0/health", "true"},
                                     {"/spec/devices/0/resources/koordinator.sh~1gpu-core", "100"},
                                     {"/spec/devices/0/resources/koordinator.sh~1gpu-memory-ratio", "100"},
                                     {"/spec/devices/0/resources/koordinator.sh~1gpu-memory", "15109Mi"},
                                     {"/spec/devices/1/minor", "1"},
                                     {"/spec/devices/2", "<absent>"},
                                 });
  // The JSON decodes back through the model types.
  auto decoded = decode_device_json(encode(**device));
  REQUIRE(decoded.ok());
  CHECK(decoded->devices.size() == 2);
}

TEST_CASE("trace objects: CPU-only nodes and unknown models", "[trace][objects]") {
  const TraceNode cpu{"cpu-node", 32000, 262144, 0, ""};
  auto node = build_node(cpu);
  REQUIRE(node.ok());
  check_fields(encode(*node), {{"/status/capacity/cpu", "32"},
                               {"/status/capacity/nvidia.com~1gpu", "<absent>"},
                               {"/metadata/labels/node.koordinator.sh~1gpu-model", "<absent>"}});
  auto device = build_device(cpu);
  REQUIRE(device.ok());
  CHECK_FALSE(device->has_value());

  const TraceNode odd{"odd", 1000, 1024, 1, "Z9"};
  auto bad = build_node(odd);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.message() == "node odd: GPU model 'Z9' has no known card memory");
  CHECK_FALSE(build_device(odd).ok());
}

TEST_CASE("trace objects: pods of each kind", "[trace][objects]") {
  struct Case {
    TracePod pod;
    std::vector<Field> fields;
  };
  const std::vector<Case> cases = {
      {pod("shared", 6000, 12288, 1, 460),
       {{"/metadata/name", "shared"},
        {"/metadata/namespace", "paib-gpu"},
        {"/spec/schedulerName", "troupe"},
        {"/spec/containers/0/name", "main"},
        {"/spec/containers/0/resources/requests/cpu", "6"},
        {"/spec/containers/0/resources/requests/memory", "12Gi"},
        {"/spec/containers/0/resources/requests/koordinator.sh~1gpu", "46"},
        {"/spec/containers/0/resources/limits/koordinator.sh~1gpu", "46"},
        {"/spec/containers/0/resources/requests/nvidia.com~1gpu", "<absent>"},
        {"/spec/affinity", "<absent>"}}},
      {pod("odd-share", 3152, 100, 1, 475),  // 47.5 percent of a card
       {{"/spec/containers/0/resources/requests/koordinator.sh~1gpu", "47500m"},
        {"/spec/containers/0/resources/requests/cpu", "3152m"}}},
      {pod("whole", 88000, 327680, 8, 1000),
       {{"/spec/containers/0/resources/requests/nvidia.com~1gpu", "8"},
        {"/spec/containers/0/resources/limits/nvidia.com~1gpu", "8"},
        {"/spec/containers/0/resources/requests/koordinator.sh~1gpu", "<absent>"},
        {"/spec/containers/0/resources/requests/memory", "320Gi"}}},
      {pod("one-whole", 12000, 16384, 1, 1000), {{"/spec/containers/0/resources/requests/nvidia.com~1gpu", "1"}}},
      {pod("typed", 4000, 8192, 1, 500, {"V100M16", "V100M32"}),
       {{"/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0/"
         "matchExpressions/0/key",
         "node.koordinator.sh/gpu-model"},
        {"/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0/"
         "matchExpressions/0/operator",
         "In"},
        {"/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0/"
         "matchExpressions/0/values/0",
         "V100M16"},
        {"/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0/"
         "matchExpressions/0/values/1",
         "V100M32"},
        {"/spec/containers/0/resources/requests/koordinator.sh~1gpu", "50"}}},
      {pod("cpu-only", 12500, 0, 0, 0),
       {{"/spec/containers/0/resources/requests/cpu", "12500m"},
        {"/spec/containers/0/resources/requests/memory", "<absent>"},
        {"/spec/containers/0/resources/requests/koordinator.sh~1gpu", "<absent>"},
        {"/spec/containers/0/resources/requests/nvidia.com~1gpu", "<absent>"}}},
  };
  for (const auto& c : cases) {
    INFO(c.pod.name);
    const std::string json = encode(build_pod(c.pod));
    check_fields(json, c.fields);
    CHECK(decode_pod_json(json).ok());
  }
  PodBuildOptions options;
  options.namespace_name = "replay";
  options.scheduler_name = "default-scheduler";
  check_fields(encode(build_pod(pod("p", 1, 1, 0, 0), options)),
               {{"/metadata/namespace", "replay"}, {"/spec/schedulerName", "default-scheduler"}});
}

TEST_CASE("trace objects: one List for the API server", "[trace][objects]") {
  const std::vector<TraceNode> nodes = {{"n-gpu", 8000, 32768, 1, "V100M16"}, {"n-cpu", 8000, 32768, 0, ""}};
  const std::vector<TracePod> pods = {pod("a", 1000, 1024, 1, 500), pod("b", 1000, 1024, 0, 0)};
  auto list = trace_cluster_json(nodes, pods);
  REQUIRE(list.ok());
  auto doc = json_of(*list);
  CHECK(at(*doc, "/kind") == "List");
  REQUIRE((*doc)["items"].Size() == 5);  // 2 nodes, 1 Device, 2 pods
  CHECK(at(*doc, "/items/0/kind") == "Node");
  CHECK(at(*doc, "/items/1/kind") == "Device");
  CHECK(at(*doc, "/items/2/metadata/name") == "n-cpu");
  CHECK(at(*doc, "/items/4/metadata/name") == "b");

  auto bad = trace_cluster_json({{"x", 1, 1, 1, "Nope"}}, pods);
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.message(), Catch::Contains("GPU model 'Nope'"));
}
