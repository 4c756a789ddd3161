#include "plugins/deviceshare/device_types.hpp"

namespace troupe::plugins::deviceshare {

namespace {
constexpr std::array<std::string_view, kDeviceTypeCount> kTypeNames = {"gpu", "rdma", "fpga"};
}

std::string_view device_type_name(DeviceType type) { return kTypeNames[type_index(type)]; }

std::string insufficient_devices(DeviceType type) { return "Insufficient " + std::string(device_type_name(type)) + " devices"; }

std::optional<DeviceType> device_type_of(std::string_view name) {
  for (DeviceType t : kAllDeviceTypes)
    if (kTypeNames[type_index(t)] == name) return t;
  return std::nullopt;
}

const LabelKeys& label_keys() {
  static const LabelKeys keys;
  return keys;
}

}  // namespace troupe::plugins::deviceshare
