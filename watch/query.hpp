#pragma once
// Building request targets: percent-encoding of path segments and query
// values (selectors contain '=', ',', '!', '(' and spaces).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace troupe::watch {

/// Percent-encodes everything except RFC 3986 unreserved characters.
std::string url_escape(std::string_view text);

/// "path?k1=v1&k2=v2" with values escaped; empty values are skipped.
class Query {
 public:
  Query& add(std::string key, std::string value);
  std::string apply_to(const std::string& path) const;

 private:
  std::vector<std::pair<std::string, std::string>> params_;
};

}  // namespace troupe::watch
