#include "plugins/deviceshare/device_summary.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <vector>

#include "plugins/deviceshare/go_json.hpp"

namespace troupe::plugins::deviceshare {

namespace {

using MinorAmounts = std::vector<std::pair<int32_t, DeviceAmounts>>;

void append_list(std::string& out, const ResourceList& list) {
  out += '{';
  bool first = true;
  for (const auto& [name, q] : list) {
    if (!first) out += ',';
    first = false;
    out += go_json_string(name) + ":" + go_json_string(q.to_string());
  }
  out += '}';
}

// A map[int]ResourceList: keys sorted by their decimal text, as encoding/json does.
void append_minors(std::string& out, MinorAmounts minors) {
  std::sort(minors.begin(), minors.end(),
            [](const auto& a, const auto& b) { return std::to_string(a.first) < std::to_string(b.first); });
  out += '{';
  for (size_t i = 0; i < minors.size(); ++i) {
    if (i > 0) out += ',';
    out += go_json_string(std::to_string(minors[i].first)) + ":";
    append_list(out, minors[i].second.to_list());
  }
  out += '}';
}

using SlotField = std::function<const DeviceAmounts*(const DeviceSlot&)>;

void append_sums(std::string& out, const NodeDevices& node, const SlotField& field) {
  DeviceAmounts sum;
  for (DeviceType t : kAllDeviceTypes)
    for (const auto& slot : node.devices(t).slots)
      if (const DeviceAmounts* a = field(slot)) sum += *a;
  append_list(out, sum.to_list());
}

void append_detail(std::string& out, const NodeDevices& node, const SlotField& field) {
  out += '{';
  bool first = true;
  for (const std::string_view name : {"fpga", "gpu", "rdma"}) {  // sorted type names
    const TypeDevices& devices = node.devices(*device_type_of(name));
    MinorAmounts minors;
    for (const auto& slot : devices.slots)
      if (const DeviceAmounts* a = field(slot)) minors.emplace_back(slot.minor, *a);
    if (minors.empty()) continue;  // e.g. nothing used of this type
    if (!first) out += ',';
    first = false;
    out += go_json_string(name) + ":";
    append_minors(out, std::move(minors));
  }
  out += '}';
}

void append_allocate_set(std::string& out, const NodeDevices& node) {
  out += '{';
  bool first_type = true;
  for (const std::string_view name : {"fpga", "gpu", "rdma"}) {
    const DeviceType type = *device_type_of(name);
    std::map<std::string, MinorAmounts> pods;
    for (const auto& [key, pod] : node.pods()) {
      const auto& devices = pod.devices.by_type[type_index(type)];
      if (devices.empty()) continue;
      auto& minors = pods[pod.name];
      for (const auto& d : devices) minors.emplace_back(d.minor, d.amounts);
    }
    if (pods.empty()) continue;
    if (!first_type) out += ',';
    first_type = false;
    out += go_json_string(name) + ":{";
    bool first_pod = true;
    for (auto& [pod, minors] : pods) {
      if (!first_pod) out += ',';
      first_pod = false;
      out += go_json_string(pod) + ":";
      append_minors(out, std::move(minors));
    }
    out += '}';
  }
  out += '}';
}

}  // namespace

std::string node_device_summary_json(const NodeDevices& node) {
  const SlotField total = [](const DeviceSlot& s) { return &s.total(); };
  const SlotField free = [](const DeviceSlot& s) { return &s.free(); };
  const SlotField used = [](const DeviceSlot& s) { return s.allocations() > 0 ? &s.used() : nullptr; };
  std::string out = "{\"deviceTotal\":";
  append_sums(out, node, total);
  out += ",\"deviceFree\":";
  append_sums(out, node, free);
  out += ",\"deviceUsed\":";
  append_sums(out, node, used);
  out += ",\"deviceTotalDetail\":";
  append_detail(out, node, total);
  out += ",\"deviceFreeDetail\":";
  append_detail(out, node, free);
  out += ",\"deviceUsedDetail\":";
  append_detail(out, node, used);
  out += ",\"allocateSet\":";
  append_allocate_set(out, node);
  out += '}';
  return out;
}

}  // namespace troupe::plugins::deviceshare
