#pragma once
// Koordinator's QuotaOverUsedRevokeController (ElasticQuotaArgs
// monitorAllQuotas): a quota that lent what it did not use gets it back. When
// a quota's used stays above its runtime (another quota now asks for its
// share) for longer than delayEvictTime, enough of its placed pods are
// evicted, the least important first, to bring used within the runtime; of
// those, the most important that still fit are kept.

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "model/timestamp.hpp"
#include "plugins/elastic_quota/quota_book.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins::elastic_quota {

/// One quota's watch (QuotaOverUsedGroupMonitor).
class OveruseMonitor {
 public:
  using Clock = std::chrono::steady_clock;
  explicit OveruseMonitor(Clock::time_point since) : last_within_(since) {}

  /// True when `usage` has been over its runtime for longer than `delay`
  /// (the watch then starts again, so the next revoke waits another delay).
  bool due(const QuotaUsage& usage, Clock::time_point now, Clock::duration delay);

 private:
  Clock::time_point last_within_;  // the last time used was within the runtime
};

/// Whether `used` exceeds `runtime` in a resource the runtime names (quotav1.LessThanOrEqual).
bool over_runtime(const ResourceAmounts& used, const ResourceAmounts& runtime);

/// The pods to evict so that `used` fits `runtime` (getToRevokePodList):
/// the least important first (util.MoreImportantPod, then name) until it
/// fits, then those that can come back, most important first. All of them
/// when used cannot be brought within the runtime.
std::vector<std::shared_ptr<const PodInfo>> pods_to_revoke(const ResourceAmounts& used, const ResourceAmounts& runtime,
                                                           std::vector<std::shared_ptr<const PodInfo>> placed,
                                                           Timestamp now);

}  // namespace troupe::plugins::elastic_quota
