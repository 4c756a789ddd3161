#pragma once
// The QUOTA STATUS actor: Koordinator's ElasticQuota controller inside
// `troupe scheduler` (elasticquota/controller.go), for the profiles that run
// ElasticQuota. Every `period` (1 s, as Koordinator's), while this replica
// leads and its list of ElasticQuotas is complete, it asks the SCHEDULING
// CYCLE for every quota's figures (its QuotaBook) and merge-patches the
// quotas whose runtime, request, non-preemptible-used annotations or
// status.used differ (plugins/elastic_quota/quota_status.hpp), one write per
// quota in flight, on the I/O TaskPool. It also keeps Koordinator's gauges
// scheduler_elastic_quota_status{name,resource,tree,is_parent,parent,field}
// (runtime, request, used, non-preemptible-used) and
// scheduler_elastic_quota_spec{...,field} (min, max, sharedWeight).
//
// With ElasticQuotaArgs monitorAllQuotas it is also Koordinator's
// QuotaOverUsedRevokeController: every revokePodInterval, while leading, the
// cycle names the placed pods of quotas over their runtime for longer than
// delayEvictTime (plugins/elastic_quota/overuse_revoke.hpp), and they are
// evicted (pods/eviction, so PodDisruptionBudgets hold).
//
// When it first leads with its list complete, it creates the system, default
// and root quotas that do not exist yet in quotaGroupNamespace, as
// Koordinator's scheduler does at start (plugins/elastic_quota/quota_status.hpp).

#include <atomic>
#include <chrono>
#include <memory>

#include <caf/all.hpp>

#include "actors/cycle_actor.hpp"
#include "actors/metrics_registry.hpp"
#include "actors/shared_reflectors.hpp"
#include "model/result.hpp"
#include "plugins/elastic_quota/elastic_quota_plugin.hpp"
#include "watch/api_client.hpp"
#include "watch/task_pool.hpp"

namespace troupe::actors {

struct QuotaStatusDeps {
  caf::actor_system* system = nullptr;
  std::shared_ptr<watch::ApiClient> api;
  std::shared_ptr<watch::TaskPool> io;
  /// The scheduler leads (leader election): writes only then.
  std::shared_ptr<std::atomic<bool>> leading;
  /// The scheduler's informers have synced nodes and pods: before that the
  /// cycle's figures are partial (runtime near 0, used too low), so nothing is
  /// written or revoked (Koordinator syncs them before its controllers start).
  std::shared_ptr<std::atomic<bool>> ready;
  cycle_actor cycle;
  std::shared_ptr<MetricsRegistry> metrics;  // may be null
  /// Where the actor subscribes to elasticquotas (started by the caller once
  /// everyone subscribed, stopped before stop()).
  SharedReflectors* reflectors = nullptr;
  std::chrono::milliseconds period{1000};
  /// The first profile's that runs ElasticQuota: the overuse revoke, and the
  /// quotas created when missing.
  plugins::elastic_quota::ElasticQuotaArgs args;
};

/// Owns the quota status actor.
class QuotaStatusController {
 public:
  static Result<std::unique_ptr<QuotaStatusController>> start(QuotaStatusDeps deps);
  ~QuotaStatusController();  // stop()
  /// Stops the actor. Idempotent; call before the actor system goes.
  void stop();

 private:
  QuotaStatusController() = default;
  caf::actor actor_;
};

}  // namespace troupe::actors
