#pragma once
// Coscheduling's writes to a PodGroup (scheduling.sigs.k8s.io/v1alpha1): its
// status as members are bound, as Koordinator's PostBind keeps it. Blocking;
// run on the I/O TaskPool.

#include <cstdint>
#include <optional>
#include <string>

#include "model/timestamp.hpp"
#include "watch/api_client.hpp"

namespace troupe::watch {

struct PodGroupProgress {
  std::string ns;
  std::string name;
  std::string phase;       // "Scheduling" until minMember are bound, then "Scheduled"
  int32_t scheduled = 0;   // members bound
  /// When the gang started being placed: written only where none is set yet.
  std::optional<Timestamp> schedule_start_time;
};

/// "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/<ns>/podgroups/<name>".
std::string pod_group_path(const std::string& ns, const std::string& name);

/// Read-modify-write of podgroups/<name>/status: phase, scheduled and
/// scheduleStartTime (when given and not set yet), never going back (a late
/// write of an earlier progress changes nothing). A 404: the PodGroup is gone.
ApiResult patch_pod_group_status(ApiClient& api, const PodGroupProgress& progress, const CancelToken* cancel = nullptr);

}  // namespace troupe::watch
