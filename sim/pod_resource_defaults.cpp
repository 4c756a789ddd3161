#include "sim/pod_resource_defaults.hpp"

namespace troupe::sim {

namespace {

void default_container(rapidjson::Value& container, rapidjson::Document::AllocatorType& alloc) {
  if (!container.IsObject()) return;
  auto resources = container.FindMember("resources");
  if (resources == container.MemberEnd() || !resources->value.IsObject()) return;
  auto limits = resources->value.FindMember("limits");
  if (limits == resources->value.MemberEnd() || !limits->value.IsObject() || limits->value.ObjectEmpty()) return;
  auto requests = resources->value.FindMember("requests");
  if (requests == resources->value.MemberEnd()) {
    resources->value.AddMember("requests", rapidjson::Value(rapidjson::kObjectType), alloc);
    requests = resources->value.FindMember("requests");
    limits = resources->value.FindMember("limits");  // AddMember may have moved the members
  } else if (requests->value.IsNull()) {
    requests->value.SetObject();
  }
  if (!requests->value.IsObject()) return;
  for (auto& limit : limits->value.GetObject())
    if (!requests->value.HasMember(limit.name))
      requests->value.AddMember(rapidjson::Value(limit.name, alloc), rapidjson::Value(limit.value, alloc), alloc);
}

}  // namespace

void default_requests_from_limits(rapidjson::Document& pod) {
  auto spec = pod.FindMember("spec");
  if (spec == pod.MemberEnd() || !spec->value.IsObject()) return;
  auto& alloc = pod.GetAllocator();
  for (const char* list : {"initContainers", "containers"}) {
    auto containers = spec->value.FindMember(list);
    if (containers == spec->value.MemberEnd() || !containers->value.IsArray()) continue;
    for (auto& container : containers->value.GetArray()) default_container(container, alloc);
  }
}

}  // namespace troupe::sim
