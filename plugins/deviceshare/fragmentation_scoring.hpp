#pragma once
// DeviceShare's Fragmentation scoring strategy on the scheduler's state: the
// node score and the shared-card choice of fragmentation_policy.hpp, read
// from a NodeInfo (free CPU and memory) and its NodeDevices (free milli-GPU
// per healthy card), for the pod's requests.
//
// Unlike LeastAllocated/MostAllocated this strategy also scores pods that ask
// for no device: a CPU-only pod placed on a GPU node can strand its idle GPUs
// (no CPU left for GPU tasks), and the measure sees that.
//
// Scores: the raw score carries the policy score (0..100) above a 32-bit
// tie-break order (higher = preferred: a node without GPU cards first, then
// by tie_break_rank), so equal policy scores still have a single best node
// among GPU nodes; normalize_fragmentation_scores maps
// them back into 0..100 keeping that best node strictly first. The
// distribution is either configured (args.scoringStrategy.taskClasses: the
// task-size mix the cluster expects; troupe replay derives it from the
// trace's pods, as the FGD method does) or learned from the pods the
// scheduler sees (task_learner.hpp); DeviceShare resolves which one a cycle
// scores with (ScoringTasks).

#include <cstdint>
#include <optional>
#include <vector>

#include "plugins/deviceshare/deviceshare_args.hpp"
#include "plugins/deviceshare/device_share_request.hpp"
#include "plugins/deviceshare/fragmentation.hpp"
#include "plugins/deviceshare/node_devices.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins::deviceshare {

/// The distribution one cycle scores with, and its id in the score memo:
/// 0 = the args' own (configured taskClasses, or the learned strategy's prior),
/// else the LearnedTasks snapshot's id (unique in the process).
struct ScoringTasks {
  const TaskDistribution* tasks = nullptr;
  uint64_t id = 0;
};

/// The node as the measure reads it; card i of `free` is GPU slot slots[i].
struct FragmentationNode {
  NodeGpuFree free;
  std::vector<uint32_t> slots;
};

/// Free CPU and memory from the NodeInfo; one card per healthy GPU slot with
/// its free koordinator.sh/gpu-core in milli-GPU (100 core = 1000 milli).
/// `devices` null or unknown: a node without cards.
FragmentationNode fragmentation_node(const NodeInfo& node, const NodeDevices* devices);

/// The pod's CPU and memory, and per card its gpu-core in milli-GPU times the
/// card count (`request` null or without GPU: CPU-only).
GpuRequest fragmentation_request(const PodInfo& pod, const DeviceShareRequest* request);

/// The raw score of the node (see the header comment); 0 when the request
/// cannot be placed on the node's cards (Filter rejects such nodes) or
/// `tasks` has no distribution.
int64_t fragmentation_raw_score(const NodeInfo& node, const NodeDevices* devices, const PodInfo& pod,
                                const DeviceShareRequest* request, const FragmentationArgs& args,
                                const ScoringTasks& tasks);

/// The policy score (0..100) inside a raw score.
inline int64_t policy_score_of(int64_t raw) { return raw >> 32; }

/// Maps raw scores to 0..100: the highest raw gets min(policy + 1, 100), all
/// others min(policy, 99); so the best node stays strictly first and the rest
/// keep the policy's scale for the other score plugins to mix with.
void normalize_fragmentation_scores(std::vector<int64_t>& scores);

/// For a shared one-card request: the GPU slot mask (bit i = slots[i]) of the
/// card the measure chose on this node; nullopt otherwise (whole cards leave
/// the same state whichever free cards are taken, so the allocator picks).
/// Reserve runs after the pod was assumed on the NodeInfo: `pod_assumed`
/// gives its CPU and memory back first, so the choice is Score's.
std::optional<uint64_t> fragmentation_card_mask(const NodeInfo& node, const NodeDevices* devices, const PodInfo& pod,
                                                const DeviceShareRequest* request, const FragmentationArgs& args,
                                                const ScoringTasks& tasks, bool pod_assumed);

}  // namespace troupe::plugins::deviceshare
