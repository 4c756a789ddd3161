#pragma once
// Compatibility with Alibaba's gpushare-scheduler-extender
// (AliyunContainerService/gpushare-scheduler-extender, pkg/cache, pkg/utils):
// pods asking for `aliyun.com/gpu-mem` get one GPU with enough free memory.
//
//   node capacity   aliyun.com/gpu-mem (all GPUs' memory, in the device
//                   plugin's unit) and aliyun.com/gpu-count; each GPU has
//                   gpu-mem / gpu-count (integer division)
//   pod demand      Σ app containers' *limits* of aliyun.com/gpu-mem
//   filter          "The node <n> is not for GPU share, need skip" without
//                   gpu-mem capacity; "Insufficient GPU Memory in one device"
//                   when no healthy GPU has free ≥ demand
//   bind            binpack: the healthy GPU with the least free memory that
//                   fits (lowest index on ties); annotations
//                   ALIYUN_COM_GPU_MEM_IDX / _DEV / _POD / _ASSIGNED=false / _ASSUME_TIME
//   accounting      a pod uses _POD memory on GPU _IDX while not Succeeded/Failed
//
// One deviation: a GPU whose accounted pods exceed its memory has 0 free here
// (the extender's unsigned arithmetic wraps around and calls it nearly empty).
// The HTTP extender endpoint lives elsewhere; these are its pure parts.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/node.hpp"
#include "model/pod.hpp"
#include "model/result.hpp"

namespace troupe::plugins::deviceshare {

inline constexpr std::string_view kGpuShareIndex = "ALIYUN_COM_GPU_MEM_IDX";
inline constexpr std::string_view kGpuShareDeviceMemory = "ALIYUN_COM_GPU_MEM_DEV";
inline constexpr std::string_view kGpuSharePodMemory = "ALIYUN_COM_GPU_MEM_POD";
inline constexpr std::string_view kGpuShareAssigned = "ALIYUN_COM_GPU_MEM_ASSIGNED";
inline constexpr std::string_view kGpuShareAssumeTime = "ALIYUN_COM_GPU_MEM_ASSUME_TIME";

/// Σ of the app containers' aliyun.com/gpu-mem limits (whole units).
int64_t gpushare_pod_request(const PodSpec& spec);

struct GpuShareDevice {
  int index = 0;
  int64_t total = 0;
  int64_t used = 0;  // by pods not Succeeded/Failed
  bool healthy = true;

  int64_t free() const { return used >= total ? 0 : total - used; }
};

class GpuShareNode {
 public:
  GpuShareNode() = default;
  explicit GpuShareNode(const Node& node) { set_node(node); }

  /// Reads the node's capacity; the pods stay accounted.
  void set_node(const Node& node);
  /// GPU indices listed unhealthy (ConfigMap kube-system/unhealthy-gpu-<node>, key gpus).
  void set_unhealthy(std::set<int> indices);
  bool has_unhealthy() const { return !unhealthy_.empty(); }
  /// The ConfigMap value "0,2" (entries that are not integers are skipped).
  static std::set<int> parse_unhealthy(std::string_view gpus);

  /// Accounts the pod on the GPU its annotations name (pods without a valid
  /// index are not accounted). One naming a GPU the node does not list (yet:
  /// a pod can arrive before its Node) is kept and counts once it does.
  void on_pod_added(const Pod& pod);
  void on_pod_removed(const Pod& pod);

  /// The GPU the pod is accounted on while it is not Succeeded/Failed
  /// (matched by uid, else namespace/name); nullopt otherwise.
  std::optional<int> accounted_device(const Pod& pod) const;

  const std::string& name() const { return name_; }
  bool is_gpushare_node() const { return total_memory_ > 0; }
  int64_t total_memory() const { return total_memory_; }
  int64_t gpu_count() const { return gpu_count_; }
  /// Per-GPU state, usage recomputed from the accounted pods (but the pod
  /// accounted under `without`, when given).
  std::vector<GpuShareDevice> devices(std::string_view without = {}) const;

  /// The extender's filter for a pod demanding `request`.
  Status filter(int64_t request) const;
  /// The binpack choice; nullopt when nothing fits (or the request is 0).
  std::optional<int> choose_device(int64_t request, std::string_view without = {}) const;
  /// The bind: the chosen GPU and the annotations to write, or
  /// "The node <n> can't place the pod <name> in ns <namespace>". Leftover
  /// annotations on the pod itself (an earlier Binding that failed, a pod
  /// re-created from its YAML) do not count against it.
  Result<std::map<std::string, std::string>> bind(const Pod& pod, int64_t now_unix_nanos) const;

 private:
  struct Accounted {
    int index = -1;
    int64_t memory = 0;
    bool completed = false;
  };

  std::string name_;
  int64_t total_memory_ = 0;
  int64_t gpu_count_ = 0;
  std::set<int> unhealthy_;
  std::map<std::string, Accounted> pods_;  // by uid (namespace/name without one)
};

}  // namespace troupe::plugins::deviceshare
