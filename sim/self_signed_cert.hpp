#pragma once
// A throwaway certificate authority and a server certificate signed by it,
// made with OpenSSL at start-up for `apiserver --tls`: clients trust the CA
// (written into the kubeconfig as certificate-authority-data) and verify the
// server's name against its subjectAltNames.

#include <string>
#include <vector>

#include "model/result.hpp"

namespace troupe::sim {

struct TlsMaterial {
  std::string ca_cert_pem;
  std::string server_cert_pem;
  std::string server_key_pem;
};

/// ECDSA P-256 keys; the server certificate names `dns_names` and `ip_addresses`.
Result<TlsMaterial> generate_self_signed(const std::vector<std::string>& dns_names,
                                         const std::vector<std::string>& ip_addresses);

}  // namespace troupe::sim
