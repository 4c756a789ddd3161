#pragma once
// Typed reads from yaml-cpp nodes with the field path in every error, for the
// configuration parser and for plugins decoding their args. A failed read
// throws FieldError, which the public entry points turn into a Result; the
// exception never crosses a library boundary.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include <chrono>

#include "model/go_duration.hpp"
#include "model/result.hpp"

namespace troupe::config {

using Duration = std::chrono::nanoseconds;

/// "path: message". `path` is a field path like profiles[0].plugins.
class FieldError : public std::runtime_error {
 public:
  FieldError(const std::string& path, const std::string& message)
      : std::runtime_error(path.empty() ? message : path + ": " + message) {}
};

std::string child_path(const std::string& path, std::string_view key);
std::string index_path(const std::string& path, size_t index);

/// True when the node is absent or an explicit null (`key:` or `key: null`).
bool is_absent(const YAML::Node& node);

void expect_map(const YAML::Node& node, const std::string& path);
void expect_sequence(const YAML::Node& node, const std::string& path);
/// Rejects a key set twice in one map, anywhere under `node`. yaml-cpp keeps
/// both entries and lookups see only the first, so the second would be
/// silently ignored; kube-scheduler's strict decoding rejects it. Also
/// rejects keys that are not strings, nesting deeper than 64 levels (an
/// alias of its own anchor makes a loop) and more than a million values.
void reject_duplicate_fields(const YAML::Node& node, const std::string& path = "");
/// Rejects keys outside `known` (strict decoding, as kube-scheduler does).
void reject_unknown_fields(const YAML::Node& map, const std::string& path,
                           std::initializer_list<std::string_view> known);

std::string read_string(const YAML::Node& node, const std::string& path);
int64_t read_int(const YAML::Node& node, const std::string& path);
double read_number(const YAML::Node& node, const std::string& path);
bool read_bool(const YAML::Node& node, const std::string& path);
Duration read_duration(const YAML::Node& node, const std::string& path);

/// Reads map[key] into `out` when present and not null.
void read_optional(const YAML::Node& map, const std::string& path, const char* key, std::string& out);
void read_optional(const YAML::Node& map, const std::string& path, const char* key, int32_t& out);
void read_optional(const YAML::Node& map, const std::string& path, const char* key, int64_t& out);
void read_optional(const YAML::Node& map, const std::string& path, const char* key, double& out);
void read_optional(const YAML::Node& map, const std::string& path, const char* key, bool& out);
void read_optional(const YAML::Node& map, const std::string& path, const char* key, Duration& out);

/// Runs `body`, converting a FieldError (or yaml-cpp exception) into an Error.
template <class F>
Status catch_field_errors(F&& body) {
  try {
    body();
    return Status::success();
  } catch (const FieldError& e) {
    return Error{e.what()};
  } catch (const YAML::Exception& e) {
    return Error{e.what()};
  }
}

}  // namespace troupe::config
