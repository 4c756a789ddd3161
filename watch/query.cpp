#include "watch/query.hpp"

namespace troupe::watch {

std::string url_escape(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '-' || u == '.' ||
        u == '_' || u == '~') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(hex[u >> 4]);
      out.push_back(hex[u & 0xF]);
    }
  }
  return out;
}

Query& Query::add(std::string key, std::string value) {
  if (!value.empty()) params_.emplace_back(std::move(key), std::move(value));
  return *this;
}

std::string Query::apply_to(const std::string& path) const {
  std::string out = path;
  char separator = path.find('?') == std::string::npos ? '?' : '&';
  for (const auto& [key, value] : params_) {
    out += separator;
    out += url_escape(key);
    out += '=';
    out += url_escape(value);
    separator = '&';
  }
  return out;
}

}  // namespace troupe::watch
