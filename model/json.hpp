#pragma once
// RapidJSON helpers shared by every codec in model/: parsing with errors meant
// for people, serialisation, and getters that never crash on a wrong type.
//
// Objects from the API server are kept as whole RapidJSON documents behind a
// shared_ptr<const Document>, so typed views can re-encode them without losing
// fields this project does not model.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "model/result.hpp"

namespace troupe {

using JsonDocument = rapidjson::Document;
using JsonValue = rapidjson::Value;
using JsonAllocator = rapidjson::Document::AllocatorType;
/// An immutable parsed object, shared between views of it.
using JsonPtr = std::shared_ptr<const rapidjson::Document>;

/// Deepest nesting parse_json accepts. Kubernetes objects nest about 20
/// levels; the bound keeps every recursive walk (serialising, copying,
/// comparing) far from the stack limit whatever a client sends.
inline constexpr int kMaxJsonDepth = 512;

/// Where the nesting of `text` first exceeds kMaxJsonDepth, brackets inside
/// strings skipped; nullopt when it never does. Checked before parsing, so
/// that no text makes the recursive parser exhaust the stack. Malformed text
/// is left for the parser to report.
std::optional<size_t> json_too_deep_at(std::string_view text);

/// A new, empty (null) document whose memory pool grows in chunks of
/// `chunk_bytes`. RapidJSON's default chunk is 64 KiB, which every cached
/// object would pay for; views of thousands of pods need documents sized to
/// their content.
std::shared_ptr<rapidjson::Document> make_document(size_t chunk_bytes = 4096);

/// Parses one JSON value (surrounding whitespace allowed). Errors give the
/// byte offset and RapidJSON's text: "invalid JSON at offset 12: Missing a
/// colon after a name of object member."
Result<std::shared_ptr<rapidjson::Document>> parse_json(std::string_view text);

/// Compact serialisation (no whitespace), as the API server writes.
std::string to_json(const rapidjson::Value& value);

/// A deep copy of `value` as a document of its own (e.g. one item of a list).
std::shared_ptr<rapidjson::Document> copy_document(const rapidjson::Value& value);

/// "object", "array", "string", "number", "boolean" or "null", for messages.
const char* json_type_name(const rapidjson::Value& value);

/// Follows object keys from `root`; nullptr when a step is missing or the
/// value on the way is not an object. find_path(pod, "metadata", "name").
template <class... Keys>
const rapidjson::Value* find_path(const rapidjson::Value& root, const Keys&... keys) {
  const rapidjson::Value* at = &root;
  auto step = [&at](std::string_view key) {
    if (at == nullptr || !at->IsObject()) {
      at = nullptr;
      return;
    }
    auto member = at->FindMember(rapidjson::StringRef(key.data(), key.size()));
    at = member == at->MemberEnd() ? nullptr : &member->value;
  };
  (step(std::string_view(keys)), ...);
  return at;
}

/// The string at the path, or `fallback` when it is missing or not a string.
template <class... Keys>
std::string get_string(const rapidjson::Value& root, const Keys&... keys) {
  const rapidjson::Value* v = find_path(root, keys...);
  return v != nullptr && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
}

/// The integer at the path, or nullopt when missing or not an integer.
template <class... Keys>
std::optional<int64_t> get_int(const rapidjson::Value& root, const Keys&... keys) {
  const rapidjson::Value* v = find_path(root, keys...);
  if (v == nullptr || !v->IsInt64()) return std::nullopt;
  return v->GetInt64();
}

/// The boolean at the path, or nullopt when missing or not a boolean.
template <class... Keys>
std::optional<bool> get_bool(const rapidjson::Value& root, const Keys&... keys) {
  const rapidjson::Value* v = find_path(root, keys...);
  if (v == nullptr || !v->IsBool()) return std::nullopt;
  return v->GetBool();
}

/// Structural equality: object member order is ignored, numbers compare by
/// value (1 == 1.0). Used to check that re-encoding lost nothing.
bool json_equal(const rapidjson::Value& a, const rapidjson::Value& b);

}  // namespace troupe
