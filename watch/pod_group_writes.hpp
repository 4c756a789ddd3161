#pragma once
// Writes to a PodGroup (scheduling.sigs.k8s.io/v1alpha1): its status, as
// Koordinator's PodGroup controller keeps it (the POD GROUP actor decides it,
// plugins/coscheduling/pod_group_status.hpp). Blocking; run on the I/O TaskPool.

#include <string>

#include "model/pod_group.hpp"
#include "watch/api_client.hpp"

namespace troupe::watch {

/// "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/<ns>/podgroups/<name>".
std::string pod_group_path(const std::string& ns, const std::string& name);

/// Read-modify-write of podgroups/<name>/status: phase and the counts
/// (scheduled, running, succeeded, failed) become `status`'s. What the server
/// holds wins where a late write must not undo it: a Finished or Failed group
/// is left alone, and a scheduleStartTime or occupiedBy already set is kept.
/// Nothing is sent when nothing would change. A 404: the PodGroup is gone.
ApiResult write_pod_group_status(ApiClient& api, const std::string& ns, const std::string& name,
                                 const PodGroupStatus& status, const CancelToken* cancel = nullptr);

}  // namespace troupe::watch
