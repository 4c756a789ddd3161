#include "cmd/flags.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace troupe::cmd {

Result<Flags> Flags::parse(int argc, char** argv, int first, const std::vector<FlagSpec>& specs) {
  Flags flags;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0 || arg == "--") {
      flags.positional_.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const FlagSpec* spec = nullptr;
    for (const auto& s : specs)
      if (s.name == name) spec = &s;
    if (spec == nullptr) return Error{"unknown flag --" + name};
    if (!spec->takes_value) {
      flags.values_.emplace(name, inline_value.value_or("true"));
      continue;
    }
    if (inline_value) {
      flags.values_.emplace(name, *inline_value);
    } else if (i + 1 < argc) {
      flags.values_.emplace(name, argv[++i]);
    } else {
      return Error{"flag --" + name + " needs a value"};
    }
  }
  return flags;
}

std::string Flags::get(const std::string& name, const std::string& fallback) const {
  auto range = values_.equal_range(name);
  if (range.first == range.second) return fallback;
  return std::prev(range.second)->second;  // the last occurrence wins
}

std::vector<std::string> Flags::get_all(const std::string& name) const {
  std::vector<std::string> out;
  auto range = values_.equal_range(name);
  for (auto it = range.first; it != range.second; ++it) out.push_back(it->second);
  return out;
}

std::string Flags::usage(const std::string& command, const std::string& summary,
                         const std::vector<FlagSpec>& specs) {
  std::ostringstream out;
  out << "Usage: troupe " << command << " [flags]\n\n" << summary << "\n\nFlags:\n";
  for (const auto& s : specs) {
    std::string left = "  --" + s.name + (s.takes_value ? " VALUE" : "");
    out << left << std::string(left.size() < 34 ? 34 - left.size() : 1, ' ') << s.help << "\n";
  }
  return out.str();
}

Result<size_t> Flags::get_count(const std::string& name, size_t fallback, size_t min) const {
  if (!has(name)) return fallback;
  const std::string text = get(name);
  char* end = nullptr;
  errno = 0;
  unsigned long long v = text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))
                             ? 0
                             : std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || end == nullptr || *end != '\0' || errno != 0 || v < min)
    return Error{"--" + name + " " + text + ": expected an integer >= " + std::to_string(min)};
  return static_cast<size_t>(v);
}

}  // namespace troupe::cmd
