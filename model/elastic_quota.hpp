#pragma once
// ElasticQuota (scheduling.sigs.k8s.io/v1alpha1): a quota group of
// Koordinator's ElasticQuota plugin. `spec.min` is what the group is
// guaranteed, `spec.max` what it may use at most; the labels and annotations
// that place it in a tree and say how it shares are read by
// plugins/elastic_quota/quota_spec.hpp.

#include <memory>
#include <string>
#include <string_view>

#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/object_meta.hpp"
#include "model/resources.hpp"
#include "model/result.hpp"

namespace troupe {

struct ElasticQuotaSpec {
  ResourceList min;
  ResourceList max;
};

/// What its controller last wrote (Koordinator's scheduler writes `used`).
struct ElasticQuotaStatus {
  ResourceList used;
};

struct ElasticQuota {
  ObjectMeta meta;
  ElasticQuotaSpec spec;
  ElasticQuotaStatus status;
  JsonPtr raw;
};

Result<ElasticQuota> decode_elastic_quota(JsonPtr doc);
Result<ElasticQuota> decode_elastic_quota_json(std::string_view text);

TROUPE_DECLARE_JSON_FIELDS(ElasticQuotaSpec)
TROUPE_DECLARE_JSON_FIELDS(ElasticQuotaStatus)
TROUPE_DECLARE_JSON_FIELDS(ElasticQuota)

}  // namespace troupe
