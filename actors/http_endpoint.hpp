#pragma once
// A small plain-HTTP server for the scheduler's own endpoints: /metrics,
// /healthz, /livez, /readyz, the plugins' debug answers (/apis/v1/...) and the
// scheduler-extender verbs. It runs on its
// own I/O thread; handlers are called there and must be quick (they read
// thread-safe state or ask an actor with a short timeout).

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "model/result.hpp"

namespace troupe::actors {

struct HttpRequest {
  std::string method;  // "GET", "POST"
  std::string target;  // path with query, e.g. "/metrics"
  std::string body;
};

struct HttpReply {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

using HttpHandler = std::function<HttpReply(const HttpRequest&)>;

class HttpEndpoint {
 public:
  HttpEndpoint();
  ~HttpEndpoint();
  HttpEndpoint(const HttpEndpoint&) = delete;
  HttpEndpoint& operator=(const HttpEndpoint&) = delete;

  /// Binds "HOST:PORT" (port 0 picks a free one) and serves on a background
  /// thread until stop() or destruction.
  Status start(const std::string& listen_address, HttpHandler handler);
  void stop();
  /// The port actually bound (useful with port 0).
  unsigned short port() const { return port_.load(); }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::atomic<unsigned short> port_{0};
};

/// Splits "HOST:PORT" ("0.0.0.0:10259", "[::1]:80", ":8080"); errors name the text.
Result<std::pair<std::string, unsigned short>> split_host_port(const std::string& address);

}  // namespace troupe::actors
