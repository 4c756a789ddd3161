#include "plugins/node_extensions.hpp"

#include <memory>

#include "plugins/deviceshare/node_devices.hpp"
#include "plugins/gpushare/gpushare_node_state.hpp"
#include "plugins/node_numa_resource/node_cpus.hpp"
#include "plugins/reservation/node_reservations.hpp"

namespace troupe::plugins {

void attach_node_extensions(NodeInfo& node) {
  node.set_extension(NodeExtensionSlot::kDevices, std::make_unique<deviceshare::NodeDevices>());
  node.set_extension(NodeExtensionSlot::kCpus, std::make_unique<numa::NodeCpus>());
  node.set_extension(NodeExtensionSlot::kReservations, std::make_unique<reservation::NodeReservations>());
  node.set_extension(NodeExtensionSlot::kGpuShare, std::make_unique<gpushare::GpuShareNodeState>());
  // kLoad (load_aware::NodeLoadState) is installed by the node's NodeMetric
  // (actors/node_object.cpp): most nodes never have one.
}

}  // namespace troupe::plugins
