#include "watch/pod_group_writes.hpp"

#include "model/json.hpp"
#include "watch/object_writes.hpp"

namespace troupe::watch {

namespace {

using Value = rapidjson::Value;
using Allocator = rapidjson::Document::AllocatorType;

/// Sets object[key] = value, in place when present.
void set_value(Value& object, const char* key, Value value, Allocator& alloc) {
  auto it = object.FindMember(key);
  if (it == object.MemberEnd())
    object.AddMember(Value(key, alloc), std::move(value), alloc);
  else
    it->value = std::move(value);
}

/// A string field; "" is left out.
void set_string(Value& object, const char* key, const std::string& value, Allocator& alloc) {
  if (value.empty())
    object.RemoveMember(key);
  else
    set_value(object, key, Value(value.c_str(), alloc), alloc);
}

/// A count; 0 is left out.
void set_count(Value& object, const char* key, int64_t value, Allocator& alloc) {
  if (value == 0)
    object.RemoveMember(key);
  else
    set_value(object, key, Value(value), alloc);
}

void write_status(rapidjson::Document& object, const PodGroupStatus& status) {
  auto& alloc = object.GetAllocator();
  if (!object.HasMember("status") || !object["status"].IsObject()) {
    object.RemoveMember("status");
    object.AddMember("status", Value(rapidjson::kObjectType), alloc);
  }
  Value& out = object["status"];
  set_string(out, "phase", status.phase, alloc);
  set_count(out, "scheduled", status.scheduled, alloc);
  set_count(out, "running", status.running, alloc);
  set_count(out, "succeeded", status.succeeded, alloc);
  set_count(out, "failed", status.failed, alloc);
  set_string(out, "occupiedBy", status.occupied_by, alloc);
  set_string(out, "scheduleStartTime",
             status.schedule_start_time ? format_timestamp(*status.schedule_start_time) : std::string(), alloc);
}

}  // namespace

std::string pod_group_path(const std::string& ns, const std::string& name) {
  return object_path("/apis/scheduling.sigs.k8s.io/v1alpha1", "podgroups", ns, name);
}

ApiResult write_pod_group_status(ApiClient& api, const std::string& ns, const std::string& name,
                                 const PodGroupStatusDecision& decide, std::atomic<bool>* status_subresource,
                                 const CancelToken* cancel) {
  auto mutate = [&decide](rapidjson::Document& object) {
    auto current = decode_pod_group(copy_document(object));
    if (!current) return false;
    auto status = decide(*current);
    if (!status) return false;
    write_status(object, *status);
    return true;
  };
  const std::string path = pod_group_path(ns, name);
  const bool via_status = status_subresource == nullptr || status_subresource->load();
  if (via_status) {
    ApiResult result = update_status(api, path, mutate, 5, cancel);
    if (result.code != 404) return result;
  }
  // Gone, or a CRD without the status subresource: the object itself tells.
  ApiResult result = update_object(api, path, mutate, 5, cancel);
  if (via_status && result.ok && status_subresource != nullptr) status_subresource->store(false);
  return result;
}

}  // namespace troupe::watch
