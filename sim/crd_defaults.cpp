#include "sim/crd_defaults.hpp"

namespace troupe::sim {

namespace {

/// Sets `key` of `object` to `value` when absent or null (the API server prunes
/// a null of a non-nullable field before defaulting it).
void default_field(rapidjson::Value& object, const char* key, rapidjson::Value value,
                   rapidjson::Document::AllocatorType& alloc) {
  auto it = object.FindMember(key);
  if (it != object.MemberEnd() && !it->value.IsNull()) return;
  if (it != object.MemberEnd()) object.RemoveMember(it);
  object.AddMember(rapidjson::StringRef(key), value, alloc);
}

void default_reservation_spec(rapidjson::Document& doc) {
  auto spec = doc.FindMember("spec");
  if (spec == doc.MemberEnd() || !spec->value.IsObject()) return;
  auto& alloc = doc.GetAllocator();
  default_field(spec->value, "ttl", rapidjson::Value("24h"), alloc);
  default_field(spec->value, "allocateOnce", rapidjson::Value(true), alloc);
}

}  // namespace

void apply_crd_defaults(const ResourceInfo& r, rapidjson::Document& doc) {
  if (r.group == "scheduling.koordinator.sh" && r.kind == "Reservation") default_reservation_spec(doc);
}

}  // namespace troupe::sim
