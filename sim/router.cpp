#include "sim/router.hpp"

#include <vector>

namespace troupe::sim {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Splits on '/', dropping one trailing slash; nullopt if any segment is empty
// or badly escaped.
std::optional<std::vector<std::string>> split_segments(std::string_view path) {
  if (path.empty() || path[0] != '/') return std::nullopt;
  path.remove_prefix(1);
  if (!path.empty() && path.back() == '/') path.remove_suffix(1);
  std::vector<std::string> segments;
  if (path.empty()) return segments;
  size_t start = 0;
  while (true) {
    size_t slash = path.find('/', start);
    auto raw = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    auto decoded = percent_decode(raw, false);
    if (raw.empty() || !decoded) return std::nullopt;
    segments.push_back(*decoded);
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return segments;
}

bool is_health(const std::string& s) { return s == "healthz" || s == "livez" || s == "readyz"; }

// segments[first..] after /api/v1 or /apis/g/v: [watch/][namespaces/{ns}/]{plural}[/{name}[/{sub}]]
ParsedPath parse_resource(const std::vector<std::string>& segments, size_t first, ParsedPath out) {
  size_t i = first;
  if (i < segments.size() && segments[i] == "watch" && segments.size() > i + 1) {
    out.watch_prefix = true;
    ++i;
  }
  size_t remaining = segments.size() - i;
  // "namespaces/{ns}/{plural}..." names a namespaced collection; "namespaces"
  // and "namespaces/{name}" are the Namespace resource itself.
  if (remaining >= 3 && segments[i] == "namespaces") {
    out.ns = segments[i + 1];
    i += 2;
    remaining -= 2;
  }
  if (remaining == 0 || remaining > 3) return ParsedPath{};
  out.kind = RouteKind::resource;
  out.plural = segments[i];
  if (remaining >= 2) out.name = segments[i + 1];
  if (remaining == 3) out.subresource = segments[i + 2];
  return out;
}

}  // namespace

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      int hi = hex_value(text[i + 1]);
      int lo = hex_value(text[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

ParsedPath parse_path(std::string_view path) {
  auto parsed_segments = split_segments(path);
  if (!parsed_segments) return {};
  const auto& s = *parsed_segments;
  ParsedPath out;
  if (s.empty()) return out;
  if (s[0] == "version" && s.size() == 1) {
    out.kind = RouteKind::version;
  } else if (is_health(s[0]) && s.size() <= 2) {
    out.kind = RouteKind::health;
  } else if ((s[0] == "openapi") || s[0].rfind("swagger", 0) == 0) {
    out.kind = RouteKind::openapi;
  } else if (s[0] == "api") {
    if (s.size() == 1) {
      out.kind = RouteKind::api_versions;
    } else {
      out.version = s[1];
      if (s.size() == 2) {
        out.kind = RouteKind::resource_list;
      } else {
        return parse_resource(s, 2, out);
      }
    }
  } else if (s[0] == "apis") {
    if (s.size() == 1) {
      out.kind = RouteKind::api_group_list;
    } else if (s.size() == 2) {
      out.kind = RouteKind::api_group;
      out.group = s[1];
    } else {
      out.group = s[1];
      out.version = s[2];
      if (s.size() == 3) {
        out.kind = RouteKind::resource_list;
      } else {
        return parse_resource(s, 3, out);
      }
    }
  }
  return out;
}

std::map<std::string, std::string> parse_query(std::string_view query) {
  std::map<std::string, std::string> out;
  size_t start = 0;
  while (start <= query.size()) {
    size_t amp = query.find('&', start);
    auto pair = query.substr(start, amp == std::string_view::npos ? std::string_view::npos : amp - start);
    if (!pair.empty()) {
      size_t eq = pair.find('=');
      auto key = percent_decode(pair.substr(0, eq), true);
      auto value = eq == std::string_view::npos ? std::optional<std::string>("") : percent_decode(pair.substr(eq + 1), true);
      // Go drops pairs it cannot unescape; so do we.
      if (key && value) out.emplace(*key, *value);
    }
    if (amp == std::string_view::npos) break;
    start = amp + 1;
  }
  return out;
}

std::optional<bool> parse_go_bool(std::string_view text) {
  if (text == "1" || text == "t" || text == "T" || text == "TRUE" || text == "true" || text == "True") return true;
  if (text == "0" || text == "f" || text == "F" || text == "FALSE" || text == "false" || text == "False") return false;
  return std::nullopt;
}

std::optional<int64_t> parse_non_negative_int(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

}  // namespace troupe::sim
