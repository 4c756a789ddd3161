#pragma once
// NodeDevices: one node's devices as the DeviceShare plugin sees them
// (Koordinator's nodeDevice in device_cache.go): per device type, every
// device instance with its capacity, what the pods on the node use of it,
// what is free, its topology and virtual functions; plus the node's NUMA/PCIe
// layout, GPU topology tree and GPU partition table.
//
// Two sources feed it and either may come first:
//  - the node's Device object (apply_device / clear_device when it is deleted:
//    the devices stay known but unusable, as Koordinator marks them unhealthy).
//    What the plugin reads of it is kept as a DeviceLayout shared by the nodes
//    of the same hardware model (device_layout.hpp) plus the node's device ids,
//    not the object itself;
//  - the pods on the node, through their device-allocated annotation
//    (on_pod_added / on_pod_removed) and through Reserve (add_pod /
//    remove_pod), so the accounting is rebuilt from the API server alone.
// A pod is accounted once under its identity (uid, else namespace/name); a
// second add is ignored, as Koordinator's allocateSet does, and removal undoes
// exactly what was added.
//
// Deviations from Koordinator, all on the safe side: a virtual function held
// by two pods stays taken until both are gone (Koordinator frees it with the
// first); a minor that only pods mention (its device is gone from the Device
// object) disappears once no pod uses it (Koordinator keeps an empty entry
// until the next Device update); amounts are clamped to [0, kMaxMilli].
//
// It is NodeInfo's extension in slot kDevices: NodeInfo calls on_pod_added /
// on_pod_removed for every pod it accounts.

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/device.hpp"
#include "plugins/deviceshare/device_allocated.hpp"
#include "plugins/deviceshare/device_amounts.hpp"
#include "plugins/deviceshare/device_layout.hpp"
#include "plugins/deviceshare/device_slot.hpp"
#include "plugins/deviceshare/device_types.hpp"
#include "plugins/deviceshare/fragmentation_memo.hpp"
#include "plugins/deviceshare/gpu_partition.hpp"
#include "plugins/deviceshare/gpu_topology.hpp"
#include "plugins/framework/node_extension.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins::deviceshare {

/// The devices of one type, ordered by minor. NodeDevices keeps the
/// summaries current whenever a slot changes.
struct TypeDevices {
  std::vector<DeviceSlot> slots;
  bool any_free_ = false;
  bool has_vfs_ = false;
  uint64_t info_mask_ = 0;  // slot indices (first 64) that are devices of the Device object

  const DeviceSlot* find(int32_t minor) const;
  /// Any slot's free is non-zero (Koordinator drops the type from its view otherwise).
  bool any_free() const { return any_free_; }
  /// Some device of the type has vfGroups.
  bool has_virtual_functions() const { return has_vfs_; }
  /// Slots (bit i = slots[i], first kMaxDevicesPerType) that the Device lists.
  uint64_t listed_slots() const { return info_mask_; }
  /// Recomputes the summaries from the slots.
  void summarize();
};

/// One device of a pod's accounted allocation.
struct AccountedDevice {
  int32_t minor = 0;
  DeviceAmounts amounts;
  std::vector<std::string> vf_bus_ids;
};

/// A pod's allocation per known device type.
struct PodDevices {
  std::array<std::vector<AccountedDevice>, kDeviceTypeCount> by_type;
  bool empty() const;
};

/// The typed form of an annotation: known types only, deprecated resource
/// names read as their koordinator.sh/ names.
PodDevices pod_devices_from(const DeviceAllocations& allocations);

class NodeDevices final : public NodeExtension {
 public:
  NodeDevices() = default;

  /// Replaces the node's Device (a watch add/update); the pods stay accounted.
  /// Keeps the Device's shared layout and its device ids, not the object.
  void apply_device(std::shared_ptr<const Device> device);
  /// The Device was deleted: its devices stay known but have no capacity.
  void clear_device();

  /// Accounts the pod's device-allocated annotation, if any. A malformed
  /// annotation accounts nothing (counted in malformed_annotations()).
  void on_pod_added(const PodInfo& pod) override;
  /// Undoes on_pod_added / add_pod for the pod's identity.
  void on_pod_removed(const PodInfo& pod) override;
  /// Remembers the Node's card model label (card_model() falls back to it).
  void on_node_changed(const Node* node) override;
  std::unique_ptr<NodeExtension> clone() const override { return std::make_unique<NodeDevices>(*this); }
  bool holds_object() const override { return has_device(); }

  /// Accounts an allocation under `pod_key`; false (no change) when the key
  /// is already accounted. `name` ("namespace/name") is what summaries show;
  /// the key when empty.
  bool add_pod(std::string_view pod_key, const PodDevices& devices, std::string_view name = {});
  /// Undoes add_pod; false when the key is not accounted.
  bool remove_pod(std::string_view pod_key);
  bool has_pod(std::string_view pod_key) const { return pods_.count(pod_key) != 0; }
  size_t pod_count() const { return pods_.size(); }

  struct AccountedPod {
    std::string name;
    PodDevices devices;
  };
  /// Accounted pods by key.
  const std::map<std::string, AccountedPod, std::less<>>& pods() const { return pods_; }

  /// Koordinator keeps a cache entry once a Device or a pod with an
  /// allocation was seen (and keeps it while the node exists); nodes without
  /// one are not filtered by DeviceShare.
  bool known() const { return device_seen_ || pods_seen_; }
  bool has_device() const { return layout_ != nullptr && !device_deleted_; }
  /// What the plugin reads of the last Device (kept after it was deleted); nullptr before any.
  const DeviceLayout* layout() const { return layout_.get(); }
  /// The last Device's node.koordinator.sh/gpu-vendor label ("" without one or before any Device).
  const std::string& gpu_vendor() const;
  /// The device's id (DeviceInfo.id) in the last Device; "" for a minor only pods mention.
  std::string_view device_id(const DeviceSlot& slot) const {
    return std::string_view(ids_).substr(slot.id_at(), slot.id_size());
  }

  const TypeDevices& devices(DeviceType type) const { return types_[type_index(type)]; }
  const NumaTopology& numa_topology() const;
  const GpuScope* gpu_topology() const { return layout_ && layout_->gpu_topology ? &*layout_->gpu_topology : nullptr; }
  /// The Device's partition table; nullptr when it has none (or it did not parse).
  const GpuPartitionIndexer* partition_indexer() const {
    return layout_ && layout_->partitions ? &*layout_->partitions : nullptr;
  }
  /// The Device's node.koordinator.sh/gpu-partition-policy label is Honor.
  bool device_honors_partitions() const { return layout_ && layout_->honor_partitions; }
  /// The Device's node.koordinator.sh/secondary-device-well-planned label is "true".
  bool secondary_device_well_planned() const { return layout_ && layout_->secondary_well_planned; }

  /// Why the last Device's partition table was ignored ("" when it was fine or absent).
  const std::string& partition_table_error() const;
  /// Pods whose device-allocated annotation did not decode.
  size_t malformed_annotations() const { return malformed_annotations_; }

  /// The GPU card model: the Device's node.koordinator.sh/gpu-model label,
  /// else the Node's ("" when neither has one), and its std::hash. Kept
  /// current on Device and Node changes, so scoring looks up no label.
  const std::string& card_model() const;
  size_t card_model_hash() const { return card_model_hash_; }

  /// The Fragmentation strategy's memo (fragmentation_cache.hpp), allocated
  /// on first use (fragmentation_memo.hpp); mutable because Score, which
  /// fills it, sees the node const.
  FragmentationScoreCache& fragmentation_cache() const { return fragmentation_memo_.get(); }
  /// The memo was used since the node's Device or card model last changed.
  bool has_fragmentation_cache() const { return fragmentation_memo_.allocated(); }

 private:
  /// Slots for the layout's devices (ids from `device`), keeping what pods use.
  void rebuild_slots(const Device& device);
  void refresh_card_model(const std::string& before);
  void account(DeviceType type, const AccountedDevice& d, bool add);
  DeviceSlot& slot_for(DeviceType type, int32_t minor);

  std::shared_ptr<const DeviceLayout> layout_;
  std::string ids_;  // every device's id, packed; DeviceSlot says where its own is
  bool device_seen_ = false;
  bool pods_seen_ = false;
  bool device_deleted_ = false;
  std::array<TypeDevices, kDeviceTypeCount> types_;
  std::map<std::string, AccountedPod, std::less<>> pods_;
  size_t malformed_annotations_ = 0;
  std::string node_card_model_;  // the Node's label
  size_t card_model_hash_ = std::hash<std::string>{}(std::string());
  mutable FragmentationMemo fragmentation_memo_;
};

}  // namespace troupe::plugins::deviceshare
