#pragma once
// The DeviceShare debug summary of one node (service.go NodeDeviceSummary,
// served by Koordinator at /apis/v1/plugins/DeviceShare/nodeDeviceSummaries/<node>):
// totals, free and used per resource name, the same per device type and
// minor, and each accounted pod's devices:
//   {"deviceTotal":{...},"deviceFree":{...},"deviceUsed":{...},
//    "deviceTotalDetail":{"gpu":{"0":{...}}},"deviceFreeDetail":{...},"deviceUsedDetail":{...},
//    "allocateSet":{"gpu":{"ns/name":{"0":{...}}}}}
// Keys are sorted as Go sorts map keys (minors as strings: "10" before "2").

#include <string>

#include "plugins/deviceshare/node_devices.hpp"

namespace troupe::plugins::deviceshare {

std::string node_device_summary_json(const NodeDevices& node);

}  // namespace troupe::plugins::deviceshare
