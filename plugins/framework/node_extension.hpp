#pragma once
// NodeExtension: per-node state a plugin keeps beside NodeInfo's resource
// sums (DeviceShare's devices, NodeNUMAResource's CPUs, reservations held on
// the node). NodeInfo owns one per slot and tells each about every pod it
// accounts or forgets, so an extension can rebuild its bookkeeping from the
// pods' annotations alone (a scheduler restart loses nothing).
//
// Reserve plugins change their extension directly (NodeInfo::extension<T>);
// an assumed pod that is later seen bound goes through on_pod_removed (the
// assumed copy) and then on_pod_added (the bound copy, with the annotations
// PreBind wrote), so the two paths must agree.

#include <array>
#include <cstddef>
#include <memory>

#include "model/node.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins {

/// Which plugin's state a slot holds. Fixed slots keep the lookup a single
/// array index on the Filter/Score hot path.
enum class NodeExtensionSlot : size_t {
  kDevices = 0,       // deviceshare::NodeDevices
  kCpus = 1,          // NodeNUMAResource's per-node CPU state
  kReservations = 2,  // reservations held on the node
  kGpuShare = 3,      // gpushare::GpuShareNodeState (aliyun.com/gpu-mem)
  kLoad = 4,          // load_aware::NodeLoadState (NodeMetric, assigned pods)
};
inline constexpr size_t kNodeExtensionSlots = 5;

class NodeExtension {
 public:
  virtual ~NodeExtension() = default;
  /// A pod was accounted on the node (assumed or bound).
  virtual void on_pod_added(const PodInfo& pod) = 0;
  /// The pod accounted by on_pod_added is gone from the node.
  virtual void on_pod_removed(const PodInfo& pod) = 0;
  /// The node object was added, changed or deleted (nullptr).
  virtual void on_node_changed(const Node* node) {}
  /// Holds a node-scoped object besides the pods (a Device, a
  /// NodeResourceTopology): the node's entry must outlive its Node object.
  virtual bool holds_object() const { return false; }
  /// Filter or Score on this node read who the pod is (its name, uid or
  /// owner), not only its scheduling class (scheduling_class.hpp): e.g.
  /// reservations matched against their owners. Such a node's results are
  /// never reused for another pod of the class.
  virtual bool results_depend_on_pod_identity() const { return false; }
  /// A deep copy (NodeInfo is copied for simulations such as preemption).
  virtual std::unique_ptr<NodeExtension> clone() const = 0;
};

}  // namespace troupe::plugins
