#include "model/json_edit.hpp"

namespace troupe {

void set_string(rapidjson::Value& object, const char* key, std::string_view value,
                rapidjson::Document::AllocatorType& alloc) {
  rapidjson::Value v(value.data(), static_cast<rapidjson::SizeType>(value.size()), alloc);
  auto it = object.FindMember(key);
  if (it != object.MemberEnd()) {
    it->value = std::move(v);
  } else {
    object.AddMember(rapidjson::Value(key, alloc), std::move(v), alloc);
  }
}

}  // namespace troupe
