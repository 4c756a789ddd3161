#include "model/node_resource_topology.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kNrtKind{"topology.node.k8s.io/v1alpha1", "NodeResourceTopology"};

template <class Io, class T>
void nrt_resource_fields(Io& io, T& x) {
  io.required("name", x.name);
  io.field("capacity", x.capacity);
  io.field("allocatable", x.allocatable);
  io.field("available", x.available);
}

template <class Io, class T>
void nrt_cost_fields(Io& io, T& x) {
  io.required("name", x.name);
  io.required("value", x.value);
}

template <class Io, class T>
void nrt_attribute_fields(Io& io, T& x) {
  io.required("name", x.name);
  io.required("value", x.value);
}

template <class Io, class T>
void nrt_zone_fields(Io& io, T& x) {
  io.required("name", x.name);
  io.required("type", x.type);
  io.field("parent", x.parent);
  io.array("costs", x.costs);
  io.array("attributes", x.attributes);
  io.array("resources", x.resources);
}

template <class Io, class T>
void nrt_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.field("topologyPolicies", x.topology_policies);
  io.array("attributes", x.attributes);
  io.array("zones", x.zones);
}

}  // namespace

TROUPE_JSON_FIELDS(NrtResource, nrt_resource_fields)
TROUPE_JSON_FIELDS(NrtCost, nrt_cost_fields)
TROUPE_JSON_FIELDS(NrtAttribute, nrt_attribute_fields)
TROUPE_JSON_FIELDS(NrtZone, nrt_zone_fields)
TROUPE_JSON_FIELDS(NodeResourceTopology, nrt_fields)

Result<NodeResourceTopology> decode_node_resource_topology(JsonPtr doc) {
  return decode_object<NodeResourceTopology>(doc, kNrtKind);
}

Result<NodeResourceTopology> decode_node_resource_topology_json(std::string_view text) {
  return decode_object_text<NodeResourceTopology>(text, kNrtKind);
}

std::shared_ptr<JsonDocument> to_document(const NodeResourceTopology& nrt) { return encode_document(nrt, kNrtKind); }

std::string encode(const NodeResourceTopology& nrt) { return to_json(*to_document(nrt)); }

}  // namespace troupe
