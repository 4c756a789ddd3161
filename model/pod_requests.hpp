#pragma once
// What a pod asks of a node, computed exactly as kube-scheduler does:
// k8s.io/component-helpers/resource PodRequests / PodLimits (sidecar-aware:
// restartable init containers run alongside the app containers; for a Pod,
// with UseStatusResources, as kube-scheduler runs with InPlacePodVerticalScaling
// on by default since Kubernetes 1.33: a pod being resized in place needs the
// most of its spec and what the kubelet reports in containerStatuses), the
// "non-zero" requests used for scoring, the QoS class (ComputePodQOS) and the
// pod priority.

#include <cstdint>
#include <string>

#include "model/pod.hpp"

namespace troupe {

/// Defaults scoring substitutes for a container's missing cpu / memory
/// request (schedutil.DefaultMilliCPURequest / DefaultMemoryRequest).
inline constexpr int64_t kDefaultMilliCpuRequest = 100;
inline constexpr int64_t kDefaultMemoryRequest = 200 * 1024 * 1024;

struct PodResourcesOptions {
  /// Leave spec.overhead out.
  bool exclude_overhead = false;
  /// Ignore spec.resources (pod-level resources). kube-scheduler honours
  /// them when the PodLevelResources gate is on; the API server only keeps
  /// the field when it is, so they are used by default.
  bool skip_pod_level_resources = false;
  /// Per-container values used where a container has no request for that
  /// resource at all (an explicit 0 stays 0). Empty: none.
  ResourceList non_missing_container_requests;
};

/// PodRequests: max(sum of app containers + sidecars, the peak of each init
/// container together with the sidecars started before it), then pod-level
/// overrides for cpu / memory / hugepages-*, plus overhead.
ResourceList pod_requests(const PodSpec& spec, const PodResourcesOptions& options = {});
/// pod_requests with the kubelet's view: per resource, the most of the spec,
/// the containers' allocatedResources and their status resources.requests
/// (only those two when the PodResizePending condition says Infeasible). The
/// status's pod-level resources (an alpha feature) are not read.
ResourceList pod_requests(const Pod& pod, const PodResourcesOptions& options = {});

/// pod_requests with cpu 100m and memory 200Mi for containers that request
/// none: the figures NodeResourcesFit / BalancedAllocation score with.
ResourceList pod_non_zero_requests(const PodSpec& spec);
ResourceList pod_non_zero_requests(const Pod& pod);

/// PodLimits: the same aggregation over limits; overhead is added only to
/// resources that have a non-zero limit.
ResourceList pod_limits(const PodSpec& spec, const PodResourcesOptions& options = {});
/// pod_limits with the containers' status resources.limits (the most of them
/// and the spec's; only the status when a resize is infeasible).
ResourceList pod_limits(const Pod& pod, const PodResourcesOptions& options = {});

/// The PodResizePending condition's reason is Infeasible (IsPodResizeInfeasible).
bool pod_resize_infeasible(const PodStatus& status);

enum class QosClass { guaranteed, burstable, best_effort };

/// "Guaranteed", "Burstable", "BestEffort".
const char* to_string(QosClass qos);

/// ComputePodQOS: from pod-level resources when spec.resources is set,
/// otherwise per container (init and app): a container is BestEffort with no
/// cpu/memory requests or limits, Guaranteed when cpu and memory requests
/// equal limits, Burstable otherwise; mixed containers make the pod Burstable.
QosClass compute_qos(const PodSpec& spec);

/// GetPodQOS: status.qosClass when the kubelet/API server set it, else computed.
QosClass pod_qos(const Pod& pod);

/// spec.priority, 0 when unset (corev1helpers.PodPriority).
int32_t pod_priority(const PodSpec& spec);

}  // namespace troupe
