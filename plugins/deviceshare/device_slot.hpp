#pragma once
// DeviceSlot: one device instance on a node, as the allocator reads it:
// its capacity, what the pods accounted on the node use of it, what is free,
// and which of its virtual functions are taken.
//
// Kept small because every node has one per device (a synthetic benchmark
// node has ten): the static part (capacity, labels, placement, VFs) is the
// node's shared DeviceLayout entry, and what pods use (amounts, VF holders)
// lives in a record allocated while the device has accounted allocations.
// An idle device's free and view-free amounts are its capacity.

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "plugins/deviceshare/device_amounts.hpp"
#include "plugins/deviceshare/device_layout.hpp"

namespace troupe::plugins::deviceshare {

/// Bus id -> number of accounted allocations holding the VF.
using VfHolders = std::map<std::string, uint32_t, std::less<>>;

class DeviceSlot {
 public:
  DeviceSlot() = default;
  /// A device of the layout; its capacity counts when `capacity_counted`
  /// (the Device is present and the device healthy).
  DeviceSlot(const DeviceSlotInfo* info, bool capacity_counted);
  /// A minor only pods' allocations mention (its device is not in the Device).
  static DeviceSlot phantom(int32_t minor);
  DeviceSlot(const DeviceSlot& other);
  DeviceSlot& operator=(const DeviceSlot& other);
  DeviceSlot(DeviceSlot&&) noexcept = default;
  DeviceSlot& operator=(DeviceSlot&&) noexcept = default;

  /// The Device's entry (in the shared layout); nullptr for a phantom minor.
  const DeviceSlotInfo* info = nullptr;
  int32_t minor = 0;

  /// Capacity: the device's resources when healthy and present, empty otherwise.
  const DeviceAmounts& total() const { return capacity_counted_ ? info->capacity : none(); }
  /// Σ of the accounted allocations on this device.
  const DeviceAmounts& used() const { return use_ ? use_->used : none(); }
  /// total − used, never negative, with the names of both (deviceFree).
  const DeviceAmounts& free() const { return use_ ? use_->free : total(); }
  /// What the allocator sees as free (the free of Koordinator's filtered
  /// view, which differs from `free` only in which zero names are present).
  const DeviceAmounts& view_free() const { return use_ ? use_->view_free : total(); }
  /// Some capacity of this device is in use (the view's non-zero "used").
  bool view_used() const { return use_ != nullptr && use_->view_used; }
  /// Summaries of the amounts above, kept with them (the allocator asks for
  /// every device of every node it filters).
  bool has_capacity() const { return has_capacity_; }    // !total().is_zero(): healthy and present
  bool has_free() const { return has_free_; }            // !free().is_zero()
  bool has_view_free() const { return has_view_free_; }  // !view_free().is_zero()
  bool healthy() const { return has_capacity_; }
  /// Number of accounted allocations on this device.
  uint32_t allocations() const { return use_ ? use_->allocations : 0; }
  /// Per resource name, how many of them name it (so removal restores which names used() has).
  const std::array<uint32_t, kDeviceResourceCount>& used_refs() const;

  /// VFs of all groups, by ascending bus id (none for a phantom minor).
  const std::vector<DeviceVf>& vfs() const;
  const VfHolders& used_vfs() const;
  bool vf_taken(std::string_view bus_id) const { return use_ != nullptr && use_->used_vfs.count(bus_id) != 0; }

  /// Sets whether the capacity counts (false once the Device is deleted, true when it comes back).
  void set_capacity_counted(bool counted);
  /// Accounts one allocation of `amounts` and `vf_bus_ids` on the device.
  void add(const DeviceAmounts& amounts, const std::vector<std::string>& vf_bus_ids);
  /// Exactly undoes one add() with the same arguments.
  void remove(const DeviceAmounts& amounts, const std::vector<std::string>& vf_bus_ids);
  /// Takes over what pods use of `old` (the same minor in the layout before a
  /// Device update); `old` is left unused.
  void take_use(DeviceSlot& old);

  /// Where the node's packed device ids (NodeDevices) hold this device's id:
  /// its offset and length, so a slot stores no string of its own.
  void set_id_span(uint32_t at, uint32_t size) {
    id_at_ = at;
    id_size_ = size;
  }
  uint32_t id_at() const { return id_at_; }
  uint32_t id_size() const { return id_size_; }

 private:
  // What pods use of the device; only while allocations > 0.
  struct Use {
    DeviceAmounts used;
    DeviceAmounts free;
    DeviceAmounts view_free;
    bool view_used = false;
    uint32_t allocations = 0;
    // Per resource name, how many allocations name it (so removal restores which names `used` has).
    std::array<uint32_t, kDeviceResourceCount> used_refs{};
    VfHolders used_vfs;
  };

  static const DeviceAmounts& none();
  /// Recomputes free, view_free and the summaries after a change.
  void refresh();

  // Members ordered so the slot packs into 32 bytes.
  uint32_t id_at_ = 0;  // where the node's packed device ids (NodeDevices) hold this device's id
  std::unique_ptr<Use> use_;
  uint32_t id_size_ = 0;
  bool capacity_counted_ = false;
  bool has_capacity_ = false;
  bool has_free_ = false;
  bool has_view_free_ = false;
};

}  // namespace troupe::plugins::deviceshare
