#pragma once
// Resource names used across troupe (Kubernetes core, GPU vendors, Koordinator,
// the Aliyun gpushare extender), and kube-scheduler's rules for classifying a
// name as native, extended, hugepages or scalar.

#include <array>
#include <string_view>

namespace troupe::resource_names {

// Kubernetes core (k8s.io/api/core/v1).
inline constexpr std::string_view kCpu = "cpu";
inline constexpr std::string_view kMemory = "memory";
inline constexpr std::string_view kPods = "pods";
inline constexpr std::string_view kEphemeralStorage = "ephemeral-storage";
inline constexpr std::string_view kStorage = "storage";
inline constexpr std::string_view kHugePagesPrefix = "hugepages-";
inline constexpr std::string_view kAttachableVolumesPrefix = "attachable-volumes-";
/// Names containing this are native even though they have a '/'.
inline constexpr std::string_view kDefaultNamespacePrefix = "kubernetes.io/";
/// ResourceQuota's spelling ("requests.cpu"); never an extended resource.
inline constexpr std::string_view kRequestsPrefix = "requests.";

// Whole-device counts from vendor device plugins.
inline constexpr std::string_view kNvidiaGpu = "nvidia.com/gpu";
inline constexpr std::string_view kAmdGpu = "amd.com/gpu";
inline constexpr std::string_view kHygonDcu = "dcu.com/gpu";

// Koordinator device resources (apis/extension/device_share.go). GPU, RDMA and
// FPGA amounts are percentages of a device (100 = one device), except
// gpu-memory (bytes) and gpu.shared (number of cards a shared request spans).
inline constexpr std::string_view kKoordGpu = "koordinator.sh/gpu";
inline constexpr std::string_view kGpuShared = "koordinator.sh/gpu.shared";  // a dot, not a dash
inline constexpr std::string_view kGpuCore = "koordinator.sh/gpu-core";
inline constexpr std::string_view kGpuMemory = "koordinator.sh/gpu-memory";
inline constexpr std::string_view kGpuMemoryRatio = "koordinator.sh/gpu-memory-ratio";
inline constexpr std::string_view kHuaweiNpuCore = "huawei.com/npu-core";
inline constexpr std::string_view kHuaweiNpuCpu = "huawei.com/npu-cpu";
inline constexpr std::string_view kHuaweiNpuDvpp = "huawei.com/npu-dvpp";
inline constexpr std::string_view kRdma = "koordinator.sh/rdma";
inline constexpr std::string_view kFpga = "koordinator.sh/fpga";

// Koordinator colocation resources (apis/extension/resource.go).
inline constexpr std::string_view kBatchCpu = "kubernetes.io/batch-cpu";
inline constexpr std::string_view kBatchMemory = "kubernetes.io/batch-memory";
inline constexpr std::string_view kMidCpu = "kubernetes.io/mid-cpu";
inline constexpr std::string_view kMidMemory = "kubernetes.io/mid-memory";

// Aliyun gpushare-scheduler-extender.
inline constexpr std::string_view kAliyunGpuMem = "aliyun.com/gpu-mem";
inline constexpr std::string_view kAliyunGpuCount = "aliyun.com/gpu-count";

/// The names each Koordinator device type answers for
/// (deviceshare/utils.go DeviceResourceNames), in its flag order.
inline constexpr std::array<std::string_view, 11> kGpuDeviceResources = {
    kNvidiaGpu,  kAmdGpu,         kHygonDcu,      kKoordGpu,     kGpuShared,     kGpuCore,
    kGpuMemory,  kGpuMemoryRatio, kHuaweiNpuCore, kHuaweiNpuCpu, kHuaweiNpuDvpp,
};
inline constexpr std::array<std::string_view, 1> kRdmaDeviceResources = {kRdma};
inline constexpr std::array<std::string_view, 1> kFpgaDeviceResources = {kFpga};

// kube-scheduler's classification (pkg/apis/core/v1/helper/helpers.go).

/// No '/', or in the kubernetes.io/ namespace (anywhere in the name, as
/// Kubernetes checks with strings.Contains).
bool is_native_resource(std::string_view name);
/// Contains "kubernetes.io/" (e.g. kubernetes.io/batch-cpu).
bool is_prefixed_native_resource(std::string_view name);
/// Not native, not "requests."-prefixed, and "requests." + name is a valid
/// qualified name (DNS-subdomain prefix, 1-63 character name part).
bool is_extended_resource_name(std::string_view name);
bool is_hugepages_resource_name(std::string_view name);
bool is_attachable_volume_resource_name(std::string_view name);
/// What the scheduler tracks in Resource.ScalarResources: extended,
/// hugepages, prefixed native and attachable-volume names.
bool is_scalar_resource_name(std::string_view name);
/// Kubernetes' IsQualifiedName: [prefix/]name.
bool is_qualified_name(std::string_view text);

}  // namespace troupe::resource_names
