#include <catch2/catch.hpp>

#include <vector>

#include "codec_test_support.hpp"
#include "model/node_resource_topology.hpp"

using namespace troupe;
using namespace troupe::test;

namespace {

const char* kNrtJson = R"({
  "apiVersion": "topology.node.k8s.io/v1alpha1", "kind": "NodeResourceTopology",
  "metadata": {"name": "node-1", "annotations": {
    "node.koordinator.sh/cpu-topology": "{\"detail\":[{\"id\":0,\"core\":0,\"socket\":0,\"node\":0}]}",
    "kubelet.koordinator.sh/cpu-manager-policy": "{\"policy\":\"static\",\"reservedCPUs\":\"0-1\"}"},
    "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": "node-1", "uid": "n-1"}]},
  "topologyPolicies": ["SingleNUMANodePodLevel"],
  "zones": [
    {"name": "node-0", "type": "Node",
     "costs": [{"name": "node-0", "value": 10}, {"name": "node-1", "value": 21}],
     "resources": [{"name": "cpu", "capacity": "52", "allocatable": "52", "available": "48"},
                   {"name": "memory", "capacity": "263566416Ki", "allocatable": "263566416Ki", "available": "250Gi"}]},
    {"name": "node-1", "type": "Node", "attributes": [{"name": "vendor", "value": "x"}],
     "resources": [{"name": "cpu", "capacity": 52, "allocatable": "52", "available": "52"}]}
  ]
})";

}  // namespace

TEST_CASE("decode_node_resource_topology reads zones, costs and policies", "[node_resource_topology]") {
  NodeResourceTopology nrt = must(decode_node_resource_topology_json(kNrtJson), kNrtJson);
  CHECK(nrt.meta.name == "node-1");
  CHECK(nrt.topology_policies == std::vector<std::string>{"SingleNUMANodePodLevel"});
  REQUIRE(nrt.zones.size() == 2);
  CHECK(nrt.zones[0].name == "node-0");
  CHECK(nrt.zones[0].type == "Node");
  REQUIRE(nrt.zones[0].costs.size() == 2);
  CHECK(nrt.zones[0].costs[1].value == 21);
  REQUIRE(nrt.zones[0].resources.size() == 2);
  CHECK(nrt.zones[0].resources[0].name == "cpu");
  CHECK(nrt.zones[0].resources[0].available.value() == 48);
  CHECK(nrt.zones[0].resources[1].available.value() == 250LL * 1024 * 1024 * 1024);
  CHECK(nrt.zones[1].attributes[0].value == "x");
  CHECK(nrt.zones[1].resources[0].capacity.value() == 52);
  // Koordinator's payloads stay as annotation text for later decoding.
  REQUIRE(nrt.meta.annotation("node.koordinator.sh/cpu-topology") != nullptr);
}

TEST_CASE("encode of a node resource topology is lossless and writes edits", "[node_resource_topology]") {
  NodeResourceTopology nrt = must(decode_node_resource_topology_json(kNrtJson), kNrtJson);
  check_round_trip(nrt, kNrtJson);
  nrt.zones[0].resources[0].available = Quantity::from_value(40);
  auto out = parse_json(encode(nrt));
  REQUIRE(out.ok());
  CHECK(get_string((**out)["zones"][0]["resources"][0], "available") == "40");
  CHECK(get_string((**out)["zones"][0]["resources"][1], "available") == "250Gi");
  CHECK((**out)["zones"][1]["resources"][0]["capacity"].IsInt());  // untouched number spelling
}

TEST_CASE("decode_node_resource_topology errors name the zone field", "[node_resource_topology]") {
  struct Case {
    std::string json;
    std::string error;
  };
  auto nrt = [](const std::string& body) { return R"({"metadata": {"name": "n"}, )" + body + "}"; };
  const std::vector<Case> cases = {
      {nrt(R"("zones": [{"name": "node-0", "type": "Node", "resources": [{"name": "cpu", "capacity": "many"}]}])"),
       "zones[0].resources[0].capacity: invalid quantity \"many\": ..."},
      {nrt(R"("zones": [{"type": "Node"}])"), "zones[0].name: Required value"},
      {nrt(R"("zones": [{"name": "node-0"}])"), "zones[0].type: Required value"},
      {nrt(R"("zones": [{"name": "node-0", "type": "Node", "resources": [{"capacity": "1"}]}])"),
       "zones[0].resources[0].name: Required value"},
      {nrt(R"("zones": [{"name": "node-0", "type": "Node", "costs": [{"name": "node-1", "value": "21"}]}])"),
       "zones[0].costs[0].value: Invalid value: string: must be an integer"},
      {nrt(R"("topologyPolicies": "None")"), "topologyPolicies: Invalid value: string: must be an array"},
      {nrt(R"("topologyPolicies": ["None", 3])"), "topologyPolicies[1]: Invalid value: number: must be a string"},
  };
  for (const auto& c : cases) check_error(decode_node_resource_topology_json(c.json), c.json, c.error);
}
