// Label requirements: matching, the query-string form, and the requirement
// checks shared by the parser and the JSON decoder (apimachinery
// pkg/labels/selector.go semantics).

#include "model/label_selector.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "model/label_selector_internal.hpp"

namespace troupe {
namespace label_selector_detail {

bool parse_int64(std::string_view text, int64_t& out) {
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    negative = text[i] == '-';
    ++i;
  }
  if (i == text.size()) return false;
  // Accumulate as a negative number so that INT64_MIN fits.
  int64_t value = 0;
  constexpr int64_t min = std::numeric_limits<int64_t>::min();
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c < '0' || c > '9') return false;
    int digit = c - '0';
    if (value < (min + digit) / 10) return false;
    value = value * 10 - digit;
  }
  if (!negative) {
    if (value == min) return false;
    value = -value;
  }
  out = value;
  return true;
}

std::string quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", byte);
      out += buffer;
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

namespace {

std::string child(const std::string& path, const std::string& name) {
  return path.empty() ? name : path + "." + name;
}

std::string quote_list(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ",";
    out += quote(values[i]);
  }
  return out + "]";
}

std::string invalid(const std::string& field, const std::string& shown_value, const std::string& detail) {
  return field + ": Invalid value: " + shown_value + ": " + detail;
}

void append(std::string& problems, const std::string& problem) {
  if (!problems.empty()) problems += ", ";
  problems += problem;
}

/// The value-count rules of labels.NewRequirement for one operator.
void check_value_count(const LabelRequirement& r, const std::string& values_path, std::string& problems) {
  using Op = LabelRequirement::Op;
  switch (r.op) {
    case Op::in:
    case Op::not_in:
      if (r.values.empty())
        append(problems, invalid(values_path, quote_list(r.values),
                                 "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case Op::equals:
    case Op::not_equals:
      if (r.values.size() != 1)
        append(problems, invalid(values_path, quote_list(r.values),
                                 "exact-match compatibility requires one single value"));
      break;
    case Op::exists:
    case Op::does_not_exist:
      if (!r.values.empty())
        append(problems, invalid(values_path, quote_list(r.values),
                                 "values set must be empty for exists and does not exist"));
      break;
    case Op::gt:
    case Op::lt:
      if (r.values.size() != 1)
        append(problems, invalid(values_path, quote_list(r.values),
                                 "for 'Gt', 'Lt' operators, exactly one value is required"));
      for (std::size_t i = 0; i < r.values.size(); ++i) {
        int64_t ignored = 0;
        if (!parse_int64(r.values[i], ignored))
          append(problems, invalid(values_path + "[" + std::to_string(i) + "]", quote(r.values[i]),
                                   "for 'Gt', 'Lt' operators, the value must be an integer"));
      }
      break;
  }
}

}  // namespace

Status check_requirement(const LabelRequirement& r, const std::string& path, bool validate_values) {
  std::string problems;
  if (Status key = validate_label_key(r.key); !key.ok())
    append(problems, invalid(child(path, "key"), quote(r.key), key.message()));
  bool gt_lt = r.op == LabelRequirement::Op::gt || r.op == LabelRequirement::Op::lt;
  std::string values_path = child(path, "values");
  check_value_count(r, values_path, problems);
  if (validate_values && !gt_lt) {
    for (std::size_t i = 0; i < r.values.size(); ++i) {
      if (Status value = validate_label_value(r.values[i]); !value.ok())
        append(problems, invalid(values_path + "[" + std::to_string(i) + "]", quote(r.values[i]), value.message()));
    }
  }
  if (!problems.empty()) return Error{problems};
  return Status::success();
}

void sort_by_key(std::vector<LabelRequirement>& requirements) {
  std::stable_sort(requirements.begin(), requirements.end(),
                   [](const LabelRequirement& a, const LabelRequirement& b) { return a.key < b.key; });
}

}  // namespace label_selector_detail

namespace {

bool contains(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

/// Gt/Lt: both the label and the requirement's single value must be integers,
/// otherwise the requirement does not match (as upstream, which logs and
/// returns false).
bool matches_comparison(const LabelRequirement& r, const std::string& label_value) {
  int64_t label = 0;
  int64_t bound = 0;
  if (r.values.size() != 1) return false;
  if (!label_selector_detail::parse_int64(label_value, label)) return false;
  if (!label_selector_detail::parse_int64(r.values.front(), bound)) return false;
  return r.op == LabelRequirement::Op::gt ? label > bound : label < bound;
}

}  // namespace

bool LabelRequirement::matches(const Labels& labels) const {
  auto found = labels.find(key);
  bool has = found != labels.end();
  switch (op) {
    case Op::in:
    case Op::equals:
      return has && contains(values, found->second);
    case Op::not_in:
    case Op::not_equals:
      return !has || !contains(values, found->second);
    case Op::exists:
      return has;
    case Op::does_not_exist:
      return !has;
    case Op::gt:
    case Op::lt:
      return has && matches_comparison(*this, found->second);
  }
  return false;
}

std::string LabelRequirement::to_string() const {
  std::string out;
  if (op == Op::does_not_exist) out += "!";
  out += key;
  switch (op) {
    case Op::exists:
    case Op::does_not_exist:
      return out;
    case Op::equals: out += "="; break;
    case Op::not_equals: out += "!="; break;
    case Op::in: out += " in ("; break;
    case Op::not_in: out += " notin ("; break;
    case Op::gt: out += ">"; break;
    case Op::lt: out += "<"; break;
  }
  std::vector<std::string> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (i) out += ",";
    out += sorted[i];
  }
  if (op == Op::in || op == Op::not_in) out += ")";
  return out;
}

LabelSelector::LabelSelector(std::vector<LabelRequirement> requirements) : requirements_(std::move(requirements)) {}

LabelSelector LabelSelector::nothing() {
  LabelSelector selector;
  selector.match_nothing_ = true;
  return selector;
}

bool LabelSelector::matches(const Labels& labels) const {
  if (match_nothing_) return false;
  for (const auto& requirement : requirements_) {
    if (!requirement.matches(labels)) return false;
  }
  return true;
}

std::string LabelSelector::to_string() const {
  std::string out;
  for (std::size_t i = 0; i < requirements_.size(); ++i) {
    if (i) out += ",";
    out += requirements_[i].to_string();
  }
  return out;
}

LabelSelector with_label_values(const std::optional<LabelSelector>& selector, const Labels& labels,
                                const std::vector<std::string>& in_keys, const std::vector<std::string>& not_in_keys) {
  if (!selector || selector->matches_nothing()) return LabelSelector::nothing();
  if (in_keys.empty() && not_in_keys.empty()) return *selector;
  auto requirements = selector->requirements();
  // An API server that knows matchLabelKeys merged `key In (value)` into the
  // stored selector when the pod was created; merging the pod's current
  // value again would AND two values after a relabel and match nothing.
  auto merged_already = [&](const std::string& key, LabelRequirement::Op op) {
    for (const auto& r : selector->requirements())
      if (r.key == key && r.op == op && r.values.size() == 1) return true;
    return false;
  };
  auto add = [&](const std::vector<std::string>& keys, LabelRequirement::Op op) {
    for (const auto& key : keys)
      if (auto it = labels.find(key); it != labels.end() && !merged_already(key, op))
        requirements.push_back(LabelRequirement{key, op, {it->second}});
  };
  add(in_keys, LabelRequirement::Op::in);
  add(not_in_keys, LabelRequirement::Op::not_in);
  return LabelSelector(std::move(requirements));
}

Labels labels_from_json(const rapidjson::Value& labels_object) {
  Labels labels;
  if (!labels_object.IsObject()) return labels;
  for (const auto& member : labels_object.GetObject()) {
    if (!member.value.IsString()) continue;
    labels.emplace(std::string(member.name.GetString(), member.name.GetStringLength()),
                   std::string(member.value.GetString(), member.value.GetStringLength()));
  }
  return labels;
}

}  // namespace troupe
