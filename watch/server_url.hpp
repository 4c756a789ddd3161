#pragma once
// ServerUrl: the `server:` of a kubeconfig cluster, split into what a
// connection needs (scheme, host, port) and the optional path prefix that some
// proxies put in front of the API (e.g. https://rancher/k8s/clusters/c-1).

#include <string>
#include <string_view>

#include "model/result.hpp"

namespace troupe::watch {

struct ServerUrl {
  bool tls = true;
  std::string host;         // without brackets, e.g. "::1" or "10.0.0.1" or "api.example"
  std::string port;         // always set: explicit or the scheme's default
  std::string base_path;    // "" or "/prefix" (no trailing slash)
  std::string host_header;  // value for the Host header: "host[:port]", IPv6 bracketed

  bool host_is_ip_address() const;
  /// "https://host:port/prefix", for messages.
  std::string to_string() const;
};

/// Accepts "https://h[:p][/prefix]", "http://…" and scheme-less "h:p" (https,
/// as client-go defaults). IPv6 literals must be bracketed.
Result<ServerUrl> parse_server_url(std::string_view url);

/// "host:port" with IPv6 hosts bracketed, as KUBERNETES_SERVICE_HOST/PORT are joined.
std::string join_host_port(const std::string& host, const std::string& port);

}  // namespace troupe::watch
