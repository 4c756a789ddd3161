#pragma once
// Pieces shared by the label selector parser, decoder and matcher. Not part of
// the public API: include only from model/label_selector*.cpp.

#include <cstdint>
#include <string>
#include <string_view>

#include "model/label_selector.hpp"

namespace troupe::label_selector_detail {

/// Go's strconv.ParseInt(s, 10, 64): optional sign, decimal digits, no
/// surrounding space, in range.
bool parse_int64(std::string_view text, int64_t& out);

/// The checks of apimachinery's labels.NewRequirement: a valid key, the right
/// number of values for the operator, integer values for Gt/Lt, and (when
/// `validate_values`) valid label values. `path` prefixes the field names in
/// the message ("" for the query string, "spec.selector.matchExpressions[0]"
/// for objects).
Status check_requirement(const LabelRequirement& requirement, const std::string& path, bool validate_values);

/// Sorts by key (stable), as the API server does, so that to_string() is
/// deterministic.
void sort_by_key(std::vector<LabelRequirement>& requirements);

/// Quotes a string the way Go's %q does for printable ASCII (backslash-escapes
/// '"' and '\\', hex-escapes control bytes).
std::string quote(std::string_view text);

}  // namespace troupe::label_selector_detail
