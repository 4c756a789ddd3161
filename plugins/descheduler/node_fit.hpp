#pragma once
// The descheduler's NodeFit (pkg/descheduler/node): could an evicted pod be
// placed on another node? It asks only what the scheduler would: the pod's
// nodeSelector and required node affinity, NoSchedule/NoExecute taints it
// does not tolerate, an unschedulable node, and whether its requests fit
// what the node has left. Pod (anti-)affinity and ports are not checked, as
// upstream does not check them either.

#include <optional>
#include <string>
#include <vector>

#include "model/node.hpp"
#include "model/pod.hpp"
#include "model/resources.hpp"

namespace troupe::plugins::descheduler {

/// A node with the summed requests of the pods already on it.
struct NodeRoom {
  const Node* node = nullptr;
  ResourceList requested;
};

/// Why `pod` (whose requests are `pod_requests`) cannot go to `room`, or
/// nullopt when it can.
std::optional<std::string> node_fit_failure(const Pod& pod, const ResourceList& pod_requests, const NodeRoom& room);

/// True when some node other than the pod's own accepts it.
bool fits_any_other_node(const Pod& pod, const std::vector<NodeRoom>& nodes);

}  // namespace troupe::plugins::descheduler
