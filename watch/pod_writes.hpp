#pragma once
// The scheduler's writes to pods (k8s-protocol.md §1.1, §3.1, §6):
// binding, the PodScheduled status patch, eviction and deletion.
//
// All functions are thread-safe and blocking (run them on I/O threads, see
// TaskPool); they retry 429/5xx/lost connections per ApiClient and return an
// ApiResult, never throw.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "watch/api_client.hpp"
#include "watch/object_writes.hpp"

namespace troupe::watch {

struct BindRequest {
  std::string ns;
  std::string name;
  std::string uid;   // the pod's uid: a re-created pod of the same name is not bound by mistake
  std::string node;
  /// Copied onto the pod by the API server together with spec.nodeName, so
  /// allocation annotations need no separate patch (architecture.md).
  std::map<std::string, std::string> annotations;
};

/// POST pods/{name}/binding. A 409 (already bound, being deleted) is final and
/// returned — except when an earlier attempt of this same call got no answer
/// and the pod now turns out bound to the requested node: that attempt
/// succeeded, and the result says ok.
ApiResult bind_pod(ApiClient& api, const BindRequest& request, const CancelToken* cancel = nullptr);

/// Koordinator's DefaultPreBind: PreBind's annotations, merge-patched onto
/// the pod before its Binding (which then carries none). The patch names the
/// pod's uid, as Koordinator's PatchPodSafe does: a pod re-created under the
/// same name refuses it (metadata.uid is immutable) rather than taking the old
/// pod's allocation. Nothing to write sends nothing. The answer is the patched
/// pod: one with a deletionTimestamp fails with "pod is being deleted", since
/// the API server takes a patch to a pod on its way out and binding it would
/// hold its room for nothing.
ApiResult annotate_pod_before_binding(ApiClient& api, const std::string& ns, const std::string& name,
                                      const std::string& uid, const std::map<std::string, std::string>& annotations,
                                      const CancelToken* cancel = nullptr);

struct PodCondition {
  std::string type = "PodScheduled";
  std::string status = "False";
  std::string reason = "Unschedulable";  // or "SchedulerError"
  std::string message;
  std::chrono::system_clock::time_point last_transition_time = std::chrono::system_clock::now();
};

/// Strategic-merge patch of pods/{name}/status: the condition is merged into
/// status.conditions by type (other conditions untouched). nominated_node_name:
/// nullopt leaves it alone, "" clears it, a name sets it. At least one of the
/// two must be given.
ApiResult patch_pod_status(ApiClient& api, const std::string& ns, const std::string& name,
                           const std::optional<PodCondition>& condition,
                           const std::optional<std::string>& nominated_node_name, const CancelToken* cancel = nullptr);

/// The pod a failed attempt read: its condition is written only to that pod,
/// while it is still unbound.
struct UnschedulablePod {
  std::string ns;
  std::string name;
  std::string uid;
  std::string resource_version;  // the version the attempt read
};

/// Sets the PodScheduled=False condition of a pod a scheduling attempt could
/// not place. The reports go out on I/O threads while the pod is tried again,
/// so one could land after a later attempt's Binding and mark a running pod
/// unschedulable for good: the patch carries the version the attempt read
/// (409 when the pod changed), and on a conflict the pod is read again and
/// written only while it is unbound, not being deleted and not already
/// carrying the condition. A pod bound, replaced or gone answers ok with
/// nothing written (`written` false).
struct ConditionReport {
  ApiResult result;
  bool written = false;
};
ConditionReport report_unschedulable(ApiClient& api, const UnschedulablePod& pod, const PodCondition& condition,
                                     const CancelToken* cancel = nullptr);

/// POST pods/{name}/eviction (policy/v1). A 429 without Retry-After means a
/// PodDisruptionBudget blocks it: returned at once, not retried.
ApiResult evict_pod(ApiClient& api, const std::string& ns, const std::string& name,
                    std::optional<std::int64_t> grace_period_seconds = std::nullopt, const CancelToken* cancel = nullptr);

/// DELETE pods/{name} with DeleteOptions (delete_object). The preconditions
/// make it fail with 409 if the pod was replaced or changed since it was chosen.
ApiResult delete_pod(ApiClient& api, const std::string& ns, const std::string& name,
                     const DeletePreconditions& preconditions = {},
                     std::optional<std::int64_t> grace_period_seconds = std::nullopt,
                     const CancelToken* cancel = nullptr);

/// "/api/v1/namespaces/{ns}/pods/{name}".
std::string pod_path(const std::string& ns, const std::string& name);

}  // namespace troupe::watch
