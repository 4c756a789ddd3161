#include "model/node.hpp"

#include <algorithm>

#include "model/json_codec.hpp"

namespace troupe {

/// An entry of status.images as the API writes it: an image and its names.
struct ContainerImage {
  std::vector<std::string> names;
  int64_t size_bytes = 0;
};
TROUPE_DECLARE_JSON_FIELDS(ContainerImage)

namespace {

constexpr KindInfo kNodeKind{"v1", "Node"};

template <class Io, class T>
void node_address_fields(Io& io, T& x) {
  io.required("type", x.type);
  io.required("address", x.address);
}

template <class Io, class T>
void container_image_fields(Io& io, T& x) {
  io.field("names", x.names);
  io.field("sizeBytes", x.size_bytes);
}

/// status.images, flattened to one sorted entry per name (the first image
/// listed under a name keeps it). A negative size counts as 0: the API server
/// does not check it, and a node is not worth losing over an image.
void read_images(JsonReader& io, NodeStatus& status) {
  std::vector<ContainerImage> listed;
  io.array("images", listed);
  status.images.clear();
  for (auto& image : listed)
    for (auto& name : image.names)
      status.images.push_back(NodeImage{std::move(name), std::max<int64_t>(image.size_bytes, 0)});
  std::stable_sort(status.images.begin(), status.images.end(),
                   [](const NodeImage& a, const NodeImage& b) { return a.name < b.name; });
  status.images.erase(std::unique(status.images.begin(), status.images.end(),
                                  [](const NodeImage& a, const NodeImage& b) { return a.name == b.name; }),
                      status.images.end());
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
  if constexpr (Io::reading) read_images(io, x);
}

template <class Io, class T>
void node_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.object("spec", x.spec);
  io.object("status", x.status);
}

}  // namespace

TROUPE_JSON_FIELDS(NodeAddress, node_address_fields)
TROUPE_JSON_FIELDS(ContainerImage, container_image_fields)
TROUPE_JSON_FIELDS(NodeSpec, node_spec_fields)
TROUPE_JSON_FIELDS(NodeStatus, node_status_fields)
TROUPE_JSON_FIELDS(Node, node_fields)

const NodeImage* NodeStatus::find_image(std::string_view name) const {
  auto it = std::lower_bound(images.begin(), images.end(), name,
                             [](const NodeImage& image, std::string_view key) { return image.name < key; });
  return it != images.end() && it->name == name ? &*it : nullptr;
}

bool Node::is_ready() const {
  const Condition* ready = find_condition(status.conditions, "Ready");
  return ready != nullptr && ready->is_true();
}

Result<Node> decode_node(JsonPtr doc) { return decode_object<Node>(doc, kNodeKind); }

Result<Node> decode_node_json(std::string_view text) { return decode_object_text<Node>(text, kNodeKind); }

std::shared_ptr<JsonDocument> to_document(const Node& node) { return encode_document(node, kNodeKind); }

std::string encode(const Node& node) { return to_json(*to_document(node)); }

}  // namespace troupe
