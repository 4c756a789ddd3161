#pragma once
// A kubeconfig (apiVersion v1, kind Config) naming the embedded server: its
// URL, the CA that signed its certificate (with --tls) and the bearer token.

#include <string>

#include "model/result.hpp"

namespace troupe::sim {

struct KubeconfigSpec {
  std::string server;  // "http://127.0.0.1:PORT" or "https://..."
  std::string ca_pem;  // empty: no certificate-authority-data
  std::string token;   // empty: a user with no credentials
  std::string name = "troupe";
};

std::string kubeconfig_yaml(const KubeconfigSpec& spec);

/// Writes atomically (a temporary file renamed into place), so a reader
/// polling for the file never sees half of it.
Status write_kubeconfig(const std::string& path, const KubeconfigSpec& spec);

}  // namespace troupe::sim
