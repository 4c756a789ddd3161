#pragma once
// The verdict of allocate_devices (joint_allocator.hpp) for the common Filter
// case, without running the allocator. Filter asks every node for every pod,
// and most requests are plain GPU requests on nodes whose GPUs have neither a
// partition table nor a topology tree: then the allocator always ends in the
// per-device allocation (rdma_allocator.hpp) with no scorer, whose answer is
// only "are there `count` candidate cards with room for one card's request".
//
// The case, exactly (outside it the answer is nullopt and the caller runs the
// allocator):
//  - the request asks for GPUs only, without hints or joint allocation, and
//    names no requiredTopologyScope;
//  - the options carry no scorer, no NUMA restriction and every GPU slot;
//  - the node has GPU slots, no partition table (its Device's, or the Node's
//    built-in Hopper table) and no GPU topology tree; a whole-card request
//    must not honour partitions (else the allocator reports the missing table).
// Verdict: success when at least max(count, 1) candidate cards (listed by the
// Device, with free capacity) fit fill_gpu_memory(per card, card total) in
// their free amounts; otherwise Unschedulable "Insufficient gpu devices",
// the allocator's own status. test/plugins/deviceshare/gpu_quick_verdict_test.cpp
// checks both against the allocator on random nodes and requests.

#include <optional>

#include "plugins/deviceshare/allocation_view.hpp"

namespace troupe::plugins::deviceshare {

std::optional<PluginStatus> quick_gpu_verdict(const NodeDevices& node, const DeviceShareRequest& request,
                                              const AllocateOptions& options);

}  // namespace troupe::plugins::deviceshare
