#pragma once
// ImageLocality's arithmetic (kube-scheduler's image_locality.go): a node
// scores by the sizes of the pod's images it already holds, each scaled by
// the share of the cluster's nodes that hold it, so that a rare image does
// not pull every replica onto its one node (the "node heating" problem).

#include <cstdint>
#include <string>
#include <string_view>

namespace troupe::plugins::image_locality {

inline constexpr int64_t kMiB = 1024 * 1024;
/// Sums below this score 0: most images are larger, so a node holding only
/// small ones is no better than one holding none.
inline constexpr int64_t kMinThreshold = 23 * kMiB;
/// Per container: sums at or above `containers` × this score 100.
inline constexpr int64_t kMaxContainerThreshold = 1000 * kMiB;

/// The name as the container runtime reports it: ":latest" appended when
/// the name has no tag (no ':' after the last '/').
std::string normalized_image_name(std::string_view image);

/// An image's contribution: its size × (nodes holding it / all nodes).
int64_t scaled_image_score(int64_t size_bytes, int64_t nodes_with_image, int64_t total_nodes);

/// The node score in [0, 100] for `sum` (the scaled sizes of the pod's
/// images on the node) and the pod's number of containers (init included).
int64_t image_priority(int64_t sum, int64_t containers);

}  // namespace troupe::plugins::image_locality
