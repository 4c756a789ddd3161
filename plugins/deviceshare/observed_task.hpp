#pragma once
// A pod as the learned task distribution counts it (task_learner.hpp): its
// CPU and memory requests, its GPU request as the Fragmentation score reads
// it (fragmentation_request: per-card milli-GPU and card count from the same
// DeviceShare request PreFilter builds), and the card models it may use
// (node.koordinator.sh/gpu-model in its nodeSelector or required node
// affinity).

#include <optional>

#include "plugins/deviceshare/device_share_request.hpp"
#include "plugins/deviceshare/task_learner.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins::deviceshare {

/// nullopt for a pod whose device request DeviceShare rejects (PreFilter
/// makes it unschedulable, so it is no task to keep room for). A pod without
/// devices is a CPU-only task.
std::optional<ObservedTask> observed_task(const PodInfo& pod, const TemplatePolicy& templates);

/// The card models a pod is restricted to: its nodeSelector's gpu-model, else
/// the union of the In values on gpu-model over the required node affinity's
/// terms when every term has one (terms are ORed: one term without it leaves
/// the pod free). Empty = any model.
std::vector<std::string> gpu_models_of(const Pod& pod);

}  // namespace troupe::plugins::deviceshare
