#pragma once
// Field selectors ("metadata.name=x,spec.nodeName!=,status.phase!=Failed") as
// the API server evaluates them: =, == and != joined by commas, only over the
// fields each kind declares selectable.

#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "model/result.hpp"

namespace troupe {

struct FieldRequirement {
  std::string field;  // "spec.nodeName"
  bool equals = true; // false for !=
  std::string value;
};

class FieldSelector {
 public:
  FieldSelector() = default;
  explicit FieldSelector(std::vector<FieldRequirement> requirements);

  /// True when every requirement holds for the object. A missing field reads
  /// as "" (so "spec.nodeName=" selects unscheduled pods); a missing boolean
  /// field reads as "false", as Go renders the zero value (spec.hostNetwork,
  /// spec.unschedulable).
  bool matches(const rapidjson::Value& object) const;
  bool empty() const { return requirements_.empty(); }
  const std::vector<FieldRequirement>& requirements() const { return requirements_; }

 private:
  std::vector<FieldRequirement> requirements_;
};

/// The fields a kind may be selected by (always metadata.name and
/// metadata.namespace; Pod adds spec.nodeName, spec.schedulerName, status.phase,
/// ...; Node adds spec.unschedulable; Event adds involvedObject.*, reason, ...).
std::vector<std::string> selectable_fields(std::string_view kind);

/// Every JSON path field_value() may read for the selectable fields of `kind`
/// ("source.component", "regarding.kind", ...): callers that keep a
/// projection of each object instead of the object project these paths.
std::vector<std::string> selectable_field_paths(std::string_view kind);

/// The value the API server compares for `field` of `object` (of kind `kind`):
/// strings as they are, booleans as "true"/"false", numbers in decimal, a
/// missing field as "" ("false" for boolean fields). Event's "source" reads
/// source.component, falling back to reportingComponent; involvedObject.*
/// falls back to regarding.* (events.k8s.io/v1 objects).
std::string field_value(const rapidjson::Value& object, std::string_view field);

/// Parses the query syntax and checks every field against `kind`. An unknown
/// field yields the API server's message:
///   "foo.bar" is not a known field selector: only "metadata.name", "metadata.namespace"
/// Values may escape ',', '=' and '\' with a backslash, as kubectl writes them.
Result<FieldSelector> parse_field_selector(std::string_view text, std::string_view kind);

}  // namespace troupe
