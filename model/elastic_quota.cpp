#include "model/elastic_quota.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kElasticQuotaKind{"scheduling.sigs.k8s.io/v1alpha1", "ElasticQuota"};

template <class Io, class T>
void elastic_quota_spec_fields(Io& io, T& x) {
  io.field("min", x.min);
  io.field("max", x.max);
}

template <class Io, class T>
void elastic_quota_status_fields(Io& io, T& x) {
  io.field("used", x.used);
}

template <class Io, class T>
void elastic_quota_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.object("spec", x.spec);
  io.object("status", x.status);
}

}  // namespace

TROUPE_JSON_FIELDS(ElasticQuotaSpec, elastic_quota_spec_fields)
TROUPE_JSON_FIELDS(ElasticQuotaStatus, elastic_quota_status_fields)
TROUPE_JSON_FIELDS(ElasticQuota, elastic_quota_fields)

Result<ElasticQuota> decode_elastic_quota(JsonPtr doc) { return decode_object<ElasticQuota>(doc, kElasticQuotaKind); }

Result<ElasticQuota> decode_elastic_quota_json(std::string_view text) {
  return decode_object_text<ElasticQuota>(text, kElasticQuotaKind);
}

}  // namespace troupe
