#pragma once
// NodeResourceTopology (topology.node.k8s.io/v1alpha1, cluster scoped, named
// after the node): NUMA zones with their resources, the topology policies,
// and attributes. It has no spec/status. Koordinator's CPU topology, kubelet
// CPU manager and shared-pool annotations stay in meta.annotations as text;
// later code decodes those payloads.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/object_meta.hpp"
#include "model/quantity.hpp"
#include "model/result.hpp"

namespace troupe {

struct NrtResource {
  std::string name;
  Quantity capacity;
  Quantity allocatable;
  Quantity available;
};

struct NrtCost {
  std::string name;
  int64_t value = 0;
};

struct NrtAttribute {
  std::string name;
  std::string value;
};

struct NrtZone {
  std::string name;  // "node-0" for NUMA node 0
  std::string type;  // "Node" for NUMA nodes
  std::string parent;
  std::vector<NrtCost> costs;
  std::vector<NrtAttribute> attributes;
  std::vector<NrtResource> resources;
};

struct NodeResourceTopology {
  ObjectMeta meta;
  /// e.g. "SingleNUMANodePodLevel", "BestEffort"; deprecated in v1alpha2.
  std::vector<std::string> topology_policies;
  std::vector<NrtAttribute> attributes;
  std::vector<NrtZone> zones;
  JsonPtr raw;
};

Result<NodeResourceTopology> decode_node_resource_topology(JsonPtr doc);
Result<NodeResourceTopology> decode_node_resource_topology_json(std::string_view text);
std::shared_ptr<JsonDocument> to_document(const NodeResourceTopology& nrt);
std::string encode(const NodeResourceTopology& nrt);

TROUPE_DECLARE_JSON_FIELDS(NrtResource)
TROUPE_DECLARE_JSON_FIELDS(NrtCost)
TROUPE_DECLARE_JSON_FIELDS(NrtAttribute)
TROUPE_DECLARE_JSON_FIELDS(NrtZone)
TROUPE_DECLARE_JSON_FIELDS(NodeResourceTopology)

}  // namespace troupe
