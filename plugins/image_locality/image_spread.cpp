#include "plugins/image_locality/image_spread.hpp"

#include <algorithm>

namespace troupe::plugins::image_locality {

bool same_image_names(const Node& a, const Node& b) {
  return std::equal(a.status.images.begin(), a.status.images.end(), b.status.images.begin(), b.status.images.end(),
                    [](const NodeImage& x, const NodeImage& y) { return x.name == y.name; });
}

void ImageSpread::count(const Node& node, int64_t delta) {
  for (const auto& image : node.status.images) {  // unique names
    auto it = nodes_by_image_.try_emplace(image.name, 0).first;
    it->second += delta;
    if (it->second <= 0) nodes_by_image_.erase(it);
  }
}

void ImageSpread::upsert_node(std::shared_ptr<const Node> node) {
  if (!node) return;
  auto [it, added] = nodes_.try_emplace(node->meta.name);
  if (!added && same_image_names(*it->second, *node)) {
    it->second = std::move(node);  // a status update that moved no image: no share changed
    return;
  }
  if (!added) count(*it->second, -1);
  it->second = std::move(node);
  count(*it->second, +1);
  ++generation_;
}

void ImageSpread::remove_node(const std::string& name) {
  auto it = nodes_.find(name);
  if (it == nodes_.end()) return;
  count(*it->second, -1);
  nodes_.erase(it);
  ++generation_;
}

int64_t ImageSpread::nodes_with(std::string_view image) const {
  auto it = nodes_by_image_.find(std::string(image));
  return it == nodes_by_image_.end() ? 0 : it->second;
}

}  // namespace troupe::plugins::image_locality
