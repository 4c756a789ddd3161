#pragma once
// ImageLocality (kube-scheduler's score plugin): prefers nodes that already
// hold the pod's container images, so the pod starts without pulling them.
//
//   PreScore  (cycle) each container's image, init containers included, by
//             its normalized name, with the share of nodes that hold it
//             (ImageSpread, shared by the cycle); Skip when no node holds any
//   Score     (partitions) the sum of those shares × the image's size on the
//             node (status.images), as image_priority in [0, 100]
//
// Weight 1 in kube-scheduler's default profile, and in troupe's.

#include <string>
#include <utility>
#include <vector>

#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins::image_locality {

/// What PreScore leaves for Score: the pod's images some node holds.
struct PodImages {
  struct Image {
    std::string name;  // normalized
    int64_t nodes_with_image = 0;
  };
  std::vector<Image> images;  // one per container holding it (a repeated image counts again)
  int64_t total_nodes = 0;
  int64_t containers = 0;  // init and regular
};

class ImageLocality final : public PreScorePlugin, public ScorePlugin {
 public:
  static constexpr const char* kName = names::kImageLocality;

  std::string_view name() const override { return kName; }
  PluginStatus pre_score(CycleState& state, const PodInfo& pod) const override;
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
};

}  // namespace troupe::plugins::image_locality
