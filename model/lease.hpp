#pragma once
// coordination.k8s.io/v1 Lease, the lock of leader election. Times are
// MicroTime on the wire; the election itself never trusts them (it measures
// with the local clock when the record last changed).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/object_meta.hpp"
#include "model/result.hpp"
#include "model/timestamp.hpp"

namespace troupe {

struct LeaseSpec {
  /// nullopt: no holder field; "" : released.
  std::optional<std::string> holder_identity;
  std::optional<int32_t> lease_duration_seconds;
  std::optional<Timestamp> acquire_time;
  std::optional<Timestamp> renew_time;
  std::optional<int32_t> lease_transitions;
};

struct Lease {
  ObjectMeta meta;
  LeaseSpec spec;
  JsonPtr raw;
};

Result<Lease> decode_lease(JsonPtr doc);
Result<Lease> decode_lease_json(std::string_view text);
std::shared_ptr<JsonDocument> to_document(const Lease& lease);
std::string encode(const Lease& lease);

TROUPE_DECLARE_JSON_FIELDS(LeaseSpec)
TROUPE_DECLARE_JSON_FIELDS(Lease)

}  // namespace troupe
