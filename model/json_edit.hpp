#pragma once
// Small in-place edits of a RapidJSON object, for code that rewrites stored
// objects (the embedded API server's defaulting, the controllers' raw status
// edits).

#include <string_view>

#include <rapidjson/document.h>

namespace troupe {

/// object[key] = value (a copy), replacing an existing member of that name.
void set_string(rapidjson::Value& object, const char* key, std::string_view value,
                rapidjson::Document::AllocatorType& alloc);

}  // namespace troupe
