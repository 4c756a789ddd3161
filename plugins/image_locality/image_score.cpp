#include "plugins/image_locality/image_score.hpp"

#include <algorithm>

#include "plugins/framework/plugin.hpp"

namespace troupe::plugins::image_locality {

std::string normalized_image_name(std::string_view image) {
  const auto colon = image.rfind(':');
  const auto slash = image.rfind('/');
  // No colon at all is "no tag"; a colon before the last slash belongs to a
  // registry port ("host:5000/app"), not a tag.
  const bool tagged = colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash);
  std::string name(image);
  if (!tagged) name += ":latest";
  return name;
}

int64_t scaled_image_score(int64_t size_bytes, int64_t nodes_with_image, int64_t total_nodes) {
  if (total_nodes <= 0) return 0;
  const double spread = static_cast<double>(nodes_with_image) / static_cast<double>(total_nodes);
  return static_cast<int64_t>(static_cast<double>(size_bytes) * spread);
}

int64_t image_priority(int64_t sum, int64_t containers) {
  const int64_t max_threshold = kMaxContainerThreshold * std::max<int64_t>(containers, 1);
  sum = std::clamp(sum, kMinThreshold, max_threshold);
  return kMaxNodeScore * (sum - kMinThreshold) / (max_threshold - kMinThreshold);
}

}  // namespace troupe::plugins::image_locality
