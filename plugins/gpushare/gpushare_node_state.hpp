#pragma once
// GpuShareNodeState: one node's GPUs as Alibaba's gpushare-scheduler-extender
// sees them (aliyun.com/gpu-mem), kept as NodeInfo's extension in slot
// kGpuShare. The node's capacity comes from the node object; the usage from
// the ALIYUN_COM_GPU_MEM_* annotations of the pods on it, so the accounting
// survives restarts and covers pods placed by a stock kube-scheduler with the
// extender.

#include <memory>
#include <set>
#include <string>

#include "plugins/deviceshare/gpushare_extender.hpp"
#include "plugins/framework/node_extension.hpp"

namespace troupe::plugins::gpushare {

/// The GPUs of one node that gpushare-scheduler-extender's ConfigMap
/// kube-system/unhealthy-gpu-<node> lists (key `gpus`, "0,2"): no pod is
/// placed on them (actors/gpu_health.hpp reads the ConfigMaps).
struct UnhealthyGpus {
  std::string node_name;
  std::set<int> indices;
};

class GpuShareNodeState final : public NodeExtension {
 public:
  void on_pod_added(const PodInfo& pod) override { gpus_.on_pod_added(*pod.pod); }
  void on_pod_removed(const PodInfo& pod) override { gpus_.on_pod_removed(*pod.pod); }
  void on_node_changed(const Node* node) override;
  std::unique_ptr<NodeExtension> clone() const override { return std::make_unique<GpuShareNodeState>(*this); }

  const deviceshare::GpuShareNode& gpus() const { return gpus_; }
  /// Accounts a pod placed by Reserve, whose annotations are not on its object yet.
  void account(const Pod& annotated_pod) { gpus_.on_pod_added(annotated_pod); }
  void forget(const Pod& pod) { gpus_.on_pod_removed(pod); }
  /// The GPUs listed unhealthy now (empty: every GPU is usable).
  void set_unhealthy(std::set<int> indices) { gpus_.set_unhealthy(std::move(indices)); }
  /// A health list outlives the Node object, as a Device does.
  bool holds_object() const override { return gpus_.has_unhealthy(); }

 private:
  deviceshare::GpuShareNode gpus_;
};

}  // namespace troupe::plugins::gpushare
