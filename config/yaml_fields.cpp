#include "config/yaml_fields.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <map>

namespace troupe::config {

std::string child_path(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string index_path(const std::string& path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

bool is_absent(const YAML::Node& node) { return !node.IsDefined() || node.IsNull(); }

namespace {

std::string kind_of(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: return "an object";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar: return "\"" + node.Scalar() + "\"";
    default: return "null";
  }
}

const std::string& scalar(const YAML::Node& node, const std::string& path, const char* wanted) {
  if (!node.IsScalar()) throw FieldError(path, std::string("must be ") + wanted + ", got " + kind_of(node));
  return node.Scalar();
}

}  // namespace

void expect_map(const YAML::Node& node, const std::string& path) {
  if (!node.IsMap()) throw FieldError(path, "must be an object, got " + kind_of(node));
}

void expect_sequence(const YAML::Node& node, const std::string& path) {
  if (!node.IsSequence()) throw FieldError(path, "must be a list, got " + kind_of(node));
}

namespace {

/// Bounds on the walk: an alias may refer to its own anchor (yaml-cpp builds
/// the loop), and a chain of aliases can expand exponentially.
constexpr int kMaxYamlDepth = 64;
constexpr size_t kMaxYamlNodes = 1'000'000;

void reject_duplicates_under(const YAML::Node& node, const std::string& path, int depth, size_t& visited) {
  if (depth > kMaxYamlDepth)
    throw FieldError(path, "nested more than " + std::to_string(kMaxYamlDepth) + " levels deep (an alias of itself?)");
  if (++visited > kMaxYamlNodes)
    throw FieldError(path, "the document expands to more than " + std::to_string(kMaxYamlNodes) +
                               " values (aliases of aliases?)");
  if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) reject_duplicates_under(node[i], index_path(path, i), depth + 1, visited);
    return;
  }
  if (!node.IsMap()) return;
  auto where = [](const YAML::Mark& mark) {
    return "line " + std::to_string(mark.line + 1) + ", column " + std::to_string(mark.column + 1);
  };
  std::map<std::string, YAML::Mark> first_set;  // key -> where it was first set
  for (const auto& entry : node) {
    if (!entry.first.IsScalar())
      throw FieldError(path, "a key at " + where(entry.first.Mark()) + " is not a string");
    const std::string& key = entry.first.Scalar();
    auto [first, inserted] = first_set.emplace(key, entry.first.Mark());
    if (!inserted)
      throw FieldError(child_path(path, key), "set twice in one map (at " + where(first->second) + " and " +
                                                  where(entry.first.Mark()) + ")");
    reject_duplicates_under(entry.second, child_path(path, key), depth + 1, visited);
  }
}

}  // namespace

void reject_duplicate_fields(const YAML::Node& node, const std::string& path) {
  size_t visited = 0;
  reject_duplicates_under(node, path, 0, visited);
}

void reject_unknown_fields(const YAML::Node& map, const std::string& path,
                           std::initializer_list<std::string_view> known) {
  for (const auto& entry : map) {
    const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : std::string("?");
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw FieldError(child_path(path, key), "unknown field");
  }
}

std::string read_string(const YAML::Node& node, const std::string& path) {
  return scalar(node, path, "a string");
}

int64_t read_int(const YAML::Node& node, const std::string& path) {
  const std::string& text = scalar(node, path, "an integer");
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw FieldError(path, "must be an integer, got \"" + text + "\"");
  return value;
}

double read_number(const YAML::Node& node, const std::string& path) {
  const std::string& text = scalar(node, path, "a number");
  errno = 0;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno != 0)
    throw FieldError(path, "must be a number, got \"" + text + "\"");
  return value;
}

bool read_bool(const YAML::Node& node, const std::string& path) {
  const std::string& text = scalar(node, path, "true or false");
  // YAML 1.1 spellings too: sigs.k8s.io/yaml reads configs with yaml.v2.
  static const char* kTrue[] = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
  static const char* kFalse[] = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
  for (const char* t : kTrue)
    if (text == t) return true;
  for (const char* f : kFalse)
    if (text == f) return false;
  throw FieldError(path, "must be true or false, got \"" + text + "\"");
}

Duration read_duration(const YAML::Node& node, const std::string& path) {
  const std::string& text = scalar(node, path, "a duration such as \"15s\"");
  auto parsed = parse_go_duration(text);
  if (!parsed) throw FieldError(path, parsed.message());
  return *parsed;
}

void read_optional(const YAML::Node& map, const std::string& path, const char* key, std::string& out) {
  const YAML::Node node = map[key];
  if (!is_absent(node)) out = read_string(node, child_path(path, key));
}

void read_optional(const YAML::Node& map, const std::string& path, const char* key, int32_t& out) {
  const YAML::Node node = map[key];
  if (is_absent(node)) return;
  const std::string p = child_path(path, key);
  int64_t value = read_int(node, p);
  if (value < INT32_MIN || value > INT32_MAX) throw FieldError(p, "out of range for a 32-bit integer");
  out = static_cast<int32_t>(value);
}

void read_optional(const YAML::Node& map, const std::string& path, const char* key, int64_t& out) {
  const YAML::Node node = map[key];
  if (!is_absent(node)) out = read_int(node, child_path(path, key));
}

void read_optional(const YAML::Node& map, const std::string& path, const char* key, double& out) {
  const YAML::Node node = map[key];
  if (!is_absent(node)) out = read_number(node, child_path(path, key));
}

void read_optional(const YAML::Node& map, const std::string& path, const char* key, bool& out) {
  const YAML::Node node = map[key];
  if (!is_absent(node)) out = read_bool(node, child_path(path, key));
}

void read_optional(const YAML::Node& map, const std::string& path, const char* key, Duration& out) {
  const YAML::Node node = map[key];
  if (!is_absent(node)) out = read_duration(node, child_path(path, key));
}

}  // namespace troupe::config
