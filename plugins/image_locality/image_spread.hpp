#pragma once
// ImageSpread: how many of the cluster's nodes hold each image name
// (upstream's ImageStateSummary.NumNodes), and how many nodes there are.
// ImageLocality scales an image's size by that share. It is cluster-wide,
// which no node partition sees, so the SCHEDULING CYCLE keeps the one
// instance (from the Node events it already follows) and shares it with
// each cycle as an input (CycleState::share_input) that only Score reads.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/node.hpp"

namespace troupe::plugins::image_locality {

/// Whether the two node objects list the same image names (sizes aside).
bool same_image_names(const Node& a, const Node& b);

class ImageSpread {
 public:
  /// A node was added or changed (kept, not copied: its images are the
  /// ones counted, to take back when it changes or goes).
  void upsert_node(std::shared_ptr<const Node> node);
  void remove_node(const std::string& name);

  /// Nodes holding an image by exactly this name.
  int64_t nodes_with(std::string_view image) const;
  int64_t total_nodes() const { return static_cast<int64_t>(nodes_.size()); }
  /// Whether any node lists any image (else ImageLocality has nothing to score).
  bool any_images() const { return !nodes_by_image_.empty(); }
  /// Bumped whenever a share changes: a node comes or goes, or its images change.
  uint64_t generation() const { return generation_; }

 private:
  void count(const Node& node, int64_t delta);

  std::unordered_map<std::string, std::shared_ptr<const Node>> nodes_;
  std::unordered_map<std::string, int64_t> nodes_by_image_;
  uint64_t generation_ = 0;
};

}  // namespace troupe::plugins::image_locality
