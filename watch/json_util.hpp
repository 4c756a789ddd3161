#pragma once
// The few RapidJSON helpers the client needs: parse with a readable error, read
// a nested string without crashing on a wrong type, and serialise. (model/
// grows a fuller set; watch/ keeps its own small one so it only needs
// RapidJSON from model/'s dependencies.)

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "model/result.hpp"

namespace troupe::watch {

/// An empty document whose memory pool starts at `initial_pool_bytes`.
/// RapidJSON's default pool chunk is 64 KiB per document; a reflector keeps
/// one document per object alive, so 10,000 pods would pin 640 MB.
std::shared_ptr<rapidjson::Document> make_document(std::size_t initial_pool_bytes);

/// Parses one JSON value into a document sized for it. Errors read
/// "invalid JSON at offset 12: Missing a colon …".
Result<std::shared_ptr<rapidjson::Document>> parse_document(std::string_view text);

/// A deep copy of `value` as a document of its own (one item of a list).
std::shared_ptr<rapidjson::Document> copy_document(const rapidjson::Value& value);

/// `value`, a part of `owner` (one item of a list page), as a document of its
/// own without copying it: the value is moved out of `owner` (which keeps a
/// null in its place) and its memory stays in `owner`'s pool, which the new
/// document shares and keeps alive. Cheaper than copy_document (no string or
/// node is copied), at the price that the pool lives as long as the longest-
/// lived value taken from it. Members added to the new document (before it is
/// shared) come from that pool too, so take values from one thread only.
std::shared_ptr<rapidjson::Document> adopt_value(const std::shared_ptr<rapidjson::Document>& owner,
                                                 rapidjson::Value& value);

/// The value at the path of object keys, or nullptr if a step is missing or not an object.
const rapidjson::Value* find_path(const rapidjson::Value& root, std::initializer_list<const char*> keys);

/// The string at the path, or "" when missing or not a string.
std::string string_at(const rapidjson::Value& root, std::initializer_list<const char*> keys);

/// The integer at the path, or nullopt.
std::optional<std::int64_t> int_at(const rapidjson::Value& root, std::initializer_list<const char*> keys);

/// Compact serialisation.
std::string to_json(const rapidjson::Value& value);

/// A JSON string literal with quotes and escapes, for hand-built bodies.
std::string json_quote(std::string_view text);

}  // namespace troupe::watch
