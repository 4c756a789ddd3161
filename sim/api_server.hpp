#pragma once
// The embedded, in-memory, Kubernetes-compatible API server as one object:
// store + handlers + HTTP(S) transport. Used by `troupe apiserver`, `troupe
// demo`, the benchmarks and in-process tests.

#include <cstdint>
#include <chrono>
#include <memory>
#include <string>

#include "model/result.hpp"
#include "sim/api_handler.hpp"
#include "sim/fake_koordlet.hpp"
#include "sim/http_server.hpp"
#include "sim/object_store.hpp"

namespace troupe::sim {

struct ApiServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0; // 0: any free port
  bool tls = false;  // serve HTTPS with a freshly generated self-signed CA
  std::string token; // non-empty: require this bearer token
  size_t threads = 2;
  size_t max_body_bytes = 3 * 1024 * 1024;
  std::chrono::milliseconds bookmark_interval = std::chrono::minutes(1);  // watches that asked for bookmarks
  StoreOptions store;
  FakeKoordletOptions koordlet; // interval 0: no NodeMetrics are published
};

class ApiServer {
 public:
  explicit ApiServer(ApiServerOptions options = {});
  ~ApiServer();

  /// Generates the certificate (with tls), binds and starts serving.
  Status start();
  void stop();

  /// "http://127.0.0.1:PORT" (https with tls); valid after start().
  std::string url() const;
  uint16_t port() const;
  /// The CA certificate clients should trust (empty without tls).
  const std::string& ca_pem() const { return ca_pem_; }
  const std::string& token() const { return options_.token; }
  Status write_kubeconfig(const std::string& path) const;

  ObjectStore& store() { return store_; }
  ApiHandler& handler() { return handler_; }

 private:
  ApiServerOptions options_;
  ObjectStore store_;
  ApiHandler handler_;
  std::unique_ptr<HttpServer> http_;
  std::unique_ptr<FakeKoordlet> koordlet_;
  std::string ca_pem_;
};

}  // namespace troupe::sim
