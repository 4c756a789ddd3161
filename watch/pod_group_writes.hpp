#pragma once
// Writes to a PodGroup (scheduling.sigs.k8s.io/v1alpha1): its status, as
// Koordinator's PodGroup controller keeps it (the POD GROUP actor decides it,
// plugins/coscheduling/pod_group_status.hpp). Blocking; run on the I/O TaskPool.

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "model/pod_group.hpp"
#include "watch/api_client.hpp"

namespace troupe::watch {

/// "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/<ns>/podgroups/<name>".
std::string pod_group_path(const std::string& ns, const std::string& name);

/// The status to write, decided from the PodGroup as the server holds it;
/// nullopt when there is nothing to write.
using PodGroupStatusDecision = std::function<std::optional<PodGroupStatus>(const PodGroup& current)>;

/// Read-modify-write of a PodGroup's status: `decide` sees the object just
/// read (so a decision never rests on an older copy), and the status it
/// returns replaces phase, the counts (0 left out, as the API's omitempty),
/// occupiedBy and scheduleStartTime. Through /status; where the CRD has no
/// status subresource (Koordinator's own PodGroup CRD: the PUT to /status is a
/// 404 while the object exists), through the object itself, and
/// `status_subresource` (when given, shared by the writes of one process)
/// remembers that, so later writes go to the object at once. Retried on 409.
/// A 404: the PodGroup is gone. An object that does not decode is left alone.
ApiResult write_pod_group_status(ApiClient& api, const std::string& ns, const std::string& name,
                                 const PodGroupStatusDecision& decide,
                                 std::atomic<bool>* status_subresource = nullptr, const CancelToken* cancel = nullptr);

}  // namespace troupe::watch
