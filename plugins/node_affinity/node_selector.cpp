#include "plugins/node_affinity/node_selector.hpp"

#include <algorithm>
#include <charconv>

#include "config/yaml_fields.hpp"

namespace troupe::plugins {

using config::FieldError;
using Op = LabelRequirement::Op;

namespace {

bool field_matches(const LabelRequirement& r, const std::string& node_name) {
  if (r.key != kNodeNameField) return false;
  const bool listed = std::find(r.values.begin(), r.values.end(), node_name) != r.values.end();
  if (r.op == Op::in) return listed;
  if (r.op == Op::not_in) return !listed;
  return false;
}

Op read_operator(const std::string& text, const std::string& path) {
  if (text == "In") return Op::in;
  if (text == "NotIn") return Op::not_in;
  if (text == "Exists") return Op::exists;
  if (text == "DoesNotExist") return Op::does_not_exist;
  if (text == "Gt") return Op::gt;
  if (text == "Lt") return Op::lt;
  throw FieldError(path, "Unsupported value: \"" + text +
                             "\": supported values: \"DoesNotExist\", \"Exists\", \"Gt\", \"In\", \"Lt\", \"NotIn\"");
}

bool is_integer(const std::string& s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

LabelRequirement read_requirement(const YAML::Node& node, const std::string& path, bool field) {
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path, {"key", "operator", "values"});
  LabelRequirement r;
  std::string op;
  config::read_optional(node, path, "key", r.key);
  config::read_optional(node, path, "operator", op);
  const std::string values_path = config::child_path(path, "values");
  const YAML::Node values = node["values"];
  if (!config::is_absent(values)) {
    config::expect_sequence(values, values_path);
    for (size_t i = 0; i < values.size(); ++i)
      r.values.push_back(config::read_string(values[i], config::index_path(values_path, i)));
  }
  if (r.key.empty()) throw FieldError(config::child_path(path, "key"), "Required value");
  r.op = read_operator(op, config::child_path(path, "operator"));
  if (field) {
    if (r.key != kNodeNameField)
      throw FieldError(config::child_path(path, "key"), "Invalid value: \"" + r.key + "\": not a valid field selector key");
    if (r.op != Op::in && r.op != Op::not_in)
      throw FieldError(config::child_path(path, "operator"), "Invalid value: \"" + op + "\": not a valid selector operator");
    if (r.values.size() != 1)
      throw FieldError(values_path, "Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
    return r;
  }
  switch (r.op) {
    case Op::in:
    case Op::not_in:
      if (r.values.empty())
        throw FieldError(values_path, "Required value: must be specified when `operator` is 'In' or 'NotIn'");
      break;
    case Op::exists:
    case Op::does_not_exist:
      if (!r.values.empty())
        throw FieldError(values_path, "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
      break;
    default:
      if (r.values.size() != 1 || !is_integer(r.values[0]))
        throw FieldError(values_path, "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'");
  }
  return r;
}

std::vector<LabelRequirement> read_requirements(const YAML::Node& list, const std::string& path, bool field) {
  std::vector<LabelRequirement> out;
  if (config::is_absent(list)) return out;
  config::expect_sequence(list, path);
  for (size_t i = 0; i < list.size(); ++i) out.push_back(read_requirement(list[i], config::index_path(path, i), field));
  return out;
}

}  // namespace

namespace {

/// `name` null: a node known by its labels alone, whose field requirements
/// are not checked (component-helpers' nodeSelectorTerm.match with no fields).
bool term_matches_on(const NodeSelectorTerm& term, const Labels& labels, const std::string* name) {
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  for (const auto& r : term.match_expressions)
    if (!r.matches(labels)) return false;
  if (name == nullptr) return true;
  for (const auto& r : term.match_fields)
    if (!field_matches(r, *name)) return false;
  return true;
}

bool selector_matches_on(const NodeSelector& selector, const Labels& labels, const std::string* name) {
  for (const auto& term : selector.terms)
    if (term_matches_on(term, labels, name)) return true;
  return false;
}

}  // namespace

bool term_matches(const NodeSelectorTerm& term, const Node& node) {
  return term_matches_on(term, node.meta.labels, &node.meta.name);
}

bool selector_matches(const NodeSelector& selector, const Node& node) {
  return selector_matches_on(selector, node.meta.labels, &node.meta.name);
}

bool selector_matches_labels(const NodeSelector& selector, const Labels& labels) {
  return selector_matches_on(selector, labels, nullptr);
}

bool node_selector_labels_match(const std::map<std::string, std::string>& selector, const Node& node) {
  for (const auto& [key, value] : selector) {
    auto it = node.meta.labels.find(key);
    if (it == node.meta.labels.end() || it->second != value) return false;
  }
  return true;
}

const NodeSelector* required_node_affinity(const PodSpec& spec) {
  const auto& affinity = spec.affinity;
  if (!affinity || !affinity->node_affinity || !affinity->node_affinity->required) return nullptr;
  return &*affinity->node_affinity->required;
}

bool required_node_selection_matches(const PodSpec& spec, const Node& node) {
  if (!node_selector_labels_match(spec.node_selector, node)) return false;
  const NodeSelector* required = required_node_affinity(spec);
  return required == nullptr || selector_matches(*required, node);
}

NodeSelectorTerm read_node_selector_term(const YAML::Node& node, const std::string& path) {
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path, {"matchExpressions", "matchFields"});
  NodeSelectorTerm term;
  term.match_expressions = read_requirements(node["matchExpressions"], config::child_path(path, "matchExpressions"), false);
  term.match_fields = read_requirements(node["matchFields"], config::child_path(path, "matchFields"), true);
  return term;
}

}  // namespace troupe::plugins
