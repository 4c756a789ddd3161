#include "watch/pod_group_writes.hpp"

#include "watch/object_writes.hpp"

namespace troupe::watch {

namespace {

using Value = rapidjson::Value;
using Allocator = rapidjson::Document::AllocatorType;

std::string string_member(const Value& object, const char* key) {
  auto it = object.FindMember(key);
  return it != object.MemberEnd() && it->value.IsString() ? it->value.GetString() : "";
}

/// Sets object[key] = value, in place when present; true if that changed it.
bool set_value(Value& object, const char* key, Value value, Allocator& alloc) {
  auto it = object.FindMember(key);
  if (it == object.MemberEnd()) {
    object.AddMember(Value(key, alloc), std::move(value), alloc);
    return true;
  }
  if (it->value == value) return false;
  it->value = std::move(value);
  return true;
}

bool set_string(Value& object, const char* key, const std::string& value, Allocator& alloc) {
  return set_value(object, key, Value(value.c_str(), alloc), alloc);
}

/// A count: 0 is left out, as the API's omitempty fields.
bool set_count(Value& object, const char* key, int64_t value, Allocator& alloc) {
  if (value == 0) return object.RemoveMember(key);
  return set_value(object, key, Value(value), alloc);
}

}  // namespace

std::string pod_group_path(const std::string& ns, const std::string& name) {
  return object_path("/apis/scheduling.sigs.k8s.io/v1alpha1", "podgroups", ns, name);
}

ApiResult write_pod_group_status(ApiClient& api, const std::string& ns, const std::string& name,
                                 const PodGroupStatus& status, const CancelToken* cancel) {
  auto mutate = [&status](rapidjson::Document& object) {
    auto& alloc = object.GetAllocator();
    if (!object.HasMember("status") || !object["status"].IsObject()) {
      object.RemoveMember("status");
      object.AddMember("status", Value(rapidjson::kObjectType), alloc);
    }
    Value& out = object["status"];
    const std::string phase = string_member(out, "phase");
    if (phase == "Finished" || phase == "Failed") return false;  // final (our own earlier write, seen late here)
    bool changed = set_string(out, "phase", status.phase, alloc);
    changed |= set_count(out, "scheduled", status.scheduled, alloc);
    changed |= set_count(out, "running", status.running, alloc);
    changed |= set_count(out, "succeeded", status.succeeded, alloc);
    changed |= set_count(out, "failed", status.failed, alloc);
    if (string_member(out, "occupiedBy").empty() && !status.occupied_by.empty())
      changed |= set_string(out, "occupiedBy", status.occupied_by, alloc);
    if (string_member(out, "scheduleStartTime").empty() && status.schedule_start_time)
      changed |= set_string(out, "scheduleStartTime", format_timestamp(*status.schedule_start_time), alloc);
    return changed;
  };
  return update_status(api, pod_group_path(ns, name), mutate, 5, cancel);
}

}  // namespace troupe::watch
