#include "plugins/deviceshare/node_devices.hpp"

#include <algorithm>
#include <tuple>

#include "plugins/deviceshare/device_requests.hpp"
#include "plugins/framework/node_info.hpp"

namespace troupe::plugins::deviceshare {

namespace {

// What an existing slot carries over when the Device changes.
struct UsedPart {
  DeviceAmounts used;
  std::array<uint32_t, kDeviceResourceCount> used_refs{};
  uint32_t allocations = 0;
  std::map<std::string, uint32_t, std::less<>> used_vfs;
};

std::vector<DeviceVf> sorted_vfs(const DeviceInfo& info) {
  std::vector<DeviceVf> out;
  for (size_t g = 0; g < info.vf_groups.size(); ++g)
    for (const auto& vf : info.vf_groups[g].vfs) out.push_back(DeviceVf{vf.bus_id, vf.minor, g});
  std::stable_sort(out.begin(), out.end(), [](const DeviceVf& a, const DeviceVf& b) { return a.bus_id < b.bus_id; });
  return out;
}

// The Device's entries per known type, one per minor (a later duplicate
// replaces an earlier one, as Koordinator's minor-keyed maps do).
std::array<std::map<int32_t, const DeviceInfo*>, kDeviceTypeCount> infos_by_type(const Device& device) {
  std::array<std::map<int32_t, const DeviceInfo*>, kDeviceTypeCount> out;
  for (const auto& info : device.devices) {
    auto type = device_type_of(info.type);
    if (!type) continue;
    out[type_index(*type)][info.minor.value_or(0)] = &info;
  }
  return out;
}

NumaTopology build_numa_topology(const std::array<std::map<int32_t, const DeviceInfo*>, kDeviceTypeCount>& infos) {
  // (numa node, socket, pcie id) identifies a switch, as Koordinator's PCIeIndex does.
  std::map<std::tuple<int32_t, int32_t, std::string>, PcieSwitch> switches;
  for (DeviceType type : kAllDeviceTypes) {
    for (const auto& [minor, info] : infos[type_index(type)]) {
      if (!info->topology || info->topology->node_id == -1) continue;
      const auto& t = *info->topology;
      auto& sw = switches[{t.node_id, t.socket_id, t.pcie_id}];
      sw.socket = t.socket_id;
      sw.numa_node = t.node_id;
      sw.pcie_id = t.pcie_id;
      sw.minors[type_index(type)].push_back(minor);
    }
  }
  NumaTopology out;
  for (auto& [key, sw] : switches) out[sw.numa_node].push_back(std::move(sw));
  return out;
}

bool label_is(const Labels& labels, std::string_view key, std::string_view value) {
  auto it = labels.find(std::string(key));
  return it != labels.end() && it->second == value;
}

}  // namespace

const DeviceSlot* TypeDevices::find(int32_t minor) const {
  auto it = std::lower_bound(slots.begin(), slots.end(), minor,
                             [](const DeviceSlot& s, int32_t m) { return s.minor < m; });
  return it != slots.end() && it->minor == minor ? &*it : nullptr;
}

void TypeDevices::summarize() {
  any_free_ = std::any_of(slots.begin(), slots.end(), [](const DeviceSlot& s) { return s.has_free; });
  has_vfs_ = std::any_of(slots.begin(), slots.end(),
                         [](const DeviceSlot& s) { return s.info != nullptr && !s.info->vf_groups.empty(); });
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
  device_ = std::move(device);
  device_seen_ = true;
  device_deleted_ = false;
  const auto infos = infos_by_type(*device_);
  numa_ = build_numa_topology(infos);
  std::vector<const DeviceInfo*> gpus;
  for (const auto& [minor, info] : infos[type_index(DeviceType::gpu)]) gpus.push_back(info);
  gpu_topology_ = build_gpu_topology(gpus);

  partitions_.reset();
  partition_error_.clear();
  if (const std::string* table = device_->meta.annotation(std::string(kAnnotationGpuPartitions));
      table != nullptr && !table->empty()) {
    auto parsed = parse_gpu_partition_table(*table);
    if (parsed) partitions_ = std::move(*parsed);
    else partition_error_ = parsed.message();
  }
  honor_partitions_ = honors_gpu_partitions(device_->meta.labels);
  secondary_well_planned_ = label_is(device_->meta.labels, kLabelSecondaryDeviceWellPlanned, "true");
  rebuild_slots(true);
  refresh_card_model();
}

void NodeDevices::on_node_changed(const Node* node) {
  std::string model;
  if (node != nullptr) {
    auto it = node->meta.labels.find(label_keys().gpu_model);
    if (it != node->meta.labels.end()) model = it->second;
  }
  if (model == node_card_model_) return;
  node_card_model_ = std::move(model);
  refresh_card_model();
}

void NodeDevices::refresh_card_model() {
  // The Device's label wins, also after the Device was deleted (its object is kept).
  std::string model = node_card_model_;
  if (device_ != nullptr) {
    auto it = device_->meta.labels.find(label_keys().gpu_model);
    if (it != device_->meta.labels.end()) model = it->second;
  }
  if (model == card_model_) return;
  card_model_ = std::move(model);
  card_model_hash_ = std::hash<std::string>{}(card_model_);
  fragmentation_memo_.clear();
}

void NodeDevices::clear_device() {
  fragmentation_memo_.clear();
  if (!device_) return;
  device_deleted_ = true;
  rebuild_slots(false);
}

void NodeDevices::rebuild_slots(bool device_present) {
  const auto infos = device_ ? infos_by_type(*device_)
                             : std::array<std::map<int32_t, const DeviceInfo*>, kDeviceTypeCount>{};
  for (DeviceType type : kAllDeviceTypes) {
    auto& slots = types_[type_index(type)].slots;
    std::map<int32_t, UsedPart> used;
    for (auto& s : slots) {
      if (s.allocations == 0) continue;
      used[s.minor] = UsedPart{s.used, s.used_refs, s.allocations, std::move(s.used_vfs)};
    }
    std::vector<DeviceSlot> rebuilt;
    for (const auto& [minor, info] : infos[type_index(type)]) {
      DeviceSlot slot;
      slot.minor = minor;
      slot.info = info;
      if (device_present && info->health) slot.total = DeviceAmounts::from_list(info->resources);
      slot.vfs = sorted_vfs(*info);
      rebuilt.push_back(std::move(slot));
    }
    for (auto& [minor, part] : used) {
      auto it = std::find_if(rebuilt.begin(), rebuilt.end(), [&](const DeviceSlot& s) { return s.minor == minor; });
      if (it == rebuilt.end()) {
        DeviceSlot phantom;
        phantom.minor = minor;
        rebuilt.push_back(std::move(phantom));
        it = rebuilt.end() - 1;
      }
      it->used = part.used;
      it->used_refs = part.used_refs;
      it->allocations = part.allocations;
      it->used_vfs = std::move(part.used_vfs);
    }
    std::sort(rebuilt.begin(), rebuilt.end(), [](const DeviceSlot& a, const DeviceSlot& b) { return a.minor < b.minor; });
    for (auto& s : rebuilt) recompute_free(s);
    slots = std::move(rebuilt);
    types_[type_index(type)].summarize();
  }
}

void NodeDevices::recompute_free(DeviceSlot& slot) {
  slot.free = slot.total.subtract_non_negative(slot.used);
  // Koordinator's filtered view keeps a device's "used" only where it is
  // non-zero against the capacity; without it, free is the capacity as is.
  const DeviceAmounts view_used = slot.total.subtract_non_negative(slot.free);
  bool used_against_total = false;
  for (DeviceResource r : kAllDeviceResources)
    if (slot.total.has(r) && view_used.milli(r) > 0) used_against_total = true;
  slot.view_free = used_against_total ? slot.free : slot.total;
  slot.view_used = used_against_total;
  slot.has_capacity = !slot.total.is_zero();
  slot.has_free = !slot.free.is_zero();
  slot.has_view_free = !slot.view_free.is_zero();
}

DeviceSlot& NodeDevices::slot_for(DeviceType type, int32_t minor) {
  auto& slots = types_[type_index(type)].slots;
  auto it = std::lower_bound(slots.begin(), slots.end(), minor,
                             [](const DeviceSlot& s, int32_t m) { return s.minor < m; });
  if (it == slots.end() || it->minor != minor) {
    DeviceSlot phantom;
    phantom.minor = minor;
    it = slots.insert(it, std::move(phantom));
  }
  return *it;
}

void NodeDevices::account(DeviceType type, const AccountedDevice& d, bool add) {
  DeviceSlot& slot = slot_for(type, d.minor);
  if (add) {
    slot.used += d.amounts;
    ++slot.allocations;
    for (DeviceResource r : kAllDeviceResources)
      if (d.amounts.has(r)) ++slot.used_refs[static_cast<size_t>(r)];
    for (const auto& bus : d.vf_bus_ids) ++slot.used_vfs[bus];
  } else {
    slot.used -= d.amounts;
    --slot.allocations;
    for (DeviceResource r : kAllDeviceResources)
      if (d.amounts.has(r) && --slot.used_refs[static_cast<size_t>(r)] == 0) slot.used.erase(r);
    for (const auto& bus : d.vf_bus_ids) {
      auto it = slot.used_vfs.find(bus);
      if (it != slot.used_vfs.end() && --it->second == 0) slot.used_vfs.erase(it);
    }
    if (slot.info == nullptr && slot.allocations == 0) {
      auto& slots = types_[type_index(type)].slots;
      slots.erase(slots.begin() + (&slot - slots.data()));
      types_[type_index(type)].summarize();
      return;
    }
  }
  recompute_free(slot);
  types_[type_index(type)].summarize();
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
