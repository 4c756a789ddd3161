// Small JSON helpers shared by the merge, JSON and strategic merge patches.

#include <algorithm>
#include "model/json.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "model/json_patch_internal.hpp"

namespace troupe::json_patch_detail {

const char* type_name(const rapidjson::Value& value) { return json_type_name(value); }

std::string short_json(const rapidjson::Value& value, std::size_t limit) {
  // Values reaching a message come from an already-parsed document, so the
  // writer's recursion is no deeper than the parser's was; still, refuse to
  // print anything deeper than the patch limit.
  if (depth_of(value, max_depth) > max_depth) return std::string("<deeply nested ") + type_name(value) + ">";
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  std::string text(buffer.GetString(), buffer.GetSize());
  if (text.size() > limit) text = text.substr(0, limit) + "...";
  return text;
}

void set_member(rapidjson::Value& object, std::string_view name, rapidjson::Value& value, JsonAllocator& allocator) {
  auto member = object.FindMember(key_ref(name));
  if (member != object.MemberEnd()) {
    member->value = value;  // RapidJSON assignment moves
    return;
  }
  rapidjson::Value key(name.data(), static_cast<rapidjson::SizeType>(name.size()), allocator);
  object.AddMember(key, value, allocator);
}

void erase_members(rapidjson::Value& object, std::string_view name) {
  const rapidjson::Value key = key_ref(name);
  for (auto member = object.FindMember(key); member != object.MemberEnd(); member = object.FindMember(key)) {
    object.EraseMember(member);
  }
}

int depth_of(const rapidjson::Value& value, int limit) {
  if (limit < 0) return 0;
  int deepest = 0;
  if (value.IsObject()) {
    for (const auto& member : value.GetObject()) {
      deepest = std::max(deepest, 1 + depth_of(member.value, limit - 1));
      if (deepest > limit) return limit + 1;
    }
  } else if (value.IsArray()) {
    for (const auto& element : value.GetArray()) {
      deepest = std::max(deepest, 1 + depth_of(element, limit - 1));
      if (deepest > limit) return limit + 1;
    }
  }
  return deepest;
}

}  // namespace troupe::json_patch_detail
