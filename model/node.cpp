#include "model/node.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kNodeKind{"v1", "Node"};

template <class Io, class T>
void node_address_fields(Io& io, T& x) {
  io.required("type", x.type);
  io.required("address", x.address);
}

template <class Io, class T>
void node_spec_fields(Io& io, T& x) {
  io.field("unschedulable", x.unschedulable);
  io.array("taints", x.taints);
}

template <class Io, class T>
void node_status_fields(Io& io, T& x) {
  io.field("capacity", x.capacity);
  io.field("allocatable", x.allocatable);
  io.array("conditions", x.conditions);
  io.array("addresses", x.addresses);
}

template <class Io, class T>
void node_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.object("spec", x.spec);
  io.object("status", x.status);
}

}  // namespace

TROUPE_JSON_FIELDS(NodeAddress, node_address_fields)
TROUPE_JSON_FIELDS(NodeSpec, node_spec_fields)
TROUPE_JSON_FIELDS(NodeStatus, node_status_fields)
TROUPE_JSON_FIELDS(Node, node_fields)

bool Node::is_ready() const {
  const Condition* ready = find_condition(status.conditions, "Ready");
  return ready != nullptr && ready->is_true();
}

Result<Node> decode_node(JsonPtr doc) { return decode_object<Node>(doc, kNodeKind); }

Result<Node> decode_node_json(std::string_view text) { return decode_object_text<Node>(text, kNodeKind); }

std::shared_ptr<JsonDocument> to_document(const Node& node) { return encode_document(node, kNodeKind); }

std::string encode(const Node& node) { return to_json(*to_document(node)); }

}  // namespace troupe
