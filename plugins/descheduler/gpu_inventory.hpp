#pragma once
// What GPU defragmentation needs to know of the cluster, read from the
// objects the migration actor watches: each node's cards from its Device
// (koordlet's report: minor, health, gpu-core and gpu-memory totals) with
// the pods on them from their `scheduling.koordinator.sh/device-allocated`
// annotations (what the scheduler wrote when binding), and how many whole
// cards a pending pod asks for (DeviceShare's request normalisation).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/device.hpp"
#include "model/pod.hpp"
#include "plugins/descheduler/gpu_defrag.hpp"

namespace troupe::plugins::descheduler {

/// The node's GPU cards (by minor) and their users. Pods whose annotation
/// does not decode are left out (the scheduler reports them); GPU entries
/// for minors the Device does not list are ignored (the card is gone).
GpuNode gpu_node_from(const std::string& node_name, const Device& device,
                      const std::vector<std::shared_ptr<const Pod>>& pods);

/// Whole cards the pod asks for (nvidia.com/gpu: N, or koordinator.sh/gpu
/// a multiple of 100); nullopt for shared requests, pods without a GPU
/// request and requests DeviceShare would reject.
std::optional<int32_t> whole_gpu_request(const Pod& pod);

/// The pod holds a share of at least one card and no whole card: the kind
/// of pod defragmentation moves. Pods that hold whole cards stay.
bool holds_only_gpu_shares(const Pod& pod);

}  // namespace troupe::plugins::descheduler
