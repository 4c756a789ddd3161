#include "actors/undecodable_objects.hpp"

#include "model/json.hpp"
#include "model/json_edit.hpp"

namespace troupe::actors {

namespace {

using Allocator = rapidjson::Document::AllocatorType;

/// object[key] as an object, created (or replaced, when it is not one).
rapidjson::Value& object_member(rapidjson::Value& object, const char* key, Allocator& alloc) {
  auto it = object.FindMember(key);
  if (it == object.MemberEnd()) {
    object.AddMember(rapidjson::StringRef(key), rapidjson::Value(rapidjson::kObjectType), alloc);
    return object[key];
  }
  if (!it->value.IsObject()) it->value.SetObject();
  return it->value;
}

/// Replaces the condition of `type` in status.conditions (appends it when absent).
void set_condition(rapidjson::Value& status, const char* type, const std::string& message, Timestamp now,
                   Allocator& alloc) {
  auto it = status.FindMember("conditions");
  if (it == status.MemberEnd()) {
    status.AddMember("conditions", rapidjson::Value(rapidjson::kArrayType), alloc);
    it = status.FindMember("conditions");
  }
  if (!it->value.IsArray()) it->value.SetArray();
  rapidjson::Value condition(rapidjson::kObjectType);
  set_string(condition, "type", type, alloc);
  set_string(condition, "status", "False", alloc);
  set_string(condition, "reason", kReasonInvalid, alloc);
  set_string(condition, "message", message, alloc);
  set_string(condition, "lastProbeTime", format_timestamp(now), alloc);
  for (auto& existing : it->value.GetArray()) {
    if (get_string(existing, "type") != type) continue;
    // Already False: the transition happened then, not now.
    const std::string since = get_string(existing, "status") == "False" ? get_string(existing, "lastTransitionTime") : "";
    set_string(condition, "lastTransitionTime", since.empty() ? format_timestamp(now) : since, alloc);
    existing = std::move(condition);
    return;
  }
  set_string(condition, "lastTransitionTime", format_timestamp(now), alloc);
  it->value.PushBack(std::move(condition), alloc);
}

}  // namespace

std::string raw_phase(const rapidjson::Value& object) { return get_string(object, "status", "phase"); }

bool raw_pending(const rapidjson::Value& object) {
  const std::string phase = raw_phase(object);
  return phase.empty() || phase == "Pending";
}

bool raw_finished(const rapidjson::Value& object) {
  const std::string phase = raw_phase(object);
  return phase == "Succeeded" || phase == "Failed";
}

std::optional<Timestamp> raw_finished_at(const rapidjson::Value& object,
                                         std::initializer_list<const char*> condition_types) {
  const rapidjson::Value* conditions = find_path(object, "status", "conditions");
  std::optional<Timestamp> latest;
  for (const char* type : condition_types) {
    if (conditions == nullptr || !conditions->IsArray()) break;
    for (const auto& c : conditions->GetArray()) {
      if (get_string(c, "type") != type) continue;
      for (const char* field : {"lastTransitionTime", "lastProbeTime"})
        if (auto at = parse_timestamp(get_string(c, field)); at.ok() && (!latest || *at > *latest)) latest = *at;
    }
  }
  if (latest) return latest;
  if (auto created = parse_timestamp(get_string(object, "metadata", "creationTimestamp")); created.ok())
    return *created;
  return std::nullopt;
}

UndecodableObject undecodable_object(const rapidjson::Value& object, std::string message) {
  return {get_string(object, "metadata", "name"), get_string(object, "metadata", "uid"), std::move(message)};
}

bool mark_invalid(rapidjson::Document& object, const UndecodableObject& seen, const char* condition_type,
                  Timestamp now) {
  if (!object.IsObject() || get_string(object, "metadata", "uid") != seen.uid || !raw_pending(object)) return false;
  auto& alloc = object.GetAllocator();
  rapidjson::Value& status = object_member(object, "status", alloc);
  set_string(status, "phase", "Failed", alloc);
  if (condition_type != nullptr) {
    set_condition(status, condition_type, seen.message, now, alloc);
  } else {
    set_string(status, "reason", kReasonInvalid, alloc);
    set_string(status, "message", seen.message, alloc);
  }
  return true;
}

}  // namespace troupe::actors
