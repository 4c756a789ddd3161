#pragma once
// HttpClient: HTTP/1.1 (optionally TLS) to one API server, with a bounded pool
// of keep-alive connections for ordinary requests and dedicated connections for
// streaming watches. Beast stays inside the .cpp files so that code using the
// client (reflectors, writers, actors) does not pay for Beast's headers.
//
// Threading: every method is safe to call from many threads at once. request()
// and stream() block the calling thread (each borrows or opens its own
// connection); use a CancelToken to stop them from another thread.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/result.hpp"
#include "watch/cancel_token.hpp"
#include "watch/kube_config.hpp"

namespace troupe::watch {

class TokenSource;

struct HttpRequest {
  std::string method = "GET";
  std::string target;        // path and query, e.g. "/api/v1/pods?limit=500" (the server's base path is prepended)
  std::string body;
  std::string content_type;  // "" = no Content-Type header
  /// request(): whole-exchange deadline; stream(): longest silence between two
  /// reads of the body. 0 = the client's default.
  std::chrono::milliseconds timeout{0};
};

struct HttpResponse {
  int status = 0;                          // 0 = no response; `error` says why
  std::string body;
  std::string content_type;
  std::optional<int> retry_after_seconds;  // integer Retry-After header, if any
  std::string error;                       // transport error when status == 0
  bool cancelled = false;
  /// The request went out twice: a pooled connection died without answering
  /// and it was resent on a fresh one. A request that was written in full is
  /// resent only for GET, HEAD and OPTIONS (its first copy may have been
  /// processed); one whose write failed, whatever the method.
  bool resent = false;
};

struct StreamResult {
  int status = 0;                          // status of the response; 0 = none arrived
  std::string body;                        // the (capped) body of a non-200 response
  std::optional<int> retry_after_seconds;
  std::string error;                       // why the stream broke; "" after a clean end
  bool cancelled = false;                  // stopped through the CancelToken
  bool stopped_by_handler = false;         // the body handler returned false
  bool clean_end = false;                  // the server completed the response
  std::size_t body_bytes = 0;              // body bytes handed to the handler
};

struct HttpClientOptions {
  std::size_t max_connections = 16;  // pooled connections for request(); streams are not counted
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds request_timeout{60'000};
  std::chrono::milliseconds stream_idle_timeout{660'000};  // > the longest watch timeoutSeconds
  std::chrono::seconds idle_connection_timeout{90};        // pooled connections unused this long are closed
  std::size_t max_response_bytes = std::size_t{1} << 30;   // a full list of a large cluster fits
  std::string user_agent = "troupe";
};

struct PoolStats {
  std::size_t open = 0;     // pooled connections open (idle + borrowed)
  std::size_t idle = 0;
  std::size_t created = 0;  // connections opened since the client was made
};

class HttpClient {
 public:
  /// Validates the server URL and TLS material; connects lazily.
  static Result<std::shared_ptr<HttpClient>> create(const ClusterConfig& config, HttpClientOptions options = {});
  /// Same, with an explicit token source (tests; or sharing one between clients).
  static Result<std::shared_ptr<HttpClient>> create(const ClusterConfig& config, HttpClientOptions options,
                                                    std::shared_ptr<TokenSource> tokens);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  /// One exchange on a pooled connection. A reused connection that turns out
  /// to be closed by the server is replaced once, transparently. A 401 with a
  /// file token re-reads the token and retries once if it changed.
  HttpResponse request(const HttpRequest& request, const CancelToken* cancel = nullptr);

  /// Return false to stop reading the stream.
  using BodyHandler = std::function<bool(std::string_view bytes)>;

  /// A long-lived response (a watch) on a connection of its own: a 200 body is
  /// handed to `on_body` piece by piece as it arrives; any other status is read
  /// whole (capped at 1 MiB) into the result.
  StreamResult stream(const HttpRequest& request, const BodyHandler& on_body, const CancelToken* cancel = nullptr);

  /// "https://host:port[/prefix]".
  std::string server() const;
  PoolStats pool_stats() const;
  const HttpClientOptions& options() const;

  struct Impl;

 private:
  explicit HttpClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace troupe::watch
