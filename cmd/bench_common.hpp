#pragma once
// Helpers shared by `troupe bench` and `troupe replay`: numeric flags with
// errors naming the flag, the scheduler configuration they run, and a tiny
// JSON object writer for their one-line results.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cmd/flags.hpp"
#include "model/result.hpp"

namespace troupe::cmd {

/// The flag's value as an integer in [min, max], or `fallback` when absent.
Result<int64_t> int_flag(const Flags& flags, const std::string& name, int64_t fallback, int64_t min, int64_t max);
/// The flag's value as a number in [min, max], or `fallback` when absent.
Result<double> double_flag(const Flags& flags, const std::string& name, double fallback, double min, double max);

/// The benchmark's scheduler configuration: every plugin of the default
/// profile (a profile without a plugins section), schedulerName "troupe",
/// with `extra_profile_yaml` appended inside the profile (already indented
/// by four spaces, e.g. a pluginConfig list) and percentageOfNodesToScore.
std::string bench_config_yaml(int percentage_of_nodes_to_score, const std::string& extra_profile_yaml = "");

/// One JSON object on one line, members in insertion order.
class JsonLine {
 public:
  JsonLine& add(const std::string& key, const std::string& value);
  JsonLine& add(const std::string& key, const char* value) { return add(key, std::string(value)); }
  JsonLine& add(const std::string& key, double value);
  JsonLine& add(const std::string& key, int64_t value);
  JsonLine& add(const std::string& key, size_t value) { return add(key, static_cast<int64_t>(value)); }
  JsonLine& add(const std::string& key, int value) { return add(key, static_cast<int64_t>(value)); }
  JsonLine& add(const std::string& key, bool value);
  /// A raw JSON value (array or object) the caller has already rendered.
  JsonLine& add_raw(const std::string& key, const std::string& json);
  std::string str() const { return "{" + body_ + "}"; }

 private:
  void key(const std::string& k);
  std::string body_;
};

/// A JSON string literal with the characters JSON requires escaped.
std::string json_quote(const std::string& text);

}  // namespace troupe::cmd
