#pragma once
// The device types the scheduler allocates (Device spec.devices[].type and the
// keys of the device annotations), and Koordinator's names and constants that
// several files of the plugin share.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace troupe::plugins::deviceshare {

enum class DeviceType : uint8_t { gpu, rdma, fpga };
inline constexpr size_t kDeviceTypeCount = 3;
inline constexpr std::array<DeviceType, kDeviceTypeCount> kAllDeviceTypes = {DeviceType::gpu, DeviceType::rdma,
                                                                             DeviceType::fpga};

/// "gpu", "rdma", "fpga".
std::string_view device_type_name(DeviceType type);
std::optional<DeviceType> device_type_of(std::string_view name);
/// The allocators' verdict when a type's devices do not fit: "Insufficient gpu devices".
std::string insufficient_devices(DeviceType type);
inline constexpr size_t type_index(DeviceType type) { return static_cast<size_t>(type); }

/// Bitmask over minors 0..63 (Koordinator's `1 << minor` hashes).
using MinorMask = uint64_t;
inline constexpr int32_t kMaxMaskedMinor = 63;
inline constexpr MinorMask minor_bit(int32_t minor) {
  return minor >= 0 && minor <= kMaxMaskedMinor ? MinorMask{1} << minor : MinorMask{0};
}

/// At most this many devices of one type per node take part in allocation
/// (Koordinator's bitmask bookkeeping has the same bound in practice).
inline constexpr size_t kMaxDevicesPerType = 64;

// Annotations and labels (apis/extension/device_share.go, constants.go).
inline constexpr std::string_view kAnnotationDeviceAllocated = "scheduling.koordinator.sh/device-allocated";
inline constexpr std::string_view kAnnotationDeviceAllocateHint = "scheduling.koordinator.sh/device-allocate-hint";
inline constexpr std::string_view kAnnotationDeviceJointAllocate = "scheduling.koordinator.sh/device-joint-allocate";
inline constexpr std::string_view kAnnotationGpuPartitionSpec = "scheduling.koordinator.sh/gpu-partition-spec";
inline constexpr std::string_view kAnnotationGpuPartitions = "scheduling.koordinator.sh/gpu-partitions";
inline constexpr std::string_view kAnnotationBindTimestamp = "scheduling.koordinator.sh/bind-timestamp";
inline constexpr std::string_view kAnnotationGpuMinors = "scheduling.koordinator.sh/gpu-minors";
inline constexpr std::string_view kLabelGpuPartitionPolicy = "node.koordinator.sh/gpu-partition-policy";
inline constexpr std::string_view kLabelGpuVendor = "node.koordinator.sh/gpu-vendor";
inline constexpr std::string_view kLabelGpuModel = "node.koordinator.sh/gpu-model";
inline constexpr std::string_view kLabelSecondaryDeviceWellPlanned = "node.koordinator.sh/secondary-device-well-planned";
inline constexpr std::string_view kLabelGpuIsolationProvider = "koordinator.sh/gpu-isolation-provider";
inline constexpr std::string_view kLabelHamiVgpuNode = "hami.io/vgpu-node";
inline constexpr std::string_view kGpuIsolationProviderHamiCore = "HAMi-core";
inline constexpr std::string_view kGpuPartitionPolicyHonor = "Honor";
inline constexpr std::string_view kGpuVendorNvidia = "nvidia";
inline constexpr std::string_view kGpuVendorHuawei = "huawei";
// Huawei device plugin adaption (device_plugin_adapter.go).
inline constexpr std::string_view kAnnotationPredicateTime = "predicate-time";
inline constexpr std::string_view kAnnotationHuaweiNpuCore = "huawei.com/npu-core";

/// Label keys read on the Filter path, as std::string: Labels is a std::map
/// keyed by std::string, so a string_view key would build a temporary per lookup.
struct LabelKeys {
  std::string gpu_vendor{kLabelGpuVendor};
  std::string gpu_model{kLabelGpuModel};
  std::string gpu_partition_policy{kLabelGpuPartitionPolicy};
  std::string gpu_isolation_provider{kLabelGpuIsolationProvider};
};
const LabelKeys& label_keys();

}  // namespace troupe::plugins::deviceshare
