#include "config/client_connection.hpp"

#include <cmath>

#include "config/yaml_fields.hpp"

namespace troupe::config {

ClientConnection parse_client_connection(const YAML::Node& node, const std::string& path) {
  ClientConnection c;
  if (is_absent(node)) return c;
  expect_map(node, path);
  reject_unknown_fields(node, path, {"kubeconfig", "acceptContentTypes", "contentType", "qps", "burst"});
  read_optional(node, path, "kubeconfig", c.kubeconfig);
  read_optional(node, path, "acceptContentTypes", c.accept_content_types);
  read_optional(node, path, "contentType", c.content_type);
  read_optional(node, path, "qps", c.qps);
  read_optional(node, path, "burst", c.burst);
  if (!std::isfinite(c.qps)) throw FieldError(child_path(path, "qps"), "must be a finite number");
  if (c.qps < 0) throw FieldError(child_path(path, "qps"), "must not be negative");
  if (c.burst < 0) throw FieldError(child_path(path, "burst"), "must not be negative");
  if (c.content_type.empty()) c.content_type = ClientConnection{}.content_type;
  if (c.qps == 0) c.qps = ClientConnection{}.qps;
  if (c.burst == 0) c.burst = ClientConnection{}.burst;
  return c;
}

}  // namespace troupe::config
