#pragma once
// The clientConnection section (componentbaseconfig
// ClientConnectionConfiguration) shared by KubeSchedulerConfiguration and the
// DeschedulerConfiguration: how the process talks to the API server.

#include <cstdint>
#include <string>

#include <yaml-cpp/yaml.h>

namespace troupe::config {

struct ClientConnection {
  std::string kubeconfig;
  std::string accept_content_types;
  std::string content_type = "application/vnd.kubernetes.protobuf";
  double qps = 50;
  int32_t burst = 100;
};

/// Reads `node` (absent: the defaults). qps and burst of 0 take the defaults,
/// as the Go defaulting reads 0 as "not set" (the rate limiter would read qps
/// 0 as no limit); negative or non-finite values throw FieldError at `path`.
ClientConnection parse_client_connection(const YAML::Node& node, const std::string& path);

}  // namespace troupe::config
