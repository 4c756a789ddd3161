#pragma once
// NODE actor: owns one NodePartition. Watch events for its nodes and the pods
// bound to them arrive from the INFORMER; Filter, Score and Reserve requests
// arrive from the SCHEDULING CYCLE. Messages from one sender are handled in
// order, so a Reserve is always applied before the next pod's Filter.

#include <caf/all.hpp>

#include "actors/actor_metrics.hpp"
#include "actors/atoms.hpp"
#include "actors/cycle_messages.hpp"
#include "actors/node_partition.hpp"
#include "actors/preemption_messages.hpp"

namespace troupe::actors {

using node_actor = caf::typed_actor<
    // Add or replace a node object.
    caf::reacts_to<atom::upsert_node, NodePtr>,
    // The node object was deleted.
    caf::reacts_to<atom::delete_node, std::string>,
    // A pod is bound to one of our nodes (by us or anyone): account for it.
    caf::reacts_to<atom::pod_bound, PodInfoPtr>,
    // The pod with this uid finished or was deleted: release what it held.
    caf::reacts_to<atom::pod_gone, std::string>,
    // The Device object named after one of our nodes was added or changed.
    caf::reacts_to<atom::upsert_device, DevicePtr>,
    // That Device object was deleted: its devices become unusable.
    caf::reacts_to<atom::delete_device, std::string>,
    // DeviceShare's debug summaries of our nodes (all when the name is empty):
    // a JSON object node name -> NodeDeviceSummary, without the braces.
    caf::replies_to<atom::device_summary, std::string>::with<std::string>,
    // The gpushare extender's unhealthy GPUs of one of our nodes changed
    // (ConfigMap kube-system/unhealthy-gpu-<node>), or were cleared.
    caf::reacts_to<atom::upsert_gpu_health, UnhealthyGpusPtr>,
    caf::reacts_to<atom::delete_gpu_health, std::string>,
    // The NodeResourceTopology named after one of our nodes was added or changed.
    caf::reacts_to<atom::upsert_topology, TopologyPtr>,
    // That NodeResourceTopology was deleted: the node has no CPU topology.
    caf::reacts_to<atom::delete_topology, std::string>,
    // The NodeMetric named after one of our nodes was added or changed (LoadAwareScheduling).
    caf::reacts_to<atom::upsert_node_metric, NodeMetricPtr>,
    // That NodeMetric was deleted: the node's load is unknown.
    caf::reacts_to<atom::delete_node_metric, std::string>,
    // NodeNUMAResource's debug view of a node (true: Koordinator's
    // availableCPUs answer); "" when the node is not ours.
    caf::replies_to<atom::cpu_summary, std::string, bool>::with<std::string>,
    // The gpushare extender's inspect view of one of our nodes, or of every
    // GPU-share node of ours when the name is empty (NodePartition::gpushare_inspection).
    caf::replies_to<atom::gpushare_inspect, std::string>::with<std::string>,
    // A Reservation placed on one of our nodes was added or changed (one
    // that is no longer Available, or moved away, is dropped).
    caf::reacts_to<atom::upsert_reservation, ReservationPtr>,
    // The Reservation with this uid was deleted or left our node.
    caf::reacts_to<atom::delete_reservation, std::string>,
    // The Reservation plugin's debug view of a node (bool: Koordinator's
    // nodeReservations shape); "" when the node is not ours.
    caf::replies_to<atom::reservation_summary, std::string, bool>::with<std::string>,
    // LoadAwareScheduling's debug view of a node, with that profile's plugin; "" when the node is not ours.
    caf::replies_to<atom::load_summary, std::string, FrameworkPtr>::with<std::string>,
    // A cycle's round: which of our nodes fit (with their raw scores), and
    // why the others don't.
    caf::replies_to<atom::filter, CycleRequestPtr>::with<FilterOutcomePtr>,
    // Reserve the pod on one of our nodes (assume + Reserve plugins).
    caf::replies_to<atom::reserve, CycleRequestPtr, std::string>::with<ReserveOutcome>,
    // The API JSON of those of these nodes that are ours (for extenders).
    caf::replies_to<atom::node_objects, NodeNamesPtr>::with<NodeJsonPtr>,
    // The extender endpoint's Filter (and Score, when true) of these nodes.
    caf::replies_to<atom::evaluate, CycleRequestPtr, NodeNamesPtr, bool>::with<EvaluationPtr>,
    // Preemption: this partition's best candidate node and its victims.
    caf::replies_to<atom::evaluate, PreemptionRequestPtr>::with<PartitionPreemptionPtr>,
    // Undo a Reserve (the binding failed).
    caf::reacts_to<atom::unreserve, CycleRequestPtr, std::string>>;

struct node_actor_state {
  NodePartition partition;
  /// The cycle of the last round: the preemption search of that cycle reads
  /// the round's rejections (NodePartition::last_rejections).
  uint64_t round_cycle = 0;
  ActorMetricsHandle actor_metrics;
  static inline const char* name = "node";
};

/// `metrics`: where the node actors' message metrics go (may be null).
node_actor::behavior_type node_actor_fn(node_actor::stateful_pointer<node_actor_state> self,
                                        std::shared_ptr<MetricsRegistry> metrics);

}  // namespace troupe::actors
