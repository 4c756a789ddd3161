#pragma once
// Decoding helpers for Koordinator's JSON annotations, lenient the way Go's
// encoding/json is (unknown keys ignored, keys matched case-insensitively,
// null = absent) but strict about types, with errors naming the annotation
// and the field ("scheduling.koordinator.sh/resource-status: cpuset: expected
// a string, got number").

#include <memory>
#include <string>
#include <string_view>

#include "model/json.hpp"
#include "model/resources.hpp"
#include "model/result.hpp"

namespace troupe::plugins::numa {

/// Parses `text`; the error is prefixed with `what`.
Result<std::shared_ptr<JsonDocument>> parse_annotation(std::string_view what, std::string_view text);

/// The member of `object` whose key equals `key` ignoring ASCII case (an
/// exact match wins); nullptr when absent or null.
const JsonValue* member(const JsonValue& object, std::string_view key);

/// Reads a string member into `out` (absent/null: unchanged).
Status read_string(const JsonValue& object, std::string_view key, const std::string& path, std::string& out);
Status read_bool(const JsonValue& object, std::string_view key, const std::string& path, bool& out);
Status read_int(const JsonValue& object, std::string_view key, const std::string& path, int64_t& out);
/// A ResourceList object: quantities as strings or numbers.
Status read_resource_list(const JsonValue& value, const std::string& path, ResourceList& out);

std::string describe(const JsonValue& value);

}  // namespace troupe::plugins::numa
