#include "model/lease.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kLeaseKind{"coordination.k8s.io/v1", "Lease"};

template <class Io, class T>
void lease_spec_fields(Io& io, T& x) {
  io.field("holderIdentity", x.holder_identity);
  io.field("leaseDurationSeconds", x.lease_duration_seconds);
  io.micro_time("acquireTime", x.acquire_time);
  io.micro_time("renewTime", x.renew_time);
  io.field("leaseTransitions", x.lease_transitions);
}

template <class Io, class T>
void lease_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.object("spec", x.spec);
}

}  // namespace

TROUPE_JSON_FIELDS(LeaseSpec, lease_spec_fields)
TROUPE_JSON_FIELDS(Lease, lease_fields)

Result<Lease> decode_lease(JsonPtr doc) { return decode_object<Lease>(doc, kLeaseKind); }

Result<Lease> decode_lease_json(std::string_view text) { return decode_object_text<Lease>(text, kLeaseKind); }

std::shared_ptr<JsonDocument> to_document(const Lease& lease) { return encode_document(lease, kLeaseKind); }

std::string encode(const Lease& lease) { return to_json(*to_document(lease)); }

}  // namespace troupe
