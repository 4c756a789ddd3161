#pragma once
// NodeInfo: one node and the pods accounted on it (kube-scheduler's
// framework.NodeInfo). A node actor owns the NodeInfos of its partition and
// changes them only on watch events and at Reserve/Unreserve; Filter and Score
// read them through const references. remove_pod is the exact inverse of
// add_pod: it subtracts what was added, from the PodInfo stored at add time.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/node.hpp"
#include "plugins/framework/host_ports.hpp"
#include "plugins/framework/node_extension.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/framework/resource_vector.hpp"

namespace troupe::plugins {

class NodeInfo {
 public:
  NodeInfo() = default;
  explicit NodeInfo(std::shared_ptr<const Node> node) { set_node(std::move(node)); }
  /// Copies deep-copy the extensions.
  NodeInfo(const NodeInfo& other);
  NodeInfo& operator=(const NodeInfo& other);
  NodeInfo(NodeInfo&&) noexcept = default;
  NodeInfo& operator=(NodeInfo&&) noexcept = default;

  /// Replaces the node object (a watch update); the pods stay accounted.
  void set_node(std::shared_ptr<const Node> node);
  /// nullptr until the node is known (pods may arrive before their node).
  const Node* node() const { return node_.get(); }
  const std::shared_ptr<const Node>& node_ptr() const { return node_; }
  const std::string& name() const;

  const ResourceVector& allocatable() const { return allocatable_; }
  /// Sum of the pods' requests.
  const ResourceVector& requested() const { return requested_; }
  /// Sum of the pods' non-zero cpu and memory (other fields stay 0, as upstream).
  const ResourceVector& non_zero_requested() const { return non_zero_requested_; }
  size_t pod_count() const { return pods_.size(); }
  const HostPortUsage& used_ports() const { return used_ports_; }
  const std::vector<std::shared_ptr<const PodInfo>>& pods() const { return pods_; }
  /// The lowest priority of the pods here (INT32_MAX when none): a preemptor
  /// of this priority or lower finds no victim without looking at each pod.
  int32_t lowest_pod_priority() const { return lowest_pod_priority_; }
  /// Bumped on every change, so a cached decision can tell it is stale.
  uint64_t generation() const { return generation_; }

  /// Accounts a pod (assumed or bound). False, and no change, when a pod
  /// with the same uid is already accounted.
  bool add_pod(std::shared_ptr<const PodInfo> pod);
  /// Undoes add_pod for the pod with this uid; false when it is not here.
  bool remove_pod(std::string_view uid);
  bool has_pod(std::string_view uid) const { return find_pod(uid) != nullptr; }
  /// The pod with this uid as accounted here; nullptr when it is not here.
  const PodInfo* find_pod(std::string_view uid) const;

  /// Some extension holds a node-scoped object (NodeExtension::holds_object).
  bool extensions_hold_objects() const;
  /// Some extension makes Filter/Score read the pod's identity here
  /// (NodeExtension::results_depend_on_pod_identity). Asked per node per
  /// pod, so the answer is kept until the generation changes (every change
  /// to an extension bumps it).
  bool results_depend_on_pod_identity() const {
    return identity_checked_at_ == generation_ ? identity_dependent_ : ask_extensions_about_identity();
  }
  /// Installs a plugin's per-node state; it is told about the pods already here.
  void set_extension(NodeExtensionSlot slot, std::unique_ptr<NodeExtension> extension);
  /// The extension in the slot, as the type that slot holds; nullptr when absent.
  template <class T>
  const T* extension(NodeExtensionSlot slot) const {
    return static_cast<const T*>(extensions_[static_cast<size_t>(slot)].get());
  }
  /// Mutable access for Reserve/Unreserve and for node-scoped objects
  /// (Device, NodeResourceTopology); bumps the generation.
  template <class T>
  T* mutable_extension(NodeExtensionSlot slot) {
    ++generation_;
    return static_cast<T*>(extensions_[static_cast<size_t>(slot)].get());
  }

 private:
  std::shared_ptr<const Node> node_;
  ResourceVector allocatable_;
  ResourceVector requested_;
  ResourceVector non_zero_requested_;
  HostPortUsage used_ports_;
  std::vector<std::shared_ptr<const PodInfo>> pods_;
  std::array<std::unique_ptr<NodeExtension>, kNodeExtensionSlots> extensions_;
  uint64_t generation_ = 0;
  int32_t lowest_pod_priority_ = INT32_MAX;
  bool ask_extensions_about_identity() const;
  // results_depend_on_pod_identity() as of generation identity_checked_at_.
  mutable uint64_t identity_checked_at_ = UINT64_MAX;
  mutable bool identity_dependent_ = false;
};

/// The identity NodeInfo keys pods by: the uid, or "namespace/name" when a
/// pod has no uid (objects built in tests).
std::string_view pod_identity(const PodInfo& pod);

}  // namespace troupe::plugins
