#include "watch/pod_group_writes.hpp"

#include <algorithm>

#include "watch/object_writes.hpp"

namespace troupe::watch {

namespace {

using Value = rapidjson::Value;

int64_t int_member(const Value& object, const char* key) {
  auto it = object.FindMember(key);
  return it != object.MemberEnd() && it->value.IsInt64() ? it->value.GetInt64() : 0;
}

std::string string_member(const Value& object, const char* key) {
  auto it = object.FindMember(key);
  return it != object.MemberEnd() && it->value.IsString() ? it->value.GetString() : "";
}

void set_member(Value& object, const char* key, Value value, rapidjson::Document::AllocatorType& alloc) {
  auto it = object.FindMember(key);
  if (it != object.MemberEnd()) {
    it->value = std::move(value);
    return;
  }
  object.AddMember(Value(key, alloc), std::move(value), alloc);
}

}  // namespace

std::string pod_group_path(const std::string& ns, const std::string& name) {
  return object_path("/apis/scheduling.sigs.k8s.io/v1alpha1", "podgroups", ns, name);
}

ApiResult patch_pod_group_status(ApiClient& api, const PodGroupProgress& progress, const CancelToken* cancel) {
  // Writes of one PodGroup may reach the server out of order (several I/O
  // threads): merge rather than overwrite, so the count only grows and
  // Scheduled is never taken back by a late Scheduling.
  auto mutate = [&progress](rapidjson::Document& object) {
    auto& alloc = object.GetAllocator();
    if (!object.HasMember("status") || !object["status"].IsObject())
      set_member(object, "status", Value(rapidjson::kObjectType), alloc);
    Value& status = object["status"];
    const int64_t scheduled = std::max<int64_t>(int_member(status, "scheduled"), progress.scheduled);
    const bool was_scheduled = string_member(status, "phase") == "Scheduled";
    const std::string phase = was_scheduled ? "Scheduled" : progress.phase;
    const bool start_known = !string_member(status, "scheduleStartTime").empty();
    if (scheduled == int_member(status, "scheduled") && phase == string_member(status, "phase") &&
        (start_known || !progress.schedule_start_time))
      return false;  // nothing new
    set_member(status, "phase", Value(phase.c_str(), alloc), alloc);
    set_member(status, "scheduled", Value(scheduled), alloc);
    if (!start_known && progress.schedule_start_time)
      set_member(status, "scheduleStartTime", Value(format_timestamp(*progress.schedule_start_time).c_str(), alloc),
                 alloc);
    return true;
  };
  return update_status(api, pod_group_path(progress.ns, progress.name), mutate, 5, cancel);
}

}  // namespace troupe::watch
