#pragma once
// A throw-away PKI generated at run time with OpenSSL (nothing expires in the
// repository): a CA, a server certificate for 127.0.0.1 / localhost /
// apiserver.test signed by it, and a client certificate.

#include <string>

namespace troupe::test {

struct TestPki {
  std::string ca_pem;
  std::string server_cert_pem;
  std::string server_key_pem;
  std::string client_cert_pem;
  std::string client_key_pem;
  std::string other_ca_pem;  // a second CA that signed nothing here
};

/// Generated once per process and cached (key generation is the slow part).
const TestPki& test_pki();

/// Standard base64 of `bytes`, for kubeconfig *-data fields.
std::string base64_encode(const std::string& bytes);

}  // namespace troupe::test
