#include "plugins/deviceshare/device_slot.hpp"

namespace troupe::plugins::deviceshare {

DeviceSlot::DeviceSlot(const DeviceSlotInfo* device, bool capacity_counted)
    : info(device), minor(device->minor), capacity_counted_(capacity_counted) {
  refresh();
}

DeviceSlot DeviceSlot::phantom(int32_t minor) {
  DeviceSlot slot;
  slot.minor = minor;
  return slot;
}

DeviceSlot::DeviceSlot(const DeviceSlot& other)
    : info(other.info),
      minor(other.minor),
      id_at_(other.id_at_),
      use_(other.use_ ? std::make_unique<Use>(*other.use_) : nullptr),
      id_size_(other.id_size_),
      capacity_counted_(other.capacity_counted_),
      has_capacity_(other.has_capacity_),
      has_free_(other.has_free_),
      has_view_free_(other.has_view_free_) {}

DeviceSlot& DeviceSlot::operator=(const DeviceSlot& other) {
  if (this != &other) *this = DeviceSlot(other);
  return *this;
}

const DeviceAmounts& DeviceSlot::none() {
  static const DeviceAmounts kNone;
  return kNone;
}

const std::vector<DeviceVf>& DeviceSlot::vfs() const {
  static const std::vector<DeviceVf> kNone;
  return info != nullptr ? info->vfs : kNone;
}

const std::array<uint32_t, kDeviceResourceCount>& DeviceSlot::used_refs() const {
  static const std::array<uint32_t, kDeviceResourceCount> kNone{};
  return use_ ? use_->used_refs : kNone;
}

const VfHolders& DeviceSlot::used_vfs() const {
  static const VfHolders kNone;
  return use_ ? use_->used_vfs : kNone;
}

void DeviceSlot::set_capacity_counted(bool counted) {
  capacity_counted_ = counted && info != nullptr;
  refresh();
}

void DeviceSlot::add(const DeviceAmounts& amounts, const std::vector<std::string>& vf_bus_ids) {
  if (!use_) use_ = std::make_unique<Use>();
  use_->used += amounts;
  ++use_->allocations;
  for (DeviceResource r : kAllDeviceResources)
    if (amounts.has(r)) ++use_->used_refs[static_cast<size_t>(r)];
  for (const auto& bus : vf_bus_ids) ++use_->used_vfs[bus];
  refresh();
}

void DeviceSlot::remove(const DeviceAmounts& amounts, const std::vector<std::string>& vf_bus_ids) {
  if (!use_) return;
  use_->used -= amounts;
  --use_->allocations;
  for (DeviceResource r : kAllDeviceResources)
    if (amounts.has(r) && --use_->used_refs[static_cast<size_t>(r)] == 0) use_->used.erase(r);
  for (const auto& bus : vf_bus_ids) {
    auto it = use_->used_vfs.find(bus);
    if (it != use_->used_vfs.end() && --it->second == 0) use_->used_vfs.erase(it);
  }
  // With the last allocation gone every name's count is 0, so `used` is
  // empty and the VFs free: the idle state, which needs no record.
  if (use_->allocations == 0) use_.reset();
  refresh();
}

void DeviceSlot::take_use(DeviceSlot& old) {
  use_ = std::move(old.use_);
  refresh();
  old.refresh();
}

void DeviceSlot::refresh() {
  has_capacity_ = !total().is_zero();
  if (use_) {
    Use& u = *use_;
    u.free = total().subtract_non_negative(u.used);
    // Koordinator's filtered view keeps a device's "used" only where it is
    // non-zero against the capacity; without it, free is the capacity as is.
    const DeviceAmounts view_used = total().subtract_non_negative(u.free);
    bool used_against_total = false;
    for (DeviceResource r : kAllDeviceResources)
      if (total().has(r) && view_used.milli(r) > 0) used_against_total = true;
    u.view_free = used_against_total ? u.free : total();
    u.view_used = used_against_total;
  }
  has_free_ = !free().is_zero();
  has_view_free_ = !view_free().is_zero();
}

}  // namespace troupe::plugins::deviceshare
