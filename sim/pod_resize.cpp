#include "sim/pod_resize.hpp"

#include <set>
#include <string>
#include <vector>

#include "model/pod_requests.hpp"
#include "sim/object_rules.hpp"
#include "sim/stored_object.hpp"

namespace troupe::sim {

namespace {

using Alloc = rapidjson::Document::AllocatorType;

const rapidjson::Value* spec_list(const rapidjson::Value& pod, const char* list) {
  auto spec = pod.FindMember("spec");
  if (spec == pod.MemberEnd() || !spec->value.IsObject()) return nullptr;
  auto items = spec->value.FindMember(list);
  return items != spec->value.MemberEnd() && items->value.IsArray() ? &items->value : nullptr;
}

const rapidjson::Value* container_named(const rapidjson::Value* containers, const std::string& name) {
  if (containers == nullptr) return nullptr;
  for (const auto& c : containers->GetArray())
    if (c.IsObject() && string_at(c, "name") == name) return &c;
  return nullptr;
}

/// container.resources.<side> (null when absent).
const rapidjson::Value* side_of(const rapidjson::Value& container, const char* side) {
  auto resources = container.FindMember("resources");
  if (resources == container.MemberEnd() || !resources->value.IsObject()) return nullptr;
  auto list = resources->value.FindMember(side);
  return list != resources->value.MemberEnd() && list->value.IsObject() ? &list->value : nullptr;
}

const rapidjson::Value* amount_of(const rapidjson::Value* list, const std::string& name) {
  if (list == nullptr) return nullptr;
  auto it = list->FindMember(name.c_str());
  return it == list->MemberEnd() ? nullptr : &it->value;
}

bool is_cpu_or_memory(const std::string& name) { return name == "cpu" || name == "memory"; }

/// What ValidatePodResize refuses in one container's resources: a cpu or
/// memory request or limit removed, any other resource changed.
void check_container(const rapidjson::Value& old, const rapidjson::Value& written, const std::string& path,
                     std::vector<StatusCause>& causes, bool& other_changed) {
  for (const char* side : {"requests", "limits"}) {
    const rapidjson::Value* before = side_of(old, side);
    const rapidjson::Value* after = side_of(written, side);
    std::set<std::string> names;
    for (const auto* list : {before, after})
      if (list != nullptr)
        for (const auto& m : list->GetObject()) names.insert(m.name.GetString());
    for (const std::string& name : names) {
      const rapidjson::Value* was = amount_of(before, name);
      const rapidjson::Value* now = amount_of(after, name);
      if (is_cpu_or_memory(name)) {
        if (was != nullptr && now == nullptr)
          causes.push_back(forbidden_field(path + ".resources." + side + "[" + name + "]", "resource removal is not supported"));
      } else if (was == nullptr || now == nullptr || *was != *now) {
        other_changed = true;
      }
    }
  }
}

void replace_member(rapidjson::Value& target, const char* key, const rapidjson::Value& from, Alloc& alloc) {
  target.RemoveMember(key);
  auto it = from.FindMember(key);
  if (it != from.MemberEnd()) target.AddMember(rapidjson::Value(key, alloc), rapidjson::Value(it->value, alloc), alloc);
}

/// The pod's QoS class as the API server keeps it; nullopt when it does not decode.
std::optional<QosClass> qos_of(const rapidjson::Value& pod, bool reported) {
  auto decoded = decode_pod_json(to_json(pod));
  if (!decoded) return std::nullopt;
  return reported ? pod_qos(*decoded) : compute_qos(decoded->spec);
}

}  // namespace

std::optional<ApiError> prepare_for_resize(const ResourceInfo& pods, const rapidjson::Value& old,
                                           rapidjson::Document& doc) {
  rapidjson::Document out;
  Alloc& alloc = out.GetAllocator();
  out.CopyFrom(old, alloc);
  std::vector<StatusCause> causes;
  bool other_changed = false;
  for (const char* list : {"initContainers", "containers"}) {
    const rapidjson::Value* written = spec_list(doc, list);
    auto target = out.FindMember("spec");
    if (target == out.MemberEnd() || !target->value.IsObject()) continue;
    auto containers = target->value.FindMember(list);
    if (containers == target->value.MemberEnd() || !containers->value.IsArray()) continue;
    for (rapidjson::SizeType i = 0; i < containers->value.Size(); ++i) {
      rapidjson::Value& container = containers->value[i];
      if (!container.IsObject()) continue;
      const rapidjson::Value* update = container_named(written, string_at(container, "name"));
      if (update == nullptr) continue;
      check_container(container, *update, std::string("spec.") + list + "[" + std::to_string(i) + "]", causes,
                      other_changed);
      replace_member(container, "resources", *update, alloc);
      replace_member(container, "resizePolicy", *update, alloc);
    }
  }
  if (other_changed) causes.push_back(forbidden_field("spec", "only cpu and memory resources are mutable"));
  const auto before = qos_of(old, true);
  const auto after = qos_of(out, false);
  if (before && after && *before != *after)
    causes.push_back(invalid_field("spec", "\"" + std::string(to_string(*after)) + "\"",
                                   "Pod QOS Class may not change as a result of resizing"));
  if (!causes.empty()) return invalid(pods, string_at(old, "metadata", "name"), std::move(causes));
  doc.Swap(out);
  return std::nullopt;
}

}  // namespace troupe::sim
