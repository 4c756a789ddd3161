#pragma once
// AliyunGPUShare: the placement of Alibaba's gpushare-scheduler-extender as an
// in-process plugin, for pods that ask for `aliyun.com/gpu-mem` (limits).
//
//   PreFilter  the pod's demand (Σ app containers' limits); Skip without one.
//   Filter     some healthy GPU of the node has free memory ≥ the demand
//              ("Insufficient GPU Memory in one device"; a node without
//              aliyun.com/gpu-mem: "The node <n> is not for GPU share, need skip").
//   Reserve    binpack: the GPU with the least free memory that fits, lowest
//              index on ties; accounted on the node at once.
//   PreBind    ALIYUN_COM_GPU_MEM_IDX / _DEV / _POD / _ASSIGNED=false /
//              _ASSUME_TIME ride on the Binding.
//
// The kube-system/unhealthy-gpu-<node> ConfigMaps mark GPUs no pod may take
// (actors/gpu_health.hpp). Not supported: the env-var variant of the
// annotations.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/framework/plugin.hpp"

namespace troupe::plugins::gpushare {

struct GpuShareState {
  int64_t request = 0;
  /// Set by Reserve: the annotations of the chosen GPU.
  std::map<std::string, std::string> annotations;
};

class AliyunGpuShare final : public PreFilterPlugin,
                             public FilterPlugin,
                             public ReservePlugin,
                             public PreBindPlugin,
                             public EnqueueExtensions {
 public:
  static constexpr const char* kName = "AliyunGPUShare";
  using Clock = std::function<int64_t()>;  // unix nanoseconds

  explicit AliyunGpuShare(Clock clock = {});
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);

  std::string_view name() const override { return kName; }
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  PluginStatus reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const override;
  void unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const override;
  PluginStatus pre_bind(CycleState& state, const PodInfo& pod, const std::string& node_name,
                        BindingChanges& changes) const override;
  std::vector<ClusterEvent> events_to_register() const override;

 private:
  Clock clock_;
};

}  // namespace troupe::plugins::gpushare
