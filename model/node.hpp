#pragma once
// Node as the scheduler sees it: labels (in meta), taints, unschedulable,
// capacity / allocatable, conditions, addresses and images, over the whole object.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/condition.hpp"
#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/object_meta.hpp"
#include "model/resources.hpp"
#include "model/result.hpp"
#include "model/scheduling_types.hpp"

namespace troupe {

struct NodeAddress {
  std::string type;  // InternalIP, ExternalIP, Hostname, ...
  std::string address;
};

/// One name of an image the node's runtime holds, with the image's size.
/// status.images lists each image once with all its names; troupe keeps one
/// entry per name, sorted, which is how ImageLocality looks them up.
struct NodeImage {
  std::string name;
  int64_t size_bytes = 0;
};

struct NodeSpec {
  bool unschedulable = false;
  std::vector<Taint> taints;
};

struct NodeStatus {
  ResourceList capacity;
  ResourceList allocatable;
  std::vector<Condition> conditions;
  std::vector<NodeAddress> addresses;
  /// status.images by name, sorted and without duplicate names. Read only:
  /// encoding leaves the raw JSON's images as they are.
  std::vector<NodeImage> images;

  /// The image known by exactly this name, or nullptr.
  const NodeImage* find_image(std::string_view name) const;
};

struct Node {
  ObjectMeta meta;
  NodeSpec spec;
  NodeStatus status;
  JsonPtr raw;

  /// The Ready condition is present and True.
  bool is_ready() const;
};

Result<Node> decode_node(JsonPtr doc);
Result<Node> decode_node_json(std::string_view text);
std::shared_ptr<JsonDocument> to_document(const Node& node);
std::string encode(const Node& node);

TROUPE_DECLARE_JSON_FIELDS(NodeAddress)
TROUPE_DECLARE_JSON_FIELDS(NodeSpec)
TROUPE_DECLARE_JSON_FIELDS(NodeStatus)
TROUPE_DECLARE_JSON_FIELDS(Node)

}  // namespace troupe
