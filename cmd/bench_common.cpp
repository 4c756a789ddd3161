#include "cmd/bench_common.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace troupe::cmd {

Result<int64_t> int_flag(const Flags& flags, const std::string& name, int64_t fallback, int64_t min, int64_t max) {
  if (!flags.has(name)) return fallback;
  const std::string text = flags.get(name);
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE)
    return Error{"--" + name + ": expected an integer, got '" + text + "'"};
  if (value < min || value > max)
    return Error{"--" + name + ": must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
                 text};
  return static_cast<int64_t>(value);
}

Result<double> double_flag(const Flags& flags, const std::string& name, double fallback, double min, double max) {
  if (!flags.has(name)) return fallback;
  const std::string text = flags.get(name);
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value))
    return Error{"--" + name + ": expected a number, got '" + text + "'"};
  if (value < min || value > max)
    return Error{"--" + name + ": must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
                 text};
  return value;
}

std::string bench_config_yaml(int percentage_of_nodes_to_score, const std::string& extra_profile_yaml) {
  return "apiVersion: kubescheduler.config.k8s.io/v1\n"
         "kind: KubeSchedulerConfiguration\n"
         "percentageOfNodesToScore: " +
         std::to_string(percentage_of_nodes_to_score) +
         "\n"
         "leaderElection:\n"
         "  leaderElect: false\n"
         "profiles:\n"
         "  - schedulerName: troupe\n" +
         extra_profile_yaml;
}

std::string json_quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

void JsonLine::key(const std::string& k) {
  if (!body_.empty()) body_ += ',';
  body_ += json_quote(k) + ':';
}

JsonLine& JsonLine::add(const std::string& k, const std::string& value) {
  key(k);
  body_ += json_quote(value);
  return *this;
}

JsonLine& JsonLine::add(const std::string& k, double value) {
  key(k);
  if (!std::isfinite(value)) {
    body_ += "null";
    return *this;
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", value);
  body_ += buf;
  return *this;
}

JsonLine& JsonLine::add(const std::string& k, int64_t value) {
  key(k);
  body_ += std::to_string(value);
  return *this;
}

JsonLine& JsonLine::add(const std::string& k, bool value) {
  key(k);
  body_ += value ? "true" : "false";
  return *this;
}

JsonLine& JsonLine::add_raw(const std::string& k, const std::string& json) {
  key(k);
  body_ += json;
  return *this;
}

}  // namespace troupe::cmd
