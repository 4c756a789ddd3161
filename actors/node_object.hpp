#pragma once
// Node-scoped objects: API objects that belong to one node and are held by
// that node's actor beside its pods — a Device, a NodeResourceTopology and a
// NodeMetric (named after their node), an Available Reservation (placed on
// status.nodeName) and the gpushare extender's list of unhealthy GPUs (a
// ConfigMap named after its node, actors/gpu_health.hpp). One routed
// mechanism instead of a parallel pair of functions per kind: the informer
// sends the object to the actor owning its node, and NodePartition applies
// or removes it through apply_node_object / remove_node_object, which know
// which NodeInfo extension each kind feeds.

#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include <caf/all.hpp>

#include "model/device.hpp"
#include "model/node_metric.hpp"
#include "model/node_resource_topology.hpp"
#include "model/reservation.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/gpushare/gpushare_node_state.hpp"

namespace troupe::actors {

using ReservationPtr = std::shared_ptr<const Reservation>;
using UnhealthyGpusPtr = std::shared_ptr<const plugins::gpushare::UnhealthyGpus>;

enum class NodeObjectKind : uint8_t { device, topology, reservation, gpu_health, node_metric };

using NodeObject = std::variant<std::shared_ptr<const Device>, std::shared_ptr<const NodeResourceTopology>,
                                std::shared_ptr<const Reservation>, UnhealthyGpusPtr,
                                std::shared_ptr<const NodeMetric>>;

/// Which object of which node: `key` is the node name for the objects named
/// after their node, the uid for Reservations (several per node).
struct NodeObjectRef {
  NodeObjectKind kind = NodeObjectKind::device;
  std::string node_name;
  std::string key;
};

NodeObjectRef ref_of(const NodeObject& object);

/// Feeds the object to the node's extension. Returns the pod the object
/// accounts on the node besides (a Reservation held there: its reserve pod),
/// nullptr when none — a Reservation that is not Available holds nothing.
std::shared_ptr<const plugins::PodInfo> apply_node_object(plugins::NodeInfo& node, const NodeObject& object);
/// Removes the object from the node's extension.
void remove_node_object(plugins::NodeInfo& node, const NodeObjectRef& ref);

}  // namespace troupe::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::ReservationPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::UnhealthyGpusPtr)
