#pragma once
// The HTTP/1.1 transport of the embedded API server, on Boost.Beast: a
// listener, one session per connection (plain TCP or TLS), keep-alive, body
// size limit (413), bearer-token check (401), and watch streaming as chunked
// newline-delimited JSON, one chunk per event, written as soon as queued.
// The io_context runs on a small pool of threads; each connection has its
// own strand.

#include <cstdint>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "model/result.hpp"
#include "sim/api_handler.hpp"
#include "sim/self_signed_cert.hpp"

namespace troupe::sim {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0; // 0: any free port
  size_t threads = 2;
  size_t max_body_bytes = 3 * 1024 * 1024;
  std::string token;              // non-empty: requests need "Authorization: Bearer <token>"
  std::optional<TlsMaterial> tls; // set: serve HTTPS
  /// A watch that asked for bookmarks gets one this often (kube-apiserver's
  /// cacher: about every minute), so a quiet watch can resume from a recent version.
  std::chrono::milliseconds bookmark_interval = std::chrono::minutes(1);
};

class HttpServer {
 public:
  HttpServer(ApiHandler& handler, ObjectStore& store, HttpServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Binds, listens and starts the threads; errors name the address.
  Status start();
  /// Ends watch streams, stops accepting, joins the threads. Idempotent.
  void stop();
  /// The bound port (after start()).
  uint16_t port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace troupe::sim
