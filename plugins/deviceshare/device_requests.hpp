#pragma once
// Koordinator's request normalisation (deviceshare/utils.go
// GetPodDeviceRequests + ValidateDeviceRequest + ConvertDeviceRequest) and
// the per-card GPU split (devicehandler_gpu.go calcDesiredRequestsAndCountForGPU).
//
// A pod's effective requests (zero entries dropped) are masked per device
// type; the names present form a combination that must be in Koordinator's
// table and pass its check, and is then mapped to the normalised request:
//   nvidia.com/gpu N     -> gpu-core N×100, gpu-memory-ratio N×100
//   koordinator.sh/gpu X -> gpu-core X, gpu-memory-ratio X
//   the rest pass through (gpu-memory alone consumes no gpu-core).
// Errors carry Koordinator's exact messages ("invalid resource unit <name>:
// <quantity>", "invalid resource device requests: [<names>]"); the names of
// the second are sorted here (Go prints them in map order).

#include <array>
#include <optional>
#include <string>

#include "model/pod.hpp"
#include "model/resources.hpp"
#include "model/result.hpp"
#include "plugins/deviceshare/device_amounts.hpp"
#include "plugins/deviceshare/device_types.hpp"

namespace troupe::plugins::deviceshare {

/// The normalised request of one device type.
struct TypeRequest {
  ResourceList resources;  // as ConvertDeviceRequest returns it (quantities kept as written)
  DeviceAmounts amounts;   // the same, as amounts
};

struct PodDeviceRequests {
  std::array<std::optional<TypeRequest>, kDeviceTypeCount> by_type;

  bool empty() const;
  const TypeRequest* get(DeviceType type) const {
    const auto& r = by_type[type_index(type)];
    return r ? &*r : nullptr;
  }
};

/// From a pod's effective requests (pod_requests(spec)); deprecated
/// kubernetes.io/gpu-core-style names are read as their koordinator.sh/ names.
Result<PodDeviceRequests> device_requests_from(const ResourceList& pod_requests);
/// pod_requests(spec) then device_requests_from.
Result<PodDeviceRequests> get_pod_device_requests(const PodSpec& spec);

/// ValidatePercentageResource: at most 100, or a multiple of 100 (by Value()).
bool is_percentage_amount(const Quantity& q);

/// How a GPU request spreads over cards.
struct GpuPerCard {
  int64_t count = 1;       // cards wanted
  ResourceList per_gpu;    // what each card gives (NewQuantity per name)
  DeviceAmounts amounts;   // the same, as amounts
  bool shared = false;     // a card is shared with other pods
};

/// count = gpu.shared if > 0, else ratio/100 when ratio > 100 and a multiple
/// of 100, else 1; each name divided by count; a ratio below 100 per card or
/// any gpu-memory request (without ratio) makes the request shared.
GpuPerCard split_gpu_request(const ResourceList& gpu_request);

/// apis/extension/resource.go: kubernetes.io/{gpu,gpu-core,gpu-memory,
/// gpu-memory-ratio,rdma,fpga} became koordinator.sh/...; other names unchanged.
std::string_view canonical_device_resource_name(std::string_view name);

}  // namespace troupe::plugins::deviceshare
