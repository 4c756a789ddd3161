#pragma once
// ElasticQuota's debug service (Koordinator's /quotas and /quota/<name>):
// what the book knows of a quota, as JSON with the field names of
// Koordinator's QuotaSummary (name, parentName, isParent, allowLentResource,
// max, min, sharedWeight, used, request, runtime), quantities as strings.

#include <optional>
#include <string>

#include "plugins/elastic_quota/quota_book.hpp"

namespace troupe::plugins::elastic_quota {

/// One quota's summary; nullopt for a quota the book does not know.
std::optional<std::string> quota_summary_json(QuotaBook& book, const std::string& name);
/// Every quota's, as an object keyed by name.
std::string quota_summaries_json(QuotaBook& book);

}  // namespace troupe::plugins::elastic_quota
