#pragma once
// Lease reads and writes for leader election (coordination.k8s.io/v1,
// k8s-protocol.md §7). The election loop itself (who renews when) belongs to
// the caller; these are its three primitives.
//
// A 409 on update_lease is the lock doing its job — another candidate wrote
// first — so it is returned, never retried (re-reading and writing again would
// overwrite the winner). Each call makes a single attempt with a short
// timeout: the election loop retries every retryPeriod anyway.

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "watch/api_client.hpp"

namespace troupe::watch {

struct LeaseRecord {
  std::string ns;
  std::string name;
  std::string holder_identity;        // "" = released
  int lease_duration_seconds = 15;
  std::string acquire_time;           // MicroTime, see format_micro_time()
  std::string renew_time;             // MicroTime
  int lease_transitions = 0;
  std::string resource_version;       // as read; update_lease sends it as the precondition
  /// Kept as read and written back, as client-go's LeaseLock updates the
  /// object it read: a renewal must not drop what others put on the lease.
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
  std::string preferred_holder;       // spec.preferredHolder (coordinated leader election)
  std::string strategy;               // spec.strategy
};

struct LeaseResult {
  ApiResult api;
  std::optional<LeaseRecord> lease;   // the lease as the server now has it, when api.ok
};

/// GET; a missing lease is api.code == 404 with no lease.
LeaseResult get_lease(ApiClient& api, const std::string& ns, const std::string& name,
                      std::chrono::milliseconds timeout = std::chrono::seconds(5), const CancelToken* cancel = nullptr);

/// POST; 409 AlreadyExists if someone created it first.
LeaseResult create_lease(ApiClient& api, const LeaseRecord& lease,
                         std::chrono::milliseconds timeout = std::chrono::seconds(5),
                         const CancelToken* cancel = nullptr);

/// PUT with lease.resource_version; 409 Conflict if it changed since it was read.
LeaseResult update_lease(ApiClient& api, const LeaseRecord& lease,
                         std::chrono::milliseconds timeout = std::chrono::seconds(5),
                         const CancelToken* cancel = nullptr);

/// The JSON a create/update sends; exposed for tests.
std::string lease_body(const LeaseRecord& lease);
std::string lease_path(const std::string& ns, const std::string& name);

}  // namespace troupe::watch
