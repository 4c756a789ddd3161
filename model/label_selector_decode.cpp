// Structured selectors: metav1.LabelSelector ({matchLabels, matchExpressions})
// and lists of NodeSelectorRequirement / LabelSelectorRequirement
// ({key, operator, values}). Errors follow the API server's field-error shape:
// "<path>: Invalid value: ...", "<path>: Required value: ...".

#include <string>
#include "model/json.hpp"
#include <string_view>

#include "model/label_selector.hpp"
#include "model/label_selector_internal.hpp"

namespace troupe {
namespace {

using label_selector_detail::quote;
using Op = LabelRequirement::Op;

/// What the two structured forms allow: metav1.LabelSelectorRequirement has
/// no Gt/Lt and its values are label values; NodeSelectorRequirement has Gt/Lt
/// and its values are free strings.
struct RequirementRules {
  bool allow_gt_lt = true;
  bool validate_values = true;
};

std::string child(const std::string& path, const char* name) { return path.empty() ? name : path + "." + name; }
std::string index(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

std::string string_of(const rapidjson::Value& value) { return {value.GetString(), value.GetStringLength()}; }

const char* type_name(const rapidjson::Value& value) { return json_type_name(value); }

Error wrong_type(const std::string& path, const rapidjson::Value& value, const char* expected) {
  return Error{path + ": Invalid value: " + type_name(value) + ": must be " + expected};
}

bool operator_from_name(std::string_view name, Op& op) {
  if (name == "In") op = Op::in;
  else if (name == "NotIn") op = Op::not_in;
  else if (name == "Exists") op = Op::exists;
  else if (name == "DoesNotExist") op = Op::does_not_exist;
  else if (name == "Gt") op = Op::gt;
  else if (name == "Lt") op = Op::lt;
  else return false;
  return true;
}

Status decode_values(const rapidjson::Value& json, const std::string& path, std::vector<std::string>& values) {
  if (json.IsNull()) return Status::success();
  if (!json.IsArray()) return wrong_type(path, json, "a list of strings");
  for (rapidjson::SizeType i = 0; i < json.Size(); ++i) {
    if (!json[i].IsString()) return wrong_type(index(path, i), json[i], "a string");
    values.push_back(string_of(json[i]));
  }
  return Status::success();
}

Result<LabelRequirement> decode_requirement(const rapidjson::Value& json, const std::string& path,
                                            RequirementRules rules) {
  if (!json.IsObject()) return wrong_type(path, json, "an object with key, operator and values");
  LabelRequirement requirement;
  auto key = json.FindMember("key");
  if (key == json.MemberEnd() || key->value.IsNull()) return Error{child(path, "key") + ": Required value"};
  if (!key->value.IsString()) return wrong_type(child(path, "key"), key->value, "a string");
  requirement.key = string_of(key->value);

  auto op = json.FindMember("operator");
  if (op == json.MemberEnd() || op->value.IsNull()) return Error{child(path, "operator") + ": Required value"};
  if (!op->value.IsString()) return wrong_type(child(path, "operator"), op->value, "a string");
  std::string op_name = string_of(op->value);
  bool known = operator_from_name(op_name, requirement.op);
  bool gt_lt = requirement.op == Op::gt || requirement.op == Op::lt;
  if (!known || (gt_lt && !rules.allow_gt_lt)) {
    std::string supported = rules.allow_gt_lt ? R"("DoesNotExist", "Exists", "Gt", "In", "Lt", "NotIn")"
                                              : R"("DoesNotExist", "Exists", "In", "NotIn")";
    return Error{child(path, "operator") + ": Unsupported value: " + quote(op_name) + ": supported values: " + supported};
  }

  auto values = json.FindMember("values");
  if (values != json.MemberEnd()) {
    if (Status ok = decode_values(values->value, child(path, "values"), requirement.values); !ok.ok())
      return Error{ok.message()};
  }
  if ((requirement.op == Op::in || requirement.op == Op::not_in) && requirement.values.empty())
    return Error{child(path, "values") + ": Required value: must be specified when `operator` is 'In' or 'NotIn'"};
  if (Status ok = label_selector_detail::check_requirement(requirement, path, rules.validate_values); !ok.ok())
    return Error{ok.message()};
  return requirement;
}

Result<std::vector<LabelRequirement>> decode_requirement_list(const rapidjson::Value& json, const std::string& field,
                                                              RequirementRules rules) {
  std::vector<LabelRequirement> requirements;
  if (json.IsNull()) return requirements;
  if (!json.IsArray()) return wrong_type(field, json, "a list of requirements");
  for (rapidjson::SizeType i = 0; i < json.Size(); ++i) {
    Result<LabelRequirement> requirement = decode_requirement(json[i], index(field, i), rules);
    if (!requirement) return requirement.error();
    requirements.push_back(std::move(*requirement));
  }
  return requirements;
}

/// matchLabels: each pair is an `=` requirement.
Status decode_match_labels(const rapidjson::Value& json, const std::string& path,
                           std::vector<LabelRequirement>& requirements) {
  if (json.IsNull()) return Status::success();
  if (!json.IsObject()) return wrong_type(path, json, "an object of label keys to values");
  for (const auto& member : json.GetObject()) {
    std::string key = string_of(member.name);
    std::string member_path = path + "[" + key + "]";
    if (!member.value.IsString()) return wrong_type(member_path, member.value, "a string");
    LabelRequirement requirement{key, Op::equals, {string_of(member.value)}};
    if (Status key_ok = validate_label_key(key); !key_ok.ok())
      return Error{path + ": Invalid value: " + quote(key) + ": " + key_ok.message()};
    if (Status value_ok = validate_label_value(requirement.values.front()); !value_ok.ok())
      return Error{member_path + ": Invalid value: " + quote(requirement.values.front()) + ": " + value_ok.message()};
    requirements.push_back(std::move(requirement));
  }
  return Status::success();
}

}  // namespace

Result<LabelSelector> decode_label_selector(const rapidjson::Value& json, const std::string& field) {
  if (json.IsNull()) return LabelSelector::nothing();
  if (!json.IsObject()) return wrong_type(field, json, "an object with matchLabels and/or matchExpressions");
  std::vector<LabelRequirement> requirements;
  if (auto labels = json.FindMember("matchLabels"); labels != json.MemberEnd()) {
    if (Status ok = decode_match_labels(labels->value, child(field, "matchLabels"), requirements); !ok.ok())
      return Error{ok.message()};
  }
  if (auto expressions = json.FindMember("matchExpressions"); expressions != json.MemberEnd()) {
    RequirementRules rules{/*allow_gt_lt=*/false, /*validate_values=*/true};
    auto decoded = decode_requirement_list(expressions->value, child(field, "matchExpressions"), rules);
    if (!decoded) return decoded.error();
    for (auto& requirement : *decoded) requirements.push_back(std::move(requirement));
  }
  label_selector_detail::sort_by_key(requirements);
  return LabelSelector(std::move(requirements));
}

Result<std::vector<LabelRequirement>> decode_requirements(const rapidjson::Value& json, const std::string& field) {
  // Node selector values are not label values (they may be any string), but
  // Gt/Lt take a single integer.
  RequirementRules rules{/*allow_gt_lt=*/true, /*validate_values=*/false};
  return decode_requirement_list(json, field, rules);
}

}  // namespace troupe
