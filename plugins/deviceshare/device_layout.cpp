#include "plugins/deviceshare/device_layout.hpp"

#include <algorithm>
#include <tuple>

#include "plugins/common/content_key.hpp"
#include "plugins/common/shared_by_key.hpp"

namespace troupe::plugins::deviceshare {

namespace {

using InfosByType = std::array<std::map<int32_t, const DeviceInfo*>, kDeviceTypeCount>;

// The Device's entries per known type, one per minor (a later duplicate
// replaces an earlier one, as Koordinator's minor-keyed maps do).
InfosByType infos_by_type(const Device& device) {
  InfosByType out;
  for (const auto& info : device.devices) {
    auto type = device_type_of(info.type);
    if (!type) continue;
    out[type_index(*type)][info.minor.value_or(0)] = &info;
  }
  return out;
}

std::vector<DeviceVf> sorted_vfs(const DeviceInfo& info) {
  std::vector<DeviceVf> out;
  for (size_t g = 0; g < info.vf_groups.size(); ++g)
    for (const auto& vf : info.vf_groups[g].vfs) out.push_back(DeviceVf{vf.bus_id, vf.minor, g});
  std::stable_sort(out.begin(), out.end(), [](const DeviceVf& a, const DeviceVf& b) { return a.bus_id < b.bus_id; });
  return out;
}

DeviceSlotInfo slot_info(int32_t minor, const DeviceInfo& info) {
  DeviceSlotInfo out;
  out.minor = minor;
  out.health = info.health;
  out.capacity = DeviceAmounts::from_list(info.resources);
  out.labels = info.labels;
  if (info.topology)
    out.placement = DevicePlacement{info.topology->socket_id, info.topology->node_id, info.topology->pcie_id};
  out.vfs = sorted_vfs(info);
  for (const auto& group : info.vf_groups) out.vf_group_labels.push_back(group.labels);
  return out;
}

NumaTopology build_numa_topology(const InfosByType& infos) {
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

const std::string* label(const Labels& labels, const std::string& key) {
  auto it = labels.find(key);
  return it == labels.end() ? nullptr : &it->second;
}

void write_device(ContentKey& key, const DeviceInfo& info) {
  key.text(info.type).number(info.minor.has_value()).number(info.minor.value_or(0)).number(info.health);
  key.number(static_cast<int64_t>(info.resources.size()));
  for (const auto& [name, quantity] : info.resources) key.text(name).text(quantity.to_string());
  key.strings(info.labels).number(info.topology.has_value());
  if (info.topology)
    key.number(info.topology->socket_id).number(info.topology->node_id).text(info.topology->pcie_id);
  key.number(static_cast<int64_t>(info.vf_groups.size()));
  for (const auto& group : info.vf_groups) {
    key.strings(group.labels).number(static_cast<int64_t>(group.vfs.size()));
    for (const auto& vf : group.vfs) key.number(vf.minor).text(vf.bus_id);
  }
}

SharedByKey<DeviceLayout>& layouts() {
  static SharedByKey<DeviceLayout> cache;
  return cache;
}

}  // namespace

DeviceLayout build_device_layout(const Device& device) {
  DeviceLayout out;
  const InfosByType infos = infos_by_type(device);
  for (DeviceType type : kAllDeviceTypes)
    for (const auto& [minor, info] : infos[type_index(type)])
      out.devices[type_index(type)].push_back(slot_info(minor, *info));
  out.numa = build_numa_topology(infos);
  std::vector<const DeviceInfo*> gpus;
  for (const auto& [minor, info] : infos[type_index(DeviceType::gpu)]) gpus.push_back(info);
  out.gpu_topology = build_gpu_topology(gpus);

  if (const std::string* table = device.meta.annotation(std::string(kAnnotationGpuPartitions));
      table != nullptr && !table->empty()) {
    auto parsed = parse_gpu_partition_table(*table);
    if (parsed) out.partitions = std::move(*parsed);
    else out.partition_error = parsed.message();
  }
  const Labels& labels = device.meta.labels;
  out.honor_partitions = honors_gpu_partitions(labels);
  const std::string* well_planned = label(labels, std::string(kLabelSecondaryDeviceWellPlanned));
  out.secondary_well_planned = well_planned != nullptr && *well_planned == "true";
  if (const std::string* model = label(labels, label_keys().gpu_model)) out.gpu_model = *model;
  if (const std::string* vendor = label(labels, label_keys().gpu_vendor)) out.gpu_vendor = *vendor;
  return out;
}

std::string device_layout_key(const Device& device) {
  ContentKey key;
  // The labels and the partition table are all build_device_layout reads of the metadata.
  key.strings(device.meta.labels);
  const std::string* table = device.meta.annotation(std::string(kAnnotationGpuPartitions));
  key.number(table != nullptr).text(table != nullptr ? *table : std::string());
  key.number(static_cast<int64_t>(device.devices.size()));
  for (const auto& info : device.devices) write_device(key, info);
  return key.take();
}

std::shared_ptr<const DeviceLayout> shared_device_layout(const Device& device) {
  return layouts().get(device_layout_key(device),
                       [&] { return std::make_shared<const DeviceLayout>(build_device_layout(device)); });
}

size_t shared_device_layouts_in_use() { return layouts().in_use(); }

std::array<std::vector<std::string_view>, kDeviceTypeCount> device_ids(const Device& device) {
  std::array<std::vector<std::string_view>, kDeviceTypeCount> out;
  const InfosByType infos = infos_by_type(device);
  for (DeviceType type : kAllDeviceTypes)
    for (const auto& [minor, info] : infos[type_index(type)]) out[type_index(type)].push_back(info->id);
  return out;
}

}  // namespace troupe::plugins::deviceshare
