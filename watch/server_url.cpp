#include "watch/server_url.hpp"

#include <algorithm>
#include <cctype>

#include <arpa/inet.h>

namespace troupe::watch {

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

Error url_error(std::string_view url, const std::string& why) {
  return Error{"server URL \"" + std::string(url) + "\": " + why};
}

}  // namespace

bool ServerUrl::host_is_ip_address() const {
  unsigned char buf[16];
  return inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

std::string ServerUrl::to_string() const {
  return std::string(tls ? "https://" : "http://") + join_host_port(host, port) + base_path;
}

std::string join_host_port(const std::string& host, const std::string& port) {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + port;
  return host + ":" + port;
}

Result<ServerUrl> parse_server_url(std::string_view url) {
  ServerUrl out;
  std::string_view rest = url;
  if (const auto scheme_end = rest.find("://"); scheme_end != std::string_view::npos) {
    const std::string_view scheme = rest.substr(0, scheme_end);
    if (scheme == "https") {
      out.tls = true;
    } else if (scheme == "http") {
      out.tls = false;
    } else {
      return url_error(url, "unsupported scheme \"" + std::string(scheme) + "\" (want http or https)");
    }
    rest.remove_prefix(scheme_end + 3);
  }
  if (rest.find_first_of("?#") != std::string_view::npos) return url_error(url, "query and fragment are not allowed");

  const std::string_view authority = rest.substr(0, rest.find('/'));
  std::string_view path = rest.substr(authority.size());
  if (authority.find('@') != std::string_view::npos) return url_error(url, "user info is not allowed");

  std::string_view host = authority;
  std::string_view port;
  if (!host.empty() && host.front() == '[') {
    const auto close = host.find(']');
    if (close == std::string_view::npos) return url_error(url, "unterminated '[' in IPv6 host");
    port = host.substr(close + 1);
    host = host.substr(1, close - 1);
    if (!port.empty()) {
      if (port.front() != ':') return url_error(url, "unexpected text after ']'");
      port.remove_prefix(1);
    }
  } else if (const auto colon = host.rfind(':'); colon != std::string_view::npos) {
    if (host.find(':') != colon) return url_error(url, "IPv6 hosts must be written in brackets");
    port = host.substr(colon + 1);
    host = host.substr(0, colon);
  }
  if (host.empty()) return url_error(url, "missing host");
  if (!port.empty() && (!all_digits(port) || port.size() > 5 || std::stoi(std::string(port)) > 65535 ||
                        std::stoi(std::string(port)) == 0))
    return url_error(url, "invalid port \"" + std::string(port) + "\"");

  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  out.host = std::string(host);
  const bool default_port = port.empty();
  out.port = default_port ? (out.tls ? "443" : "80") : std::string(port);
  out.base_path = std::string(path);
  out.host_header = default_port ? (out.host.find(':') != std::string::npos ? "[" + out.host + "]" : out.host)
                                 : join_host_port(out.host, out.port);
  return out;
}

}  // namespace troupe::watch
