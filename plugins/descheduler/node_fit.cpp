#include "plugins/descheduler/node_fit.hpp"

#include "model/pod_requests.hpp"
#include "plugins/node_affinity/node_selector.hpp"
#include "plugins/taint_toleration/taint_toleration.hpp"

namespace troupe::plugins::descheduler {

namespace {

std::optional<std::string> selector_failure(const Pod& pod, const Node& node) {
  if (!node_selector_labels_match(pod.spec.node_selector, node)) return "node(s) didn't match Pod's node selector";
  const NodeSelector* required = required_node_affinity(pod.spec);
  if (required != nullptr && !selector_matches(*required, node)) return "node(s) didn't match Pod's node affinity";
  return std::nullopt;
}

std::optional<std::string> taint_failure(const Pod& pod, const Node& node) {
  // PreferNoSchedule never blocks placement.
  if (const Taint* taint = first_untolerated_scheduling_taint(node.spec.taints, pod.spec.tolerations))
    return untolerated_taint_reason(*taint);
  return std::nullopt;
}

std::optional<std::string> resource_failure(const ResourceList& pod_requests, const NodeRoom& room) {
  ResourceList free = room.node->status.allocatable - room.requested;
  std::vector<std::string> short_of = pod_requests.fits_within(free);
  if (short_of.empty()) return std::nullopt;
  std::string reason = "insufficient";
  for (const auto& name : short_of) reason += " " + name;
  return reason;
}

}  // namespace

std::optional<std::string> node_fit_failure(const Pod& pod, const ResourceList& pod_requests, const NodeRoom& room) {
  const Node& node = *room.node;
  if (node.spec.unschedulable) return "node(s) were unschedulable";
  if (auto failure = selector_failure(pod, node)) return failure;
  if (auto failure = taint_failure(pod, node)) return failure;
  return resource_failure(pod_requests, room);
}

bool fits_any_other_node(const Pod& pod, const std::vector<NodeRoom>& nodes) {
  const ResourceList requests = pod_requests(pod.spec);
  for (const NodeRoom& room : nodes) {
    if (room.node == nullptr || room.node->meta.name == pod.spec.node_name) continue;
    if (!node_fit_failure(pod, requests, room)) return true;
  }
  return false;
}

}  // namespace troupe::plugins::descheduler
