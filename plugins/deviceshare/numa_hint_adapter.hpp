#pragma once
// DeviceShare as a topology::NumaHintProvider, so NodeNUMAResource's topology
// manager merges the NUMA sets that can hold the pod's devices with its own
// CPU and memory hints (Koordinator's DeviceShare implements
// NUMATopologyHintProvider directly: GetPodTopologyHints + Allocate).
//
// The Framework builds a profile's plugins independently and in any order, so
// the adapter is made first and told its DeviceShare once that exists
// (attach). Until then, and for pods that ask for no device, it has no
// preference. Attach before scheduling starts; the adapter is read-only after.

#include <memory>

#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "plugins/topology_manager/hint_provider.hpp"

namespace troupe::plugins::deviceshare {

/// DeviceShare's hints keyed by device type ("gpu", "rdma", "fpga") in the
/// topology manager's shape (the fields are the same).
topology::NumaHints to_topology_hints(const NumaHints& hints);

class DeviceShareNumaHints final : public topology::NumaHintProvider {
 public:
  DeviceShareNumaHints() = default;
  /// The profile's DeviceShare; it must outlive the adapter's use.
  void attach(const DeviceShare* plugin) { plugin_ = plugin; }
  const DeviceShare* attached() const { return plugin_; }

  PluginStatus numa_hints(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                          topology::NumaHints& out) const override;
  /// Whether the pod's devices fit on the node within the affinity (no
  /// scorer, as Filter and Koordinator's Allocate); changes nothing.
  PluginStatus try_allocate(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            const topology::NumaHint& affinity) const override;

 private:
  const DeviceShare* plugin_ = nullptr;
};

}  // namespace troupe::plugins::deviceshare
