// Field selectors with the API server's semantics: the term syntax of
// apimachinery pkg/fields/selector.go (split on unescaped commas, operators
// "!=", "==", "=" found at their first occurrence, backslash escapes in
// values) and the selectable fields of each kind's registry strategy
// (pkg/registry/core/{pod,node,event,namespace,secret}/strategy.go).

#include "model/field_selector.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace troupe {
namespace {

const std::vector<std::string>& metadata_fields() {
  static const std::vector<std::string> fields = {"metadata.name", "metadata.namespace"};
  return fields;
}

std::vector<std::string> with_metadata(std::vector<std::string> extra) {
  std::vector<std::string> fields = metadata_fields();
  fields.insert(fields.end(), extra.begin(), extra.end());
  return fields;
}

/// Fields whose Go type is bool: the API server formats them with %v, so an
/// absent field compares as "false".
bool is_boolean_field(std::string_view field) {
  return field == "spec.hostNetwork" || field == "spec.unschedulable";
}

const rapidjson::Value* find_path(const rapidjson::Value& object, std::string_view dotted) {
  const rapidjson::Value* current = &object;
  while (true) {
    if (!current->IsObject()) return nullptr;
    std::size_t dot = dotted.find('.');
    std::string_view name = dotted.substr(0, dot);
    // A Value key, not a StringRef: StringRef decays to const char* and the
    // lookup would then run to the end of `dotted`.
    const rapidjson::Value key(rapidjson::StringRef(name.data(), static_cast<rapidjson::SizeType>(name.size())));
    auto member = current->FindMember(key);
    if (member == current->MemberEnd()) return nullptr;
    current = &member->value;
    if (dot == std::string_view::npos) return current;
    dotted.remove_prefix(dot + 1);
  }
}

/// Renders a scalar as Go's fmt.Sprint would; objects, arrays and null read
/// as absent.
bool render(const rapidjson::Value* value, std::string& out) {
  if (value == nullptr) return false;
  if (value->IsString()) {
    out.assign(value->GetString(), value->GetStringLength());
    return true;
  }
  if (value->IsBool()) {
    out = value->GetBool() ? "true" : "false";
    return true;
  }
  if (value->IsInt64()) {
    out = std::to_string(value->GetInt64());
    return true;
  }
  if (value->IsUint64()) {
    out = std::to_string(value->GetUint64());
    return true;
  }
  if (value->IsDouble()) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", value->GetDouble());
    out = buffer;
    return true;
  }
  return false;
}

/// The JSON paths a field label reads, first present wins: core/v1 events
/// keep the reporter in source.component or reportingComponent, and
/// events.k8s.io/v1 objects say `regarding` where core/v1 says `involvedObject`.
std::vector<std::string> source_paths(std::string_view field) {
  if (field == "source") return {"source.component", "reportingComponent", "reportingController"};
  if (field == "reportingComponent") return {"reportingComponent", "reportingController"};
  constexpr std::string_view involved = "involvedObject.";
  if (field.substr(0, involved.size()) == involved)
    return {std::string(field), "regarding." + std::string(field.substr(involved.size()))};
  return {std::string(field)};
}

/// Splits on commas not preceded by a backslash; escapes stay in the terms.
std::vector<std::string> split_terms(std::string_view text) {
  std::vector<std::string> terms;
  std::string current;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      current += c;
      current += text[++i];
    } else if (c == ',') {
      terms.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  terms.push_back(std::move(current));
  return terms;
}

/// The first position where "!=", "==" or "=" starts, in that preference.
bool split_term(std::string_view term, std::string& lhs, std::string& op, std::string& rhs) {
  static const std::string_view operators[] = {"!=", "==", "="};
  for (std::size_t i = 0; i < term.size(); ++i) {
    for (std::string_view candidate : operators) {
      if (term.substr(i, candidate.size()) == candidate) {
        lhs = term.substr(0, i);
        op = candidate;
        rhs = term.substr(i + candidate.size());
        return true;
      }
    }
  }
  return false;
}

Result<std::string> unescape_value(std::string_view raw) {
  std::string value;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '\\') {
      if (i + 1 == raw.size()) return Error{"invalid field selector: invalid escape sequence: \\"};
      char next = raw[++i];
      if (next != '\\' && next != ',' && next != '=')
        return Error{std::string("invalid field selector: invalid escape sequence: \\") + next};
      value += next;
    } else if (c == ',' || c == '=') {
      return Error{std::string("invalid field selector: unescaped character in value: ") + c};
    } else {
      value += c;
    }
  }
  return value;
}

std::string unknown_field_message(const std::string& field, const std::vector<std::string>& known) {
  std::string message = "\"" + field + "\" is not a known field selector: only ";
  for (std::size_t i = 0; i < known.size(); ++i) {
    if (i) message += ", ";
    message += "\"" + known[i] + "\"";
  }
  return message;
}

}  // namespace

FieldSelector::FieldSelector(std::vector<FieldRequirement> requirements) : requirements_(std::move(requirements)) {}

bool FieldSelector::matches(const rapidjson::Value& object) const {
  for (const auto& requirement : requirements_) {
    bool equal = field_value(object, requirement.field) == requirement.value;
    if (equal != requirement.equals) return false;
  }
  return true;
}

std::vector<std::string> selectable_fields(std::string_view kind) {
  if (kind == "Pod")
    return with_metadata({"spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName",
                          "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName"});
  if (kind == "Node") return with_metadata({"spec.unschedulable"});
  if (kind == "Event")
    return with_metadata({"involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
                          "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
                          "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"});
  if (kind == "Namespace") return with_metadata({"status.phase"});
  if (kind == "Secret") return with_metadata({"type"});
  return metadata_fields();
}

std::vector<std::string> selectable_field_paths(std::string_view kind) {
  std::vector<std::string> paths;
  for (const auto& field : selectable_fields(kind)) {
    for (auto& path : source_paths(field)) {
      if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(std::move(path));
    }
  }
  return paths;
}

std::string field_value(const rapidjson::Value& object, std::string_view field) {
  std::string value;
  for (const auto& path : source_paths(field)) {
    if (render(find_path(object, path), value) && !value.empty()) return value;
  }
  if (is_boolean_field(field)) return "false";
  return value;
}

Result<FieldSelector> parse_field_selector(std::string_view text, std::string_view kind) {
  const std::vector<std::string> known = selectable_fields(kind);
  std::vector<FieldRequirement> requirements;
  for (const std::string& term : split_terms(text)) {
    if (term.empty()) continue;
    std::string lhs, op, rhs;
    if (!split_term(term, lhs, op, rhs))
      return Error{"invalid selector: '" + std::string(text) + "'; can't understand '" + term + "'"};
    Result<std::string> value = unescape_value(rhs);
    if (!value) return value.error();
    bool is_known = false;
    for (const auto& name : known) is_known = is_known || name == lhs;
    if (!is_known) return Error{unknown_field_message(lhs, known)};
    requirements.push_back({lhs, op != "!=", std::move(*value)});
  }
  return FieldSelector(std::move(requirements));
}

}  // namespace troupe
