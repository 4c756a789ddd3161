#pragma once
// What DeviceShare's PreFilter works out once per pod (utils.go preparePod):
// the normalised requests per device type, the pod's hints, the joint
// allocation spec and the GPU requirements (card count, per-card request,
// shared or not, partition spec, required topology scope). Filter, Score,
// Reserve and the NUMA hints only read it.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "model/pod.hpp"
#include "plugins/deviceshare/device_hints.hpp"
#include "plugins/deviceshare/device_requests.hpp"
#include "plugins/framework/status.hpp"

namespace troupe::plugins::deviceshare {

struct GpuRequirements {
  int64_t count = 1;
  ResourceList per_gpu;
  DeviceAmounts per_gpu_amounts;
  bool shared = false;
  /// The pod has a gpu-partition-spec annotation (it honours partitions).
  bool honor_partition = false;
  bool restricted_partition = false;
  std::optional<Quantity> ring_bus_bandwidth;
  std::string required_topology_scope;
  int required_topology_level = 0;
};

struct DeviceShareRequest {
  PodDeviceRequests requests;
  DeviceHints hints;
  /// Some hint has a device selector.
  bool has_selectors = false;
  /// The device-joint-allocate annotation was present; `joint_types` are its
  /// types narrowed to those requested without ApplyForAll (the first is primary).
  bool joint_present = false;
  std::vector<DeviceType> joint_types;
  bool joint_same_pcie = false;
  std::optional<GpuRequirements> gpu;
  /// A whole-GPU pod: secondary devices on a node labelled well-planned are
  /// only allocated at Reserve.
  bool fits_secondary_well_planned = false;
  /// The pod's koordinator.sh/gpu-isolation-provider label ("" when absent).
  std::string isolation_provider;

  bool skip() const { return requests.empty(); }
  const DeviceHint* hint(DeviceType type) const {
    const auto& h = hints[type_index(type)];
    return h ? &*h : nullptr;
  }
  std::optional<DeviceType> primary() const {
    return joint_types.empty() ? std::nullopt : std::optional<DeviceType>(joint_types.front());
  }
};

/// Resource names whose shared GPU requests must match a configured template
/// (gpuSharedResourceTemplatesConfig.matchedResources; default huawei.com/npu-core).
struct TemplatePolicy {
  std::vector<std::string> matched_resources = {"huawei.com/npu-core"};
};

/// preparePod: success (request filled), skip (no device request), or
/// UnschedulableAndUnresolvable with Koordinator's message.
PluginStatus prepare_device_share_request(const Pod& pod, const TemplatePolicy& templates, DeviceShareRequest& out);

/// Same, from effective requests already computed (tests, benchmarks).
PluginStatus prepare_device_share_request(const Pod& pod, const ResourceList& pod_requests,
                                          const TemplatePolicy& templates, DeviceShareRequest& out);

}  // namespace troupe::plugins::deviceshare
