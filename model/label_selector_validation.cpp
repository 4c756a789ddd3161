// Label key and value validation, with the rules (and wording) of apimachinery's
// validation.IsQualifiedName and validation.IsValidLabelValue.

#include <cctype>
#include <string>
#include <string_view>

#include "model/label_selector.hpp"

namespace troupe {
namespace {

constexpr std::size_t max_name_length = 63;
constexpr std::size_t max_subdomain_length = 253;

bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

/// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool is_qualified_name_part(std::string_view s) {
  if (s.empty() || !is_alnum(s.front()) || !is_alnum(s.back())) return false;
  for (char c : s) {
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

/// A DNS-1123 subdomain: dot-separated labels of [a-z0-9-], each starting and
/// ending with [a-z0-9].
bool is_dns1123_subdomain(std::string_view s) {
  if (s.empty()) return false;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty() || !is_lower_alnum(label.front()) || !is_lower_alnum(label.back())) return false;
    for (char c : label) {
      if (!is_lower_alnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

const char* const name_rule =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName', or 'my.name', or '123-abc')";

void append_problem(std::string& problems, const std::string& problem) {
  if (!problems.empty()) problems += "; ";
  problems += problem;
}

}  // namespace

Status validate_label_key(std::string_view key) {
  std::size_t slash = key.find('/');
  if (slash != std::string_view::npos && key.find('/', slash + 1) != std::string_view::npos) {
    return Error{std::string("a qualified name ") + name_rule +
                 " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"};
  }
  std::string problems;
  std::string_view name = key;
  if (slash != std::string_view::npos) {
    std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty()) {
      append_problem(problems, "prefix part must be non-empty");
    } else if (prefix.size() > max_subdomain_length) {
      append_problem(problems, "prefix part must be no more than 253 characters");
    } else if (!is_dns1123_subdomain(prefix)) {
      append_problem(problems,
                     "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                     "characters, '-' or '.', and must start and end with an alphanumeric character "
                     "(e.g. 'example.com')");
    }
  }
  if (name.empty()) {
    append_problem(problems, "name part must be non-empty");
  } else if (name.size() > max_name_length) {
    append_problem(problems, "name part must be no more than 63 characters");
  }
  if (!name.empty() && !is_qualified_name_part(name)) {
    append_problem(problems, std::string("name part ") + name_rule);
  }
  if (!problems.empty()) return Error{problems};
  return Status::success();
}

Status validate_label_value(std::string_view value) {
  std::string problems;
  if (value.size() > max_name_length) append_problem(problems, "must be no more than 63 characters");
  if (!value.empty() && !is_qualified_name_part(value)) {
    append_problem(problems,
                   "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' "
                   "or '.', and must start and end with an alphanumeric character (e.g. 'MyValue', or "
                   "'my_value', or '12345')");
  }
  if (!problems.empty()) return Error{problems};
  return Status::success();
}

}  // namespace troupe
