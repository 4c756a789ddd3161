#pragma once
// DeviceAmounts: the resources of one device instance (its capacity, what is
// used of it, what is free, or what one pod takes of it) over the eight
// resource names a Koordinator device can carry, held as milli-units in a
// fixed array so that Filter never touches a map or a Quantity.
//
// Koordinator keeps these as corev1.ResourceList and uses quotav1 helpers
// whose behaviour depends on which *keys* are present, not only on values
// (LessThanOrEqual only compares keys both lists have; Equals needs the same
// keys). So every amount also records which names are present.
//
// Amounts are clamped to [0, kMaxMilli] when read from objects: negative or
// absurd quantities in an annotation can then never overflow a sum.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "model/resources.hpp"

namespace troupe::plugins::deviceshare {

enum class DeviceResource : uint8_t {
  gpu_core,
  gpu_memory,
  gpu_memory_ratio,
  npu_core,
  npu_cpu,
  npu_dvpp,
  rdma,
  fpga,
};
inline constexpr size_t kDeviceResourceCount = 8;

/// The Kubernetes resource name ("koordinator.sh/gpu-core", ...).
std::string_view resource_name(DeviceResource resource);
/// The device resource a name stands for; nullopt for any other name.
std::optional<DeviceResource> device_resource_of(std::string_view name);

/// Largest amount held (2^53 milli ≈ 9×10^12 units, e.g. 9 TB of GPU memory):
/// sums of a few hundred clamped amounts stay far inside int64.
inline constexpr int64_t kMaxMilli = int64_t{1} << 53;

class DeviceAmounts {
 public:
  DeviceAmounts() = default;

  bool has(DeviceResource r) const { return (mask_ & bit(r)) != 0; }
  /// 0 when absent.
  int64_t milli(DeviceResource r) const { return milli_[index(r)]; }
  /// Whole units rounded up, as resource.Quantity.Value().
  int64_t value(DeviceResource r) const;
  /// Sets the amount (clamped to [0, kMaxMilli]) and marks the name present.
  void set_milli(DeviceResource r, int64_t milli);
  void set_value(DeviceResource r, int64_t value);
  void erase(DeviceResource r);

  /// Which names are present (bit i = DeviceResource i).
  uint8_t mask() const { return mask_; }
  bool empty() const { return mask_ == 0; }
  /// quotav1.IsZero: every amount is zero (true when empty).
  bool is_zero() const;

  /// Known names only; other names are ignored (no device resource can
  /// request them). Quantities are taken in milli-units, rounded up.
  static DeviceAmounts from_list(const ResourceList& list);
  /// gpu-memory in BinarySI (as Koordinator builds it), the rest DecimalSI.
  ResourceList to_list() const;

  /// quotav1.Add: keys of both, values summed.
  DeviceAmounts& operator+=(const DeviceAmounts& other);
  /// The exact inverse of += for amounts that were added (no clamping needed).
  DeviceAmounts& operator-=(const DeviceAmounts& other);
  /// quotav1.SubtractWithNonNegativeResult(this, other): keys of both,
  /// max(0, this - other); names only `other` has become 0.
  DeviceAmounts subtract_non_negative(const DeviceAmounts& other) const;

  /// quotav1.LessThanOrEqual(this, available): for each name present in both,
  /// this ≤ available. A requested name the device does not list is not checked.
  bool fits_in(const DeviceAmounts& available) const;

  /// quotav1.Equals: the same names with the same amounts.
  friend bool operator==(const DeviceAmounts& a, const DeviceAmounts& b);
  friend bool operator!=(const DeviceAmounts& a, const DeviceAmounts& b) { return !(a == b); }

 private:
  static constexpr size_t index(DeviceResource r) { return static_cast<size_t>(r); }
  static constexpr uint8_t bit(DeviceResource r) { return static_cast<uint8_t>(1u << index(r)); }

  std::array<int64_t, kDeviceResourceCount> milli_{};
  uint8_t mask_ = 0;
};

/// Every device resource, in enum order (for loops).
inline constexpr std::array<DeviceResource, kDeviceResourceCount> kAllDeviceResources = {
    DeviceResource::gpu_core, DeviceResource::gpu_memory, DeviceResource::gpu_memory_ratio,
    DeviceResource::npu_core, DeviceResource::npu_cpu,    DeviceResource::npu_dvpp,
    DeviceResource::rdma,     DeviceResource::fpga,
};

}  // namespace troupe::plugins::deviceshare
