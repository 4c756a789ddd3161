#include "plugins/image_locality/image_locality.hpp"

#include "plugins/image_locality/image_score.hpp"
#include "plugins/image_locality/image_spread.hpp"

namespace troupe::plugins::image_locality {

namespace {

void add_images(const std::vector<Container>& containers, const ImageSpread& spread, PodImages& out) {
  for (const auto& container : containers) {
    ++out.containers;
    std::string name = normalized_image_name(container.image);
    if (int64_t nodes = spread.nodes_with(name); nodes > 0)
      out.images.push_back(PodImages::Image{std::move(name), nodes});
  }
}

}  // namespace

PluginStatus ImageLocality::pre_score(CycleState& state, const PodInfo& pod) const {
  const auto* spread = state.input<ImageSpread>();
  // No node lists an image (or the cycle shares none): every node would score 0.
  if (spread == nullptr || !spread->any_images()) return PluginStatus(Code::skip);
  PodImages images;
  images.total_nodes = spread->total_nodes();
  add_images(pod.spec().init_containers, *spread, images);
  add_images(pod.spec().containers, *spread, images);
  if (images.images.empty()) return PluginStatus(Code::skip);
  state.write(state_slot(), std::move(images));
  return {};
}

ScoreResult ImageLocality::score(const CycleState& state, const PodInfo&, const NodeInfo& node) const {
  ScoreResult result;
  const auto* images = state.read<PodImages>(state_slot());
  if (images == nullptr || node.node() == nullptr) return result;
  int64_t sum = 0;
  for (const auto& image : images->images)
    if (const NodeImage* held = node.node()->status.find_image(image.name))
      sum += scaled_image_score(held->size_bytes, image.nodes_with_image, images->total_nodes);
  result.score = image_priority(sum, images->containers);
  return result;
}

}  // namespace troupe::plugins::image_locality
