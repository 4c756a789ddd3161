#include "plugins/deviceshare/node_devices.hpp"

#include <algorithm>

#include "plugins/deviceshare/device_requests.hpp"
#include "plugins/framework/node_info.hpp"

namespace troupe::plugins::deviceshare {

const DeviceSlot* TypeDevices::find(int32_t minor) const {
  auto it = std::lower_bound(slots.begin(), slots.end(), minor,
                             [](const DeviceSlot& s, int32_t m) { return s.minor < m; });
  return it != slots.end() && it->minor == minor ? &*it : nullptr;
}

void TypeDevices::summarize() {
  any_free_ = std::any_of(slots.begin(), slots.end(), [](const DeviceSlot& s) { return s.has_free(); });
  has_vfs_ = std::any_of(slots.begin(), slots.end(),
                         [](const DeviceSlot& s) { return s.info != nullptr && s.info->has_vf_groups(); });
  info_mask_ = 0;
  for (size_t i = 0; i < slots.size() && i < kMaxDevicesPerType; ++i)
    if (slots[i].info != nullptr) info_mask_ |= uint64_t{1} << i;
}

bool PodDevices::empty() const {
  return std::all_of(by_type.begin(), by_type.end(), [](const auto& v) { return v.empty(); });
}

PodDevices pod_devices_from(const DeviceAllocations& allocations) {
  PodDevices out;
  for (const auto& [type_name, entries] : allocations) {
    auto type = device_type_of(type_name);
    if (!type) continue;
    for (const auto& entry : entries) {
      AccountedDevice d;
      d.minor = entry.minor;
      ResourceList canonical;
      for (const auto& [name, q] : entry.resources) canonical[std::string(canonical_device_resource_name(name))] = q;
      d.amounts = DeviceAmounts::from_list(canonical);
      if (entry.extension)
        for (const auto& vf : entry.extension->vfs) d.vf_bus_ids.push_back(vf.bus_id);
      out.by_type[type_index(*type)].push_back(std::move(d));
    }
  }
  return out;
}

void NodeDevices::apply_device(std::shared_ptr<const Device> device) {
  fragmentation_memo_.clear();
  if (!device) {
    clear_device();
    return;
  }
  const std::string model_before = card_model();
  // The old slots point into the previous layout until rebuild_slots replaces them.
  const auto previous = std::move(layout_);
  layout_ = shared_device_layout(*device);
  device_seen_ = true;
  device_deleted_ = false;
  rebuild_slots(*device);
  refresh_card_model(model_before);
}

const NumaTopology& NodeDevices::numa_topology() const {
  static const NumaTopology kNone;
  return layout_ ? layout_->numa : kNone;
}

const std::string& NodeDevices::partition_table_error() const {
  static const std::string kNone;
  return layout_ ? layout_->partition_error : kNone;
}

const std::string& NodeDevices::gpu_vendor() const {
  static const std::string kNone;
  return layout_ ? layout_->gpu_vendor : kNone;
}

const std::string& NodeDevices::card_model() const {
  // The Device's label wins, also after the Device was deleted (its layout is kept).
  return layout_ && layout_->gpu_model ? *layout_->gpu_model : node_card_model_;
}

void NodeDevices::on_node_changed(const Node* node) {
  std::string model;
  if (node != nullptr) {
    auto it = node->meta.labels.find(label_keys().gpu_model);
    if (it != node->meta.labels.end()) model = it->second;
  }
  if (model == node_card_model_) return;
  const std::string model_before = card_model();
  node_card_model_ = std::move(model);
  refresh_card_model(model_before);
}

void NodeDevices::refresh_card_model(const std::string& before) {
  if (card_model() == before) return;
  card_model_hash_ = std::hash<std::string>{}(card_model());
  fragmentation_memo_.clear();
}

void NodeDevices::clear_device() {
  fragmentation_memo_.clear();
  if (!layout_) return;
  device_deleted_ = true;
  // The devices stay, without capacity: the same slots, as Koordinator keeps them.
  for (auto& type : types_) {
    for (auto& slot : type.slots) slot.set_capacity_counted(false);
    type.summarize();
  }
}

void NodeDevices::rebuild_slots(const Device& device) {
  const auto ids = device_ids(device);
  ids_.clear();
  for (const auto& of_type : ids)
    for (std::string_view id : of_type) ids_ += id;
  ids_.shrink_to_fit();
  uint32_t id_at = 0;
  for (DeviceType type : kAllDeviceTypes) {
    const size_t t = type_index(type);
    std::vector<DeviceSlot> rebuilt;
    const auto& infos = layout_->devices[t];
    for (size_t i = 0; i < infos.size(); ++i) {
      DeviceSlot slot(&infos[i], infos[i].health);
      slot.set_id_span(id_at, static_cast<uint32_t>(ids[t][i].size()));
      id_at += static_cast<uint32_t>(ids[t][i].size());
      rebuilt.push_back(std::move(slot));
    }
    // What pods use stays with the minor; a used minor the Device no longer lists stays as a phantom.
    for (auto& old : types_[t].slots) {
      if (old.allocations() == 0) continue;
      auto it = std::lower_bound(rebuilt.begin(), rebuilt.end(), old.minor,
                                 [](const DeviceSlot& s, int32_t m) { return s.minor < m; });
      if (it == rebuilt.end() || it->minor != old.minor) it = rebuilt.insert(it, DeviceSlot::phantom(old.minor));
      it->take_use(old);
    }
    rebuilt.shrink_to_fit();
    types_[t].slots = std::move(rebuilt);
    types_[t].summarize();
  }
}

DeviceSlot& NodeDevices::slot_for(DeviceType type, int32_t minor) {
  auto& slots = types_[type_index(type)].slots;
  auto it = std::lower_bound(slots.begin(), slots.end(), minor,
                             [](const DeviceSlot& s, int32_t m) { return s.minor < m; });
  if (it == slots.end() || it->minor != minor) it = slots.insert(it, DeviceSlot::phantom(minor));
  return *it;
}

void NodeDevices::account(DeviceType type, const AccountedDevice& d, bool add) {
  DeviceSlot& slot = slot_for(type, d.minor);
  auto& devices = types_[type_index(type)];
  if (add) {
    slot.add(d.amounts, d.vf_bus_ids);
  } else {
    slot.remove(d.amounts, d.vf_bus_ids);
    if (slot.info == nullptr && slot.allocations() == 0)
      devices.slots.erase(devices.slots.begin() + (&slot - devices.slots.data()));
  }
  devices.summarize();
}

bool NodeDevices::add_pod(std::string_view pod_key, const PodDevices& devices, std::string_view name) {
  if (has_pod(pod_key)) return false;
  for (DeviceType type : kAllDeviceTypes)
    for (const auto& d : devices.by_type[type_index(type)]) account(type, d, true);
  pods_.emplace(std::string(pod_key), AccountedPod{std::string(name.empty() ? pod_key : name), devices});
  pods_seen_ = true;
  return true;
}

bool NodeDevices::remove_pod(std::string_view pod_key) {
  auto it = pods_.find(pod_key);
  if (it == pods_.end()) return false;
  for (DeviceType type : kAllDeviceTypes)
    for (const auto& d : it->second.devices.by_type[type_index(type)]) account(type, d, false);
  pods_.erase(it);
  return true;
}

void NodeDevices::on_pod_added(const PodInfo& pod) {
  const std::string_view key = pod_identity(pod);
  if (has_pod(key)) return;
  auto allocations = device_allocations_from(pod.meta().annotations);
  if (!allocations) {
    ++malformed_annotations_;
    return;
  }
  if (!*allocations) return;
  PodDevices devices = pod_devices_from(**allocations);
  if (devices.empty()) return;
  add_pod(key, devices, pod.key);
}

void NodeDevices::on_pod_removed(const PodInfo& pod) { remove_pod(pod_identity(pod)); }

}  // namespace troupe::plugins::deviceshare
