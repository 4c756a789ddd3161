#pragma once
// What the scheduler writes back on an ElasticQuota, as Koordinator's
// ElasticQuota controller does (updateElasticQuotaStatusIfChanged): the
// figures of the QuotaBook as annotations (quota.scheduling.koordinator.sh/
// runtime, /request, /non-preemptible-used: ResourceList JSON) and
// `status.used`, written only when they differ from what the object holds
// (zero amounts ignored). The writing is the quota status actor's
// (actors/quota_status_actor.hpp).

#include <optional>
#include <string>
#include <vector>

#include "model/elastic_quota.hpp"
#include "plugins/elastic_quota/quota_book.hpp"

namespace troupe::plugins::elastic_quota {

inline constexpr const char* kAnnotationRuntime = "quota.scheduling.koordinator.sh/runtime";
inline constexpr const char* kAnnotationRequest = "quota.scheduling.koordinator.sh/request";
inline constexpr const char* kAnnotationNonPreemptibleUsed = "quota.scheduling.koordinator.sh/non-preemptible-used";

/// The merge patch that brings `current` to `figures`; nullopt when it holds them already.
std::optional<std::string> quota_status_patch(const ElasticQuota& current, const QuotaUsage& figures);

/// A ResourceList as Go's encoding/json writes it: {"cpu":"3","memory":"1Gi"}.
std::string resource_list_json(const ResourceAmounts& amounts);

/// An ElasticQuota Koordinator's scheduler creates when it is missing.
struct BuiltinQuotaObject {
  std::string name;
  std::string body;  // the object, as JSON
};

/// The system and default quotas (spec.max, and the runtime annotation, set
/// to their max) and the root (is-parent, not lending, no parent), in `ns`
/// (ElasticQuotaArgs quotaGroupNamespace).
std::vector<BuiltinQuotaObject> builtin_quota_objects(const std::string& ns, const ResourceList& system_max,
                                                      const ResourceList& default_max);

}  // namespace troupe::plugins::elastic_quota
