#include "plugins/deviceshare/device_amounts.hpp"

#include <algorithm>

#include "model/resource_names.hpp"

namespace troupe::plugins::deviceshare {

namespace rn = resource_names;

namespace {

constexpr std::array<std::string_view, kDeviceResourceCount> kNames = {
    rn::kGpuCore,       rn::kGpuMemory,     rn::kGpuMemoryRatio, rn::kHuaweiNpuCore,
    rn::kHuaweiNpuCpu,  rn::kHuaweiNpuDvpp, rn::kRdma,           rn::kFpga,
};

int64_t clamp_milli(int64_t milli) { return std::clamp<int64_t>(milli, 0, kMaxMilli); }

}  // namespace

std::string_view resource_name(DeviceResource resource) { return kNames[static_cast<size_t>(resource)]; }

std::optional<DeviceResource> device_resource_of(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<DeviceResource>(i);
  return std::nullopt;
}

int64_t DeviceAmounts::value(DeviceResource r) const {
  const int64_t m = milli_[index(r)];
  return m / 1000 + (m % 1000 != 0 ? 1 : 0);
}

void DeviceAmounts::set_milli(DeviceResource r, int64_t milli) {
  milli_[index(r)] = clamp_milli(milli);
  mask_ |= bit(r);
}

void DeviceAmounts::set_value(DeviceResource r, int64_t value) {
  const int64_t limit = kMaxMilli / 1000;
  set_milli(r, std::clamp<int64_t>(value, 0, limit) * 1000);
}

void DeviceAmounts::erase(DeviceResource r) {
  milli_[index(r)] = 0;
  mask_ &= static_cast<uint8_t>(~bit(r));
}

bool DeviceAmounts::is_zero() const {
  return std::all_of(milli_.begin(), milli_.end(), [](int64_t m) { return m == 0; });
}

DeviceAmounts DeviceAmounts::from_list(const ResourceList& list) {
  DeviceAmounts out;
  for (const auto& [name, quantity] : list) {
    if (auto r = device_resource_of(name)) out.set_milli(*r, quantity.milli_value());
  }
  return out;
}

ResourceList DeviceAmounts::to_list() const {
  ResourceList out;
  for (DeviceResource r : kAllDeviceResources) {
    if (!has(r)) continue;
    const auto format = r == DeviceResource::gpu_memory ? Quantity::Format::binary_si : Quantity::Format::decimal_si;
    const int64_t m = milli(r);
    out.emplace(std::string(resource_name(r)),
                m % 1000 == 0 ? Quantity::from_value(m / 1000, format) : Quantity::from_milli(m, format));
  }
  return out;
}

DeviceAmounts& DeviceAmounts::operator+=(const DeviceAmounts& other) {
  for (size_t i = 0; i < kDeviceResourceCount; ++i) milli_[i] += other.milli_[i];
  mask_ |= other.mask_;
  return *this;
}

DeviceAmounts& DeviceAmounts::operator-=(const DeviceAmounts& other) {
  for (size_t i = 0; i < kDeviceResourceCount; ++i) milli_[i] -= other.milli_[i];
  return *this;
}

DeviceAmounts DeviceAmounts::subtract_non_negative(const DeviceAmounts& other) const {
  DeviceAmounts out;
  out.mask_ = mask_ | other.mask_;
  for (size_t i = 0; i < kDeviceResourceCount; ++i) {
    const uint8_t b = static_cast<uint8_t>(1u << i);
    out.milli_[i] = (mask_ & b) != 0 ? std::max<int64_t>(0, milli_[i] - other.milli_[i]) : 0;
  }
  return out;
}

bool DeviceAmounts::fits_in(const DeviceAmounts& available) const {
  const uint8_t common = mask_ & available.mask_;
  for (size_t i = 0; i < kDeviceResourceCount; ++i) {
    if ((common & (1u << i)) != 0 && milli_[i] > available.milli_[i]) return false;
  }
  return true;
}

bool operator==(const DeviceAmounts& a, const DeviceAmounts& b) {
  if (a.mask_ != b.mask_) return false;
  for (size_t i = 0; i < kDeviceResourceCount; ++i)
    if (a.milli_[i] != b.milli_[i]) return false;
  return true;
}

}  // namespace troupe::plugins::deviceshare
