#pragma once
// Helpers shared by the three patch algorithms. Not part of the public API:
// include only from model/json_patch*.cpp.

#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "model/json_patch.hpp"

namespace troupe::json_patch_detail {

/// Deepest nesting a patch may produce or recurse through. Kubernetes objects
/// are a few dozen levels deep; the limit keeps every recursive walk (ours,
/// RapidJSON's copy and writer) far from the stack's end.
constexpr int max_depth = 1000;

/// "object", "array", "string", ... for messages.
const char* type_name(const rapidjson::Value& value);

/// Compact JSON of `value` for messages, cut to about `limit` characters.
std::string short_json(const rapidjson::Value& value, std::size_t limit = 200);

/// A key to look members up by: a StringRef alone would decay to const char*
/// and be measured with strlen.
inline rapidjson::Value key_ref(std::string_view name) {
  return rapidjson::Value(rapidjson::StringRef(name.data(), static_cast<rapidjson::SizeType>(name.size())));
}

inline std::string_view name_of(const rapidjson::Value& string) {
  return {string.GetString(), string.GetStringLength()};
}

/// Sets object[name] = value, replacing the first member of that name or
/// appending a new one (the key is copied into `allocator`).
void set_member(rapidjson::Value& object, std::string_view name, rapidjson::Value& value, JsonAllocator& allocator);

/// Removes every member called `name`, keeping the order of the others.
void erase_members(rapidjson::Value& object, std::string_view name);

/// Nesting depth of `value` (a scalar is 0), or `limit + 1` as soon as it
/// exceeds `limit`, without walking further.
int depth_of(const rapidjson::Value& value, int limit);

}  // namespace troupe::json_patch_detail
