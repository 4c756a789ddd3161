#include "cmd/flags.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace troupe::cmd {

namespace {

const FlagSpec* find_spec(const std::vector<FlagSpec>& specs, const std::string& name) {
  for (const auto& s : specs)
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace

Result<Flags> Flags::parse(int argc, char** argv, int first, const std::vector<FlagSpec>& specs) {
  Flags flags;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" && find_spec(specs, "help") != nullptr) arg = "--help";
    if (arg.rfind("--", 0) != 0 || arg == "--") {
      // No command takes arguments: a word here is a mistake (a forgotten --config), not something to ignore.
      return Error{"unexpected argument '" + arg + "' (flags start with --; see --help)"};
    }
    std::string name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const FlagSpec* spec = find_spec(specs, name);
    if (spec == nullptr) return Error{"unknown flag --" + name};
    if (!spec->takes_value) {
      // A switch is on when given; --name=false turns it off again (callers ask has()).
      const std::string value = inline_value.value_or("true");
      if (value != "true" && value != "false")
        return Error{"flag --" + name + " is true or false, got '" + value + "'"};
      flags.values_.erase(name);
      if (value == "true") flags.values_.emplace(name, value);
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
