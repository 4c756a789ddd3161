#pragma once
// Small pieces of Go's encoding/json behaviour that Koordinator's annotations
// depend on: its string escaping (for byte-exact output) and its
// case-insensitive matching of object keys to struct fields (for decoding
// as leniently as koord-scheduler does).

#include <string>
#include <string_view>

#include "model/json.hpp"

namespace troupe::plugins::deviceshare {

/// Go's encoding/json string literal (with quotes) for `text`: ", \ and
/// control characters escaped (\b \f \n \r \t, else \u00XX), <, > and & as
/// \u003c \u003e \u0026, U+2028/U+2029 escaped, invalid UTF-8 bytes as \ufffd.
std::string go_json_string(std::string_view text);

/// Go's %q of a string (strconv.Quote): \ and " escaped, control characters
/// as \a \b \f \n \r \t \v or \xNN, invalid UTF-8 bytes as \xNN.
std::string go_quote(std::string_view text);

/// ASCII case-insensitive equality (how encoding/json matches a key to a field).
bool equals_fold(std::string_view a, std::string_view b);

/// An object member's name.
inline std::string_view member_name(const JsonValue& key) { return {key.GetString(), key.GetStringLength()}; }

/// "string \"x\"", "number", "object", ... for error messages.
std::string describe_json(const JsonValue& v);

}  // namespace troupe::plugins::deviceshare
