#pragma once
// A small command-line flag parser shared by the subcommands: accepts
// "--name value", "--name=value", boolean "--name" (or "--name=true|false")
// and "-h" for "--help"; rejects unknown flags and stray arguments with a
// message naming them.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace troupe::cmd {

struct FlagSpec {
  std::string name;        // without the leading dashes
  bool takes_value = true; // false: a boolean switch
  std::string help;
};

class Flags {
 public:
  /// Parses argv[first..argc) against the specs.
  static Result<Flags> parse(int argc, char** argv, int first, const std::vector<FlagSpec>& specs);

  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::string get(const std::string& name, const std::string& fallback = "") const;
  std::vector<std::string> get_all(const std::string& name) const;
  /// A non-negative integer flag: `fallback` when absent; an error naming the
  /// flag when it is not digits or below `min`.
  Result<size_t> get_count(const std::string& name, size_t fallback, size_t min = 0) const;

  /// "Usage: troupe <command> [flags]" followed by one line per flag.
  static std::string usage(const std::string& command, const std::string& summary,
                           const std::vector<FlagSpec>& specs);

 private:
  std::multimap<std::string, std::string> values_;
};

}  // namespace troupe::cmd
