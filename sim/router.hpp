#pragma once
// Request-target parsing for the API server: which endpoint a path names
// (discovery document, health check, resource collection/item/subresource),
// the query string, and Go-compatible boolean/integer parameters.

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace troupe::sim {

enum class RouteKind {
  not_found,
  version,        // /version
  health,         // /healthz, /livez, /readyz (and their /<check> paths)
  openapi,        // /openapi/v2, /openapi/v3..., /swagger*: deliberately 404
  api_versions,   // /api
  api_group_list, // /apis
  api_group,      // /apis/{group}
  resource_list,  // /api/v1, /apis/{group}/{version}
  resource,       // a collection, item or subresource under a group version
};

struct ParsedPath {
  RouteKind kind = RouteKind::not_found;
  std::string group;   // "" for the core group
  std::string version;
  std::string ns;      // from .../namespaces/{ns}/{resource}...
  std::string plural;
  std::string name;
  std::string subresource;
  bool watch_prefix = false; // the deprecated .../watch/... form

  bool operator==(const ParsedPath& o) const {
    return kind == o.kind && group == o.group && version == o.version && ns == o.ns && plural == o.plural &&
           name == o.name && subresource == o.subresource && watch_prefix == o.watch_prefix;
  }
};

/// Parses the path part of a request target (no query string).
ParsedPath parse_path(std::string_view path);

/// Splits "a=1&b=x%20y" into decoded pairs ('+' is a space, as in Go's
/// url.ParseQuery); the first occurrence of a key wins, as url.Values.Get.
std::map<std::string, std::string> parse_query(std::string_view query);

/// Percent-decoding; nullopt for a malformed escape.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

/// Go's strconv.ParseBool: 1 t T TRUE true True / 0 f F FALSE false False.
std::optional<bool> parse_go_bool(std::string_view text);

/// A non-negative decimal integer that fits in int64; nullopt otherwise.
std::optional<int64_t> parse_non_negative_int(std::string_view text);

}  // namespace troupe::sim
